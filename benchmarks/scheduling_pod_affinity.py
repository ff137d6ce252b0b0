"""Scheduling throughput with inter-pod affinity, modelled on upstream scheduler_perf's
SchedulingPodAntiAffinity and SchedulingPreferredPodAffinity.

Nodes from upstream's node template, labelled with their hostname as a kubelet
labels them; pods from its pod-with-pod-anti-affinity template (label
color=green, required anti-affinity to color=green on kubernetes.io/hostname, in
namespaces sched-0 and sched-1) and pod-with-preferred-pod-affinity template
(label foo, preferred affinity of weight 1 to foo on kubernetes.io/hostname).
The init pods go to sched-0 and are not measured; the measured pods go to
sched-1. Default profile. `pods_per_cpu_second` divides by the process's CPU time
instead of wall time, for machines shared with other work.

    uv run python benchmarks/scheduling_pod_affinity.py           # upstream's 5,000-node shapes
    uv run python benchmarks/scheduling_pod_affinity.py --quick   # 500 nodes, for CI

Prints JSON and writes it to benchmarks/results/scheduling_pod_affinity.json.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from _measure import measure, write_report
from attrs import evolve, frozen
from scheduling_basic import make_node as basic_node
from scheduling_basic import make_pod as basic_pod

from kubesched.api import (
    Affinity,
    LabelSelector,
    Node,
    Pod,
    PodAffinity,
    PodAffinityTerm,
    WeightedPodAffinityTerm,
)

HOSTNAME = "kubernetes.io/hostname"
NAMESPACES = ["sched-0", "sched-1"]
RESULTS = Path(__file__).parent / "results" / "scheduling_pod_affinity.json"
UPSTREAM_THRESHOLDS = {
    "SchedulingPodAntiAffinity/5000Nodes_2000Pods": 60,
    "SchedulingPreferredPodAffinity/5000Nodes_5000Pods": 90,
}
"""scheduler_perf's thresholds (pods/s, Average) for these shapes (affinity/performance-config)."""


def make_node(i: int) -> Node:
    node = basic_node(i)
    labels = {HOSTNAME: node.metadata.name}
    return evolve(node, metadata=evolve(node.metadata, labels=labels))


def anti_affinity_pod(prefix: str, i: int, namespace: str) -> Pod:
    pod = basic_pod(prefix, i)
    term = PodAffinityTerm(
        topology_key=HOSTNAME,
        label_selector=LabelSelector(match_labels={"color": "green"}),
        namespaces=list(NAMESPACES),
    )
    affinity = Affinity(pod_anti_affinity=PodAffinity([term]))
    meta = evolve(pod.metadata, namespace=namespace, labels={"color": "green", "name": "test"})
    return evolve(pod, metadata=meta, spec=evolve(pod.spec, affinity=affinity))


def preferred_affinity_pod(prefix: str, i: int, namespace: str) -> Pod:
    pod = basic_pod(prefix, i)
    term = PodAffinityTerm(
        topology_key=HOSTNAME,
        label_selector=LabelSelector(match_labels={"foo": ""}),
        namespaces=list(NAMESPACES),
    )
    affinity = Affinity(pod_affinity=PodAffinity([], [WeightedPodAffinityTerm(1, term)]))
    meta = evolve(pod.metadata, namespace=namespace, labels={"foo": ""})
    return evolve(pod, metadata=meta, spec=evolve(pod.spec, affinity=affinity))


@frozen
class Workload:
    name: str
    nodes: int
    init_pods: int
    measured_pods: int
    pod: Callable[[str, int, str], Pod]


FULL = [
    Workload("SchedulingPodAntiAffinity/5000Nodes_2000Pods", 5000, 1000, 1000, anti_affinity_pod),
    Workload(
        "SchedulingPreferredPodAffinity/5000Nodes_5000Pods",
        5000,
        5000,
        5000,
        preferred_affinity_pod,
    ),
]
QUICK = [
    Workload("SchedulingPodAntiAffinity/500Nodes", 500, 100, 400, anti_affinity_pod),
    Workload("SchedulingPreferredPodAffinity/500Nodes", 500, 500, 500, preferred_affinity_pod),
]


def run(workload: Workload) -> dict[str, Any]:
    result = measure(
        workload.name,
        [make_node(i) for i in range(workload.nodes)],
        [workload.pod("init", i, NAMESPACES[0]) for i in range(workload.init_pods)],
        lambda: (workload.pod("pod", i, NAMESPACES[1]) for i in range(workload.measured_pods)),
    )
    return {**result, "upstream_threshold": UPSTREAM_THRESHOLDS.get(workload.name)}


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="500-node workloads, for CI")
    parser.add_argument("--only", default="", help="run the workloads whose name contains this")
    parser.add_argument("--output", type=Path, default=RESULTS, help="where to write the JSON")
    args = parser.parse_args(argv)
    selected = [w for w in (QUICK if args.quick else FULL) if args.only in w.name]
    workloads = [run(w) for w in selected]
    return write_report("scheduling_pod_affinity", args.output, workloads=workloads)


if __name__ == "__main__":
    main(sys.argv[1:])
