"""Scheduling throughput, modelled on upstream scheduler_perf's SchedulingBasic.

Nodes from upstream's node template (cpu 4, memory 32Gi, pods 110), pods from
its pod template (one container requesting cpu 100m, memory 500Mi), the
default profile. The init pods are scheduled first and not measured; then the
measured pods are created and scheduled, and the time to schedule them (not
to build the objects) gives pods/s. Like scheduler_perf's SchedulingThroughput
the run is also sampled every second; `average` is the mean of those samples.

    uv run python benchmarks/scheduling_basic.py            # 500 and 5,000 nodes, and scaling
    uv run python benchmarks/scheduling_basic.py --quick    # small enough for CI
    uv run python benchmarks/scheduling_basic.py --profile  # + where the time goes (cProfile)
    uv run python benchmarks/scheduling_basic.py --only 5000Nodes_10000Pods --repeat 3

Each workload runs `--repeat` times (default 3) and reports the median run; pods/s
divides the pods actually scheduled by the time it took.

Prints JSON and writes it to benchmarks/results/scheduling_basic.json.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import platform
import pstats
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from attrs import frozen

from kubesched.api import (
    CPU,
    MEMORY,
    PODS,
    Container,
    ContainerPort,
    Node,
    NodeStatus,
    ObjectMeta,
    Pod,
    PodSpec,
    ResourceRequirements,
    parse_quantity,
)
from kubesched.cluster.memory import InMemoryCluster
from kubesched.config import default_config
from kubesched.framework import default_registry
from kubesched.profile import build_simulation

UPSTREAM_THRESHOLD_5000_NODES = 680
"""scheduler_perf's SchedulingBasic/5000Nodes_10000Pods threshold (pods/s, Average)."""
RESULTS = Path(__file__).parent / "results" / "scheduling_basic.json"


@frozen
class Workload:
    name: str
    nodes: int
    init_pods: int
    measured_pods: int


FULL = [
    Workload("SchedulingBasic/500Nodes", 500, 500, 1000),
    Workload("SchedulingBasic/5000Nodes_10000Pods", 5000, 1000, 10000),
]
SCALING = [Workload(f"Scaling/{n}Nodes", n, 1000, 3000) for n in (500, 1000, 5000, 15000)]
QUICK = [
    Workload("SchedulingBasic/100Nodes", 100, 100, 200),
    Workload("SchedulingBasic/500Nodes", 500, 500, 1000),
]


def make_node(i: int) -> Node:
    capacity = {CPU: 4000, MEMORY: parse_quantity("32Gi"), PODS: 110}
    return Node(
        metadata=ObjectMeta(name=f"scheduler-perf-{i}", uid=f"node-{i}"),
        status=NodeStatus(capacity=capacity, allocatable=dict(capacity)),
    )


def make_pod(prefix: str, i: int) -> Pod:
    resources = {CPU: 100, MEMORY: parse_quantity("500Mi")}
    container = Container(
        name="pause",
        image="registry.k8s.io/pause:3.10.1",
        resources=ResourceRequirements(requests=resources, limits=dict(resources)),
        ports=[ContainerPort(container_port=80)],
    )
    meta = ObjectMeta(name=f"{prefix}-{i}", namespace="default", uid=f"{prefix}-{i}")
    return Pod(metadata=meta, spec=PodSpec(containers=[container]))


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


def run(workload: Workload, profile: bool) -> dict[str, Any]:
    registry = default_registry()
    init = [make_pod("init", i) for i in range(workload.init_pods)]
    cluster = InMemoryCluster(nodes=[make_node(i) for i in range(workload.nodes)], pods=init)
    simulation = build_simulation(default_config(registry), registry, cluster)
    simulation.run()
    measured = [make_pod("pod", i) for i in range(workload.measured_pods)]
    for pod in measured:
        cluster.add_pod(pod)
    profiler = cProfile.Profile() if profile else None
    sampler = Sampler(len(simulation.scheduler.outcomes))
    if profiler is not None:
        profiler.enable()
    start = time.perf_counter()
    result = simulation.run(sampler)
    elapsed = time.perf_counter() - start
    if profiler is not None:
        profiler.disable()
    scheduled = result.summary.scheduled - workload.init_pods
    out: dict[str, Any] = {
        "name": workload.name,
        "nodes": workload.nodes,
        "init_pods": workload.init_pods,
        "measured_pods": workload.measured_pods,
        "scheduled": scheduled,
        "seconds": round(elapsed, 3),
        "pods_per_second": round(scheduled / elapsed, 1),
        "samples": {
            "count": len(sampler.samples),
            "average": round(statistics.fmean(sampler.samples), 1) if sampler.samples else None,
            "p50": _percentile(sampler.samples, 50),
            "p90": _percentile(sampler.samples, 90),
        },
    }
    if profiler is not None:
        out["profile"] = _top_entries(profiler)
    return out


def median_of(workload: Workload, repeat: int, profile: bool) -> dict[str, Any]:
    """The run with the median pods/s of `repeat` runs, with every run's pods/s beside it."""
    runs = sorted(
        (run(workload, profile) for _ in range(max(repeat, 1))),
        key=lambda r: float(r["pods_per_second"]),
    )
    middle = runs[len(runs) // 2]
    return {**middle, "runs_pods_per_second": [r["pods_per_second"] for r in runs]}


def _percentile(samples: list[float], p: int) -> float | None:
    """scheduler_perf's percentile: sorted samples, index ceil(len·p/100) - 1."""
    if not samples:
        return None
    ordered = sorted(samples)
    index = max(-(-len(ordered) * p // 100) - 1, 0)
    return round(ordered[index], 1)


def _top_entries(profiler: cProfile.Profile, count: int = 15) -> list[dict[str, Any]]:
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


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small workloads, for CI")
    parser.add_argument("--profile", action="store_true", help="add cProfile's top entries")
    parser.add_argument("--only", default="", help="run the workloads whose name contains this")
    parser.add_argument("--output", type=Path, default=RESULTS, help="where to write the JSON")
    parser.add_argument("--repeat", type=int, default=3, help="runs per workload (median)")
    args = parser.parse_args(argv)
    workloads = [w for w in (QUICK if args.quick else FULL + SCALING) if args.only in w.name]
    report = {
        "benchmark": "scheduling_basic",
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "repeat": args.repeat,
        "upstream_threshold_5000_nodes": UPSTREAM_THRESHOLD_5000_NODES,
        "workloads": [median_of(w, args.repeat, args.profile) for w in workloads],
    }
    text = json.dumps(report, indent=2)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(text + "\n")
    print(text)
    return report


if __name__ == "__main__":
    main(sys.argv[1:])
