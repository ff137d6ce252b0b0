"""What the in-process scheduling benchmarks share: schedule the init pods unmeasured, then
time the measured ones, sampled every second like scheduler_perf, and write the report."""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import platform
import pstats
import resource
import statistics
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from _isolated import isolated

from kubesched.api import Node, Pod
from kubesched.cluster.memory import InMemoryCluster
from kubesched.config import default_config
from kubesched.framework import default_registry
from kubesched.profile import build_simulation


class Sampler:
    """Pods decided per one-second interval of wall time (scheduler_perf's throughput samples);
    `already` pods were decided before the measured ones were created."""

    def __init__(self, already: int) -> None:
        self.last_time = time.perf_counter()
        self.last_count = already
        self.samples: list[float] = []

    def __call__(self, decided: int, pending: int) -> None:
        now = time.perf_counter()
        if now - self.last_time >= 1.0:
            self.samples.append((decided - self.last_count) / (now - self.last_time))
            self.last_time, self.last_count = now, decided


def percentile(samples: list[float], p: int) -> float | None:
    """scheduler_perf's percentile: sorted samples, index ceil(len·p/100) - 1."""
    if not samples:
        return None
    ordered = sorted(samples)
    index = max(-(-len(ordered) * p // 100) - 1, 0)
    return round(ordered[index], 1)


def measure(
    name: str,
    nodes: Sequence[Node],
    init_pods: Sequence[Pod],
    measured_pods: Callable[[], Iterable[Pod]],
    *,
    profile: bool = False,
    resources: Sequence[Any] = (),
) -> dict[str, Any]:
    """Schedule `init_pods` on `nodes` with the default profile, then time scheduling the
    measured pods. pods/s divide the pods actually scheduled by wall time, pods/CPU-s by
    the process's CPU time (steadier on a shared machine). `resources` are the
    resource.k8s.io objects (DeviceClasses, templates, ResourceSlices) the cluster starts
    with."""
    registry = default_registry()
    cluster = InMemoryCluster(nodes=nodes, pods=init_pods, resources=resources)
    simulation = build_simulation(default_config(registry), registry, cluster)
    simulation.run()
    measured = list(measured_pods())
    for pod in measured:
        cluster.add_pod(pod)
    profiler = cProfile.Profile() if profile else None
    sampler = Sampler(len(simulation.scheduler.outcomes))
    if profiler is not None:
        profiler.enable()
    start, cpu_start = time.perf_counter(), time.process_time()
    result = simulation.run(sampler)
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    if profiler is not None:
        profiler.disable()
    scheduled = result.summary.scheduled - len(init_pods)
    out: dict[str, Any] = {
        "name": name,
        "nodes": len(nodes),
        "init_pods": len(init_pods),
        "measured_pods": len(measured),
        "scheduled": scheduled,
        "seconds": round(elapsed, 3),
        "pods_per_second": round(scheduled / elapsed, 1),
        "cpu_seconds": round(cpu, 3),
        "pods_per_cpu_second": round(scheduled / cpu, 1),
        "peak_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
        "samples": {
            "count": len(sampler.samples),
            "average": round(statistics.fmean(sampler.samples), 1) if sampler.samples else None,
            "p50": percentile(sampler.samples, 50),
            "p90": percentile(sampler.samples, 90),
        },
    }
    if profiler is not None:
        out["profile"] = top_entries(profiler)
    return out


def median_of(run: Callable[[], dict[str, Any]], repeat: int) -> dict[str, Any]:
    """The run with the median pods/s of `repeat` runs, with every run's pods/s beside it."""
    runs = sorted((run() for _ in range(max(repeat, 1))), key=lambda r: r["pods_per_second"])
    return {**runs[len(runs) // 2], "runs_pods_per_second": [r["pods_per_second"] for r in runs]}


def top_entries(profiler: cProfile.Profile, count: int = 15) -> list[dict[str, Any]]:
    """cProfile's functions with the most own time."""
    stats = pstats.Stats(profiler)
    entries = sorted(stats.stats.items(), key=lambda item: item[1][2], reverse=True)  # type: ignore[attr-defined]
    total = sum(v[2] for v in stats.stats.values())  # type: ignore[attr-defined]
    return [
        {
            "function": f"{Path(file).name}:{line}({name})",
            "calls": calls,
            "own_seconds": round(own, 3),
            "own_share": round(own / total, 3),
        }
        for (file, line, name), (_, calls, own, _cum, _) in entries[:count]
    ]


def write_report(benchmark: str, output: Path, **fields: Any) -> dict[str, Any]:
    """Print the JSON report and write it to `output`."""
    report = {
        "benchmark": benchmark,
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        **fields,
    }
    text = json.dumps(report, indent=2)
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(text + "\n")
    print(text)
    return report


def rates(scheduled: int, seconds: float, cpu: float, sampler: Sampler) -> dict[str, Any]:
    """What every workload's report gives about its speed: pods scheduled, per wall second
    and per CPU second, and the rates sampled every second."""
    return {
        "scheduled": scheduled,
        "seconds": round(seconds, 3),
        "pods_per_second": round(scheduled / seconds, 1),
        "cpu_seconds": round(cpu, 3),
        "pods_per_cpu_second": round(scheduled / cpu, 1),
        "samples": {
            "count": len(sampler.samples),
            "p50": percentile(sampler.samples, 50),
            "p90": percentile(sampler.samples, 90),
        },
    }


def workloads_main(
    benchmark: str,
    doc: str,
    quick: Sequence[Any],
    full: Sequence[Any],
    run: Callable[[Any], dict[str, Any]],
    argv: list[str] | None,
) -> dict[str, Any]:
    """The command line of a benchmark of named workloads: `--quick`, `--only NAME`,
    `--output FILE`, `--repeat N` (the median run); each run in a process of its own."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small workloads, for CI")
    parser.add_argument("--only", default="", help="run the workloads whose name contains this")
    default = Path(__file__).parent / "results" / f"{benchmark}.json"
    parser.add_argument("--output", type=Path, default=default, help="where to write the JSON")
    parser.add_argument("--repeat", type=int, default=1, help="runs per workload (median)")
    args = parser.parse_args(argv)
    chosen = [w for w in (quick if args.quick else full) if args.only in w.name]
    return write_report(
        benchmark,
        args.output,
        repeat=args.repeat,
        workloads=[median_of(lambda w=w: isolated(run, w), args.repeat) for w in chosen],
    )
