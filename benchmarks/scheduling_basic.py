"""Scheduling throughput, modelled on upstream scheduler_perf's SchedulingBasic.

Nodes from upstream's node template (cpu 4, memory 32Gi, pods 110), pods from
its pod template (one container requesting cpu 100m, memory 500Mi), the
default profile. The init pods are scheduled first and not measured; then the
measured pods are created and scheduled, and the time to schedule them (not
to build the objects) gives pods/s. Like scheduler_perf's SchedulingThroughput
the run is also sampled every second; `average` is the mean of those samples.

    uv run python benchmarks/scheduling_basic.py            # 500, 5,000, 15,000 nodes, scaling
    uv run python benchmarks/scheduling_basic.py --quick    # small enough for CI
    uv run python benchmarks/scheduling_basic.py --profile  # + where the time goes (cProfile)
    uv run python benchmarks/scheduling_basic.py --only 5000Nodes_10000Pods --repeat 3

Each workload runs `--repeat` times (default 3) and reports the median run; pods/s
divides the pods actually scheduled by the time it took.

Prints JSON and writes it to benchmarks/results/scheduling_basic.json.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from _measure import measure, median_of, write_report
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
    # Upstream's SchedulingBasic stops at 5,000 nodes (its 15,000-node shape is
    # SchedulingDaemonset); this one is SchedulingBasic's pods on 15,000 nodes.
    Workload("SchedulingBasic/15000Nodes_10000Pods", 15000, 1000, 10000),
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


def run(workload: Workload, profile: bool) -> dict[str, Any]:
    return measure(
        workload.name,
        [make_node(i) for i in range(workload.nodes)],
        [make_pod("init", i) for i in range(workload.init_pods)],
        lambda: (make_pod("pod", i) for i in range(workload.measured_pods)),
        profile=profile,
    )


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small workloads, for CI")
    parser.add_argument("--profile", action="store_true", help="add cProfile's top entries")
    parser.add_argument("--only", default="", help="run the workloads whose name contains this")
    parser.add_argument("--output", type=Path, default=RESULTS, help="where to write the JSON")
    parser.add_argument("--repeat", type=int, default=3, help="runs per workload (median)")
    args = parser.parse_args(argv)
    workloads = [w for w in (QUICK if args.quick else FULL + SCALING) if args.only in w.name]
    return write_report(
        "scheduling_basic",
        args.output,
        repeat=args.repeat,
        upstream_threshold_5000_nodes=UPSTREAM_THRESHOLD_5000_NODES,
        workloads=[median_of(lambda w=w: run(w, args.profile), args.repeat) for w in workloads],
    )


if __name__ == "__main__":
    main(sys.argv[1:])
