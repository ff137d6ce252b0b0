"""Scheduling throughput with topology spreading, modelled on upstream scheduler_perf's
TopologySpreading and PreferredTopologySpreading.

Nodes from the node template (cpu 4, memory 32Gi, pods 110), labelled
`topology.kubernetes.io/zone` round robin over three zones; init pods from the
default pod template; then the measured pods, labelled `color: blue`, each with
one zone constraint (maxSkew 5, selector `color: blue`): DoNotSchedule for
TopologySpreading, ScheduleAnyway for PreferredTopologySpreading. The default
profile; only the measured pods are timed.

    uv run python benchmarks/topology_spreading.py            # upstream's 500 and 5,000-node shapes
    uv run python benchmarks/topology_spreading.py --quick    # small enough for CI

Prints JSON and writes it to benchmarks/results/topology_spreading.json.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from _measure import measure, median_of, write_report
from attrs import evolve, frozen
from scheduling_basic import make_node, make_pod

from kubesched.api import LabelSelector, Node, Pod, TopologySpreadConstraint

RESULTS = Path(__file__).parent / "results" / "topology_spreading.json"
ZONE = "topology.kubernetes.io/zone"
ZONES = ("moon-1", "moon-2", "moon-3")


@frozen
class Workload:
    name: str
    nodes: int
    init_pods: int
    measured_pods: int
    when_unsatisfiable: str


def _both(name: str, nodes: int, init: int, measured: int) -> list[Workload]:
    return [
        Workload(f"TopologySpreading/{name}", nodes, init, measured, "DoNotSchedule"),
        Workload(f"PreferredTopologySpreading/{name}", nodes, init, measured, "ScheduleAnyway"),
    ]


FULL = [
    *_both("500Nodes", 500, 1000, 1000),
    *_both("5000Nodes", 5000, 5000, 2000),
    *_both("5000Nodes_5000Pods", 5000, 5000, 5000),
]
QUICK = _both("100Nodes", 100, 200, 300)
UPSTREAM_THRESHOLDS = {
    "TopologySpreading/5000Nodes_5000Pods": 460,
    "PreferredTopologySpreading/5000Nodes_5000Pods": 340,
}
"""scheduler_perf's thresholds (pods/s, Average) for these shapes
(topology_spreading/performance-config)."""


def zoned_node(i: int) -> Node:
    node = make_node(i)
    labels = {**node.metadata.labels, ZONE: ZONES[i % len(ZONES)]}
    return evolve(node, metadata=evolve(node.metadata, labels=labels))


def spreading_pod(i: int, when_unsatisfiable: str) -> Pod:
    pod = make_pod("spreading-pod", i)
    constraint = TopologySpreadConstraint(
        max_skew=5,
        topology_key=ZONE,
        when_unsatisfiable=when_unsatisfiable,
        label_selector=LabelSelector(match_labels={"color": "blue"}),
    )
    meta = evolve(pod.metadata, labels={"color": "blue"})
    return evolve(
        pod, metadata=meta, spec=evolve(pod.spec, topology_spread_constraints=[constraint])
    )


def run(workload: Workload, profile: bool = False) -> dict[str, Any]:
    result = measure(
        workload.name,
        [zoned_node(i) for i in range(workload.nodes)],
        [make_pod("init", i) for i in range(workload.init_pods)],
        lambda: (
            spreading_pod(i, workload.when_unsatisfiable) for i in range(workload.measured_pods)
        ),
        profile=profile,
    )
    return {**result, "upstream_threshold": UPSTREAM_THRESHOLDS.get(workload.name)}


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small workloads, for CI")
    parser.add_argument("--only", default="", help="run the workloads whose name contains this")
    parser.add_argument("--output", type=Path, default=RESULTS, help="where to write the JSON")
    parser.add_argument("--profile", action="store_true", help="add cProfile's top entries")
    parser.add_argument("--repeat", type=int, default=1, help="runs per workload (median)")
    args = parser.parse_args(argv)
    selected = [w for w in (QUICK if args.quick else FULL) if args.only in w.name]
    workloads = [median_of(lambda w=w: run(w, args.profile), args.repeat) for w in selected]
    return write_report("topology_spreading", args.output, repeat=args.repeat, workloads=workloads)


if __name__ == "__main__":
    main(sys.argv[1:])
