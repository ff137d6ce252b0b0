"""`kubesched simulate` end to end, as users run it: read a manifest, schedule, print JSON.

The cluster is SchedulingBasic-shaped (upstream scheduler_perf's node and pod
templates: nodes of cpu 4, memory 32Gi, 110 pods; pods requesting cpu 100m and
memory 500Mi), written as one `kind: List` JSON file like `kubectl get -o json`
output. Each workload runs the real command in a subprocess twice per repeat:
with the pending pods, and with none (the same nodes and running pods), so

    pods/s = pods scheduled / (time with them - time without them)

(pods/CPU-s the same with the command's CPU time, steadier on a shared machine;
peak_rss_mib is the largest command's peak resident memory)

counts parsing, scheduling and printing the pods, not the interpreter's start-up
or the nodes' loading. `load_seconds` is the time `load_manifests` takes to read
the whole file in process. Medians of `--repeat` runs (default 3).

    uv run python benchmarks/simulate_cli.py            # 500 and 5,000 nodes
    uv run python benchmarks/simulate_cli.py --quick    # small enough for CI
    uv run python benchmarks/simulate_cli.py --explain  # --explain on a realistic dump

`--explain` runs `kubesched simulate DUMP --explain -o json` on the realistic dump
of benchmarks/dump_gen.py (500 nodes unless `--explain-dump-nodes`; written once to
benchmarks/results/dumps), once with the default short explanations and once with
`--explain-nodes all`, each run measured alone: wall and CPU seconds, peak RSS and
the bytes of JSON written (medians of `--repeat` runs; the load average beside them).

Prints JSON and writes it to benchmarks/results/simulate_cli.json.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from attrs import frozen
from dump_gen import ensure

from kubesched.api._manifests import load_manifests

RESULTS = Path(__file__).parent / "results" / "simulate_cli.json"


@frozen
class Workload:
    name: str
    nodes: int
    running_pods: int
    pending_pods: int


FULL = [
    Workload("SimulateCLI/500Nodes_1000Pods", 500, 500, 1000),
    Workload("SimulateCLI/5000Nodes_10000Pods", 5000, 1000, 10000),
]
QUICK = [Workload("SimulateCLI/100Nodes_200Pods", 100, 100, 200)]


def node(i: int) -> dict[str, Any]:
    capacity = {"cpu": "4", "memory": "32Gi", "pods": "110"}
    return {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {"name": f"scheduler-perf-{i}", "labels": {"kubernetes.io/hostname": f"n{i}"}},
        "status": {"capacity": capacity, "allocatable": capacity},
    }


def pod(name: str, node_name: str | None) -> dict[str, Any]:
    resources = {"cpu": "100m", "memory": "500Mi"}
    spec: dict[str, Any] = {
        "containers": [
            {
                "name": "pause",
                "image": "registry.k8s.io/pause:3.10.1",
                "resources": {"requests": resources, "limits": resources},
                "ports": [{"containerPort": 80}],
            }
        ]
    }
    if node_name is not None:
        spec["nodeName"] = node_name
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": name, "namespace": "default"},
        "spec": spec,
    }


def manifest(workload: Workload, pending: bool) -> dict[str, Any]:
    items = [node(i) for i in range(workload.nodes)]
    items += [
        pod(f"running-{i}", f"scheduler-perf-{i % workload.nodes}")
        for i in range(workload.running_pods)
    ]
    if pending:
        items += [pod(f"pod-{i}", None) for i in range(workload.pending_pods)]
    return {"apiVersion": "v1", "kind": "List", "items": items}


def simulate(path: Path) -> tuple[float, dict[str, Any]]:
    """Wall and CPU time of `kubesched simulate PATH -o json`, and its document."""
    command = [sys.executable, "-c", "import sys; from kubesched.cli import main; sys.exit(main())"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        [*command, "simulate", str(path), "-o", "json"],
        capture_output=True,
        text=True,
        check=True,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return wall, cpu, json.loads(done.stdout)


def run(workload: Workload, repeat: int, folder: Path) -> dict[str, Any]:
    with_pods, without = folder / "with.json", folder / "without.json"
    with_pods.write_text(json.dumps(manifest(workload, pending=True)))
    without.write_text(json.dumps(manifest(workload, pending=False)))
    loads, full, base, rates, cpu_rates = [], [], [], [], []
    scheduled = 0
    for _ in range(max(repeat, 1)):
        start = time.perf_counter()
        load_manifests(with_pods)
        loads.append(time.perf_counter() - start)
        seconds, cpu, document = simulate(with_pods)
        baseline, baseline_cpu, _ = simulate(without)
        scheduled = document["summary"]["scheduled"]
        full.append(seconds)
        base.append(baseline)
        rates.append(scheduled / max(seconds - baseline, 1e-9))
        cpu_rates.append(scheduled / max(cpu - baseline_cpu, 1e-9))
    return {
        "name": workload.name,
        "nodes": workload.nodes,
        "running_pods": workload.running_pods,
        "pending_pods": workload.pending_pods,
        "scheduled": scheduled,
        "manifest_bytes": with_pods.stat().st_size,
        "load_seconds": round(statistics.median(loads), 3),
        "command_seconds": round(statistics.median(full), 3),
        "baseline_seconds": round(statistics.median(base), 3),
        "pods_per_second": round(statistics.median(rates), 1),
        "runs_pods_per_second": [round(r, 1) for r in sorted(rates)],
        "pods_per_cpu_second": round(statistics.median(cpu_rates), 1),
        "peak_rss_mib": round(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024),
    }


DUMPS = Path(__file__).parent / "results" / "dumps"
VIEWS = {"summary": [], "all": ["--explain-nodes", "all"]}
"""The explanation views measured, by name: the default and every node."""


def explained(path: Path, extra: list[str], folder: Path) -> dict[str, float]:
    """One `simulate PATH --explain -o json` run, measured alone (os.wait4 gives this
    child's own resource use): wall and CPU seconds, peak RSS, bytes written."""
    command = [sys.executable, "-c", "import sys; from kubesched.cli import main; sys.exit(main())"]
    out = folder / "explained.json"
    start = time.perf_counter()
    with out.open("wb") as stream:
        child = subprocess.Popen(
            [*command, "simulate", str(path), "--explain", "-o", "json", *extra],
            stdout=stream,
            stderr=subprocess.DEVNULL,
        )
        _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise SystemExit(f"simulate exited {child.returncode} on {path}")
    size = out.stat().st_size
    out.unlink()
    return {
        "wall_seconds": wall,
        "cpu_seconds": usage.ru_utime + usage.ru_stime,
        "peak_rss_mib": usage.ru_maxrss / 1024,
        "output_bytes": size,
    }


def explain_dump(nodes: int, repeat: int, folder: Path) -> dict[str, Any]:
    """Each view of `--explain` on the realistic dump of `nodes` nodes (medians)."""
    path, objects = ensure(nodes, 1, "yaml", DUMPS)
    views: dict[str, Any] = {}
    for view, extra in VIEWS.items():
        load = os.getloadavg()[0]
        runs = [explained(path, extra, folder) for _ in range(max(repeat, 1))]
        views[view] = {
            key: round(statistics.median(r[key] for r in runs), 2) for key in runs[0]
        } | {"load_average": round(load, 1)}
    return {
        "name": f"SimulateExplain/{nodes}NodesDump",
        "dump": path.name,
        "dump_bytes": path.stat().st_size,
        "objects": objects,
        "views": views,
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a small workload, for CI")
    parser.add_argument("--repeat", type=int, default=3, help="runs per workload (median)")
    parser.add_argument("--only", default="", help="run the workloads whose name contains this")
    parser.add_argument("--output", type=Path, default=RESULTS, help="where to write the JSON")
    parser.add_argument(
        "--explain", action="store_true", help="--explain on a realistic dump, both views"
    )
    parser.add_argument("--explain-dump-nodes", type=int, default=500, help="with --explain")
    args = parser.parse_args(argv)
    workloads = [w for w in (QUICK if args.quick else FULL) if args.only in w.name]
    with tempfile.TemporaryDirectory() as tmp:
        if args.explain:
            results = [explain_dump(args.explain_dump_nodes, args.repeat, Path(tmp))]
        else:
            results = [run(w, args.repeat, Path(tmp)) for w in workloads]
    report = {
        "benchmark": "simulate_cli",
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "repeat": args.repeat,
        "workloads": results,
    }
    text = json.dumps(report, indent=2)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(text + "\n")
    print(text)
    return report


if __name__ == "__main__":
    main(sys.argv[1:])
