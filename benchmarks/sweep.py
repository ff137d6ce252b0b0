"""`kubesched sweep` runners: the speedup from one to two local processes on the same grid,
and the per-cell overhead of the Ray runner against the local one.

The grid is 2 configs (spreading and packing) x one generated cluster x `--seeds`
seeds. Local: the wall time of the whole sweep with `--jobs 1` (cells in this
process) and `--jobs 2` (a pool of two worker processes, their start included),
runs alternating, `--repeat` of each; the speedup is the ratio of the medians,
taken in the same run. Ray (skipped by `--quick` and `--no-ray`): a local Ray
cluster of one CPU on 127.0.0.1; the grid runs once cold (workers start and
import kubesched), then `--repeat` times warm, alternating with the local
one-process sweep. Two measures of Ray's per-cell overhead: (median warm Ray
wall time - median local wall time) / cells, and, steadier on a shared machine,
each runner's time outside its cells, (sweep wall time - the cells' own wall
times) / cells (dispatch, serialising cells and rows, waiting for results),
Ray's minus the local one's, both taken within the same sweeps. On a shared
machine the medians of alternating runs keep a burst of someone else's load out
of the ratios.

    uv run python benchmarks/sweep.py [--quick] [--nodes 60] [--pods 300] [--seeds 6]
        [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import textwrap
import time
from pathlib import Path
from typing import Any

from _measure import write_report

from kubesched.experiment._grid import load_grid
from kubesched.experiment._runners import LocalRunner, Runner
from kubesched.experiment._sweep import Sweep

RESULTS = Path(__file__).parent / "results" / "sweep.json"
EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "compare"


def cluster(path: Path, nodes: int, pods: int) -> Path:
    """`nodes` 8-CPU nodes and `pods` pending pods of 100m to 1 CPU."""
    docs = [
        f"apiVersion: v1\nkind: Node\nmetadata: {{name: n{i:04d}}}\n"
        f'status: {{allocatable: {{cpu: "8", memory: 32Gi, pods: "110"}}}}\n'
        for i in range(nodes)
    ]
    docs += [
        f"apiVersion: v1\nkind: Pod\nmetadata: {{name: p{i:05d}, namespace: default}}\n"
        f"spec: {{containers: [{{name: c, resources: {{requests: "
        f'{{cpu: "{100 + (i * 37) % 900}m", memory: 1Gi}}}}}}]}}\n'
        for i in range(pods)
    ]
    path.write_text("---\n".join(docs))
    return path


def grid(folder: Path, nodes: int, pods: int, seeds: int) -> Path:
    path = folder / "grid.yaml"
    path.write_text(
        textwrap.dedent(
            f"""\
            apiVersion: kubesched.io/v1alpha1
            kind: Sweep
            configs:
            - file: {EXAMPLES / "spread.yaml"}
            - file: {EXAMPLES / "pack.yaml"}
            inputs:
            - cluster: {cluster(folder / "cluster.yaml", nodes, pods)}
            seeds: 1-{seeds}
            """
        )
    )
    return path


def timed(grid_file: Path, out: Path, runner: Runner) -> dict[str, Any]:
    """One whole sweep into a fresh directory: wall seconds, cells, mean cell seconds."""
    sweep = Sweep(load_grid(grid_file), out)
    start = time.perf_counter()
    rows = sweep.run(runner)
    wall = time.perf_counter() - start
    assert all(row["status"] == "ok" for row in rows), rows
    cell_wall = cell_cpu = 0.0
    for row in rows:
        cell_wall += row["wall_seconds"]
        cell_cpu += row["cpu_seconds"]
    return {
        "cells": len(rows),
        "seconds": round(wall, 3),
        "mean_cell_seconds": round(cell_wall / len(rows), 3),
        "mean_cell_cpu_seconds": round(cell_cpu / len(rows), 3),
        "outside_cells_per_cell_seconds": round((wall - cell_wall) / len(rows), 4),
    }


def median_run(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The run of median wall time, with every run's wall time beside it."""
    ordered = sorted(runs, key=lambda r: r["seconds"])
    return {**ordered[len(ordered) // 2], "runs_seconds": [r["seconds"] for r in runs]}


def local_speedup(grid_file: Path, folder: Path, repeat: int) -> dict[str, Any]:
    one, two = [], []
    for i in range(repeat):
        one.append(timed(grid_file, folder / f"jobs1-{i}", LocalRunner(1)))
        two.append(timed(grid_file, folder / f"jobs2-{i}", LocalRunner(2)))
    first, second = median_run(one), median_run(two)
    return {
        "jobs_1": first,
        "jobs_2": second,
        "speedup_1_to_2": round(first["seconds"] / second["seconds"], 2),
    }


def ray_overhead(grid_file: Path, folder: Path, repeat: int) -> dict[str, Any]:
    os.environ["RAY_ENABLE_UV_RUN_RUNTIME_ENV"] = "0"
    import ray

    from kubesched.experiment._ray import RayRunner

    start = time.perf_counter()
    ray.init(
        address="local",
        num_cpus=1,
        include_dashboard=False,
        log_to_driver=False,
        _node_ip_address="127.0.0.1",
    )
    started = time.perf_counter() - start
    local, warm = [], []
    try:
        cold = timed(grid_file, folder / "ray-cold", RayRunner())
        for i in range(repeat):
            local.append(timed(grid_file, folder / f"local-{i}", LocalRunner(1)))
            warm.append(timed(grid_file, folder / f"ray-{i}", RayRunner()))
    finally:
        ray.shutdown()
    base, remote = median_run(local), median_run(warm)
    cells = remote["cells"]
    return {
        "cluster_start_seconds": round(started, 3),
        "cold": cold,
        "local_jobs_1": base,
        "warm": remote,
        "per_cell_overhead_seconds": round((remote["seconds"] - base["seconds"]) / cells, 3),
        "per_cell_overhead_cold_seconds": round((cold["seconds"] - base["seconds"]) / cells, 3),
        "outside_cells_per_cell_overhead_seconds": round(
            statistics.median(r["outside_cells_per_cell_seconds"] for r in warm)
            - statistics.median(r["outside_cells_per_cell_seconds"] for r in local),
            4,
        ),
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a small grid, no Ray, for CI")
    parser.add_argument("--nodes", type=int, default=60)
    parser.add_argument("--pods", type=int, default=300)
    parser.add_argument("--seeds", type=int, default=6, help="cells: 2 configs x this")
    parser.add_argument("--no-ray", action="store_true", help="skip the Ray runner")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each kind (median)")
    parser.add_argument("--output", type=Path, default=RESULTS, help="where to write the JSON")
    args = parser.parse_args(argv)
    if args.quick:
        args.nodes, args.pods, args.seeds, args.no_ray, args.repeat = 20, 60, 2, True, 1
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        grid_file = grid(folder, args.nodes, args.pods, args.seeds)
        fields: dict[str, Any] = {
            "grid": {"configs": 2, "nodes": args.nodes, "pods": args.pods, "seeds": args.seeds},
            "repeat": args.repeat,
            "load_average": [round(x, 2) for x in os.getloadavg()],
            "local": local_speedup(grid_file, folder, args.repeat),
        }
        if not args.no_ray:
            fields["ray"] = ray_overhead(grid_file, folder, args.repeat)
        fields["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    return write_report("sweep", args.output, **fields)


if __name__ == "__main__":
    main(sys.argv[1:])
