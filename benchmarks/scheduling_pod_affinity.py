"""Scheduling throughput with inter-pod affinity, modelled on upstream scheduler_perf's
SchedulingPodAffinity, SchedulingPodAntiAffinity, SchedulingPreferredPodAffinity and
SchedulingPreferredPodAntiAffinity (affinity/performance-config).

Nodes from upstream's node template, labelled with their hostname as a kubelet
labels them; for SchedulingPodAffinity also `topology.kubernetes.io/zone: zone1`
(upstream's labelNodePrepareStrategy). Pods from upstream's templates, each with
one term over namespaces sched-0 and sched-1:

- pod-with-pod-affinity: label color=blue, required affinity to color=blue on the zone;
- pod-with-pod-anti-affinity: label color=green, required anti-affinity to color=green
  on the hostname;
- pod-with-preferred-pod-affinity: label color=red, preferred affinity (weight 1) to
  color=red on the hostname;
- pod-with-preferred-pod-anti-affinity: label color=yellow, preferred anti-affinity
  (weight 1) to color=yellow on the hostname.

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

from _measure import measure, median_of, write_report
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
ZONE = "topology.kubernetes.io/zone"
NAMESPACES = ["sched-1", "sched-0"]
RESULTS = Path(__file__).parent / "results" / "scheduling_pod_affinity.json"
UPSTREAM_THRESHOLDS = {
    "SchedulingPodAffinity/5000Nodes_5000Pods": 35,
    "SchedulingPodAntiAffinity/5000Nodes_2000Pods": 60,
    "SchedulingPreferredPodAffinity/5000Nodes_5000Pods": 90,
    "SchedulingPreferredPodAntiAffinity/5000Nodes_5000Pods": 90,
}
"""scheduler_perf's thresholds (pods/s, Average) for these shapes (affinity/performance-config)."""


def make_node(i: int, zone: str | None = None) -> Node:
    node = basic_node(i)
    labels = {HOSTNAME: node.metadata.name}
    if zone is not None:
        labels[ZONE] = zone
    return evolve(node, metadata=evolve(node.metadata, labels=labels))


def _with_term(
    pod: Pod, namespace: str, color: str, key: str, *, anti: bool, weight: int | None
) -> Pod:
    """`pod` labelled color=`color`, with one term selecting that color over `key`:
    required when `weight` is None, else preferred with that weight."""
    term = PodAffinityTerm(
        topology_key=key,
        label_selector=LabelSelector(match_labels={"color": color}),
        namespaces=list(NAMESPACES),
    )
    if weight is None:
        terms = PodAffinity([term])
    else:
        terms = PodAffinity([], [WeightedPodAffinityTerm(weight, term)])
    affinity = Affinity(pod_anti_affinity=terms) if anti else Affinity(pod_affinity=terms)
    meta = evolve(pod.metadata, namespace=namespace, labels={"color": color})
    return evolve(pod, metadata=meta, spec=evolve(pod.spec, affinity=affinity))


def affinity_pod(prefix: str, i: int, namespace: str) -> Pod:
    return _with_term(basic_pod(prefix, i), namespace, "blue", ZONE, anti=False, weight=None)


def anti_affinity_pod(prefix: str, i: int, namespace: str) -> Pod:
    return _with_term(basic_pod(prefix, i), namespace, "green", HOSTNAME, anti=True, weight=None)


def preferred_affinity_pod(prefix: str, i: int, namespace: str) -> Pod:
    return _with_term(basic_pod(prefix, i), namespace, "red", HOSTNAME, anti=False, weight=1)


def preferred_anti_affinity_pod(prefix: str, i: int, namespace: str) -> Pod:
    return _with_term(basic_pod(prefix, i), namespace, "yellow", HOSTNAME, anti=True, weight=1)


@frozen
class Workload:
    name: str
    nodes: int
    init_pods: int
    measured_pods: int
    pod: Callable[[str, int, str], Pod]
    zone: str | None = None


FULL = [
    Workload("SchedulingPodAffinity/5000Nodes_5000Pods", 5000, 5000, 5000, affinity_pod, "zone1"),
    Workload("SchedulingPodAntiAffinity/5000Nodes_2000Pods", 5000, 1000, 2000, anti_affinity_pod),
    Workload(
        "SchedulingPreferredPodAffinity/5000Nodes_5000Pods",
        5000,
        5000,
        5000,
        preferred_affinity_pod,
    ),
    Workload(
        "SchedulingPreferredPodAntiAffinity/5000Nodes_5000Pods",
        5000,
        5000,
        5000,
        preferred_anti_affinity_pod,
    ),
]
QUICK = [
    Workload("SchedulingPodAffinity/500Nodes", 500, 500, 1000, affinity_pod, "zone1"),
    Workload("SchedulingPodAntiAffinity/500Nodes", 500, 100, 400, anti_affinity_pod),
    Workload("SchedulingPreferredPodAffinity/500Nodes", 500, 500, 1000, preferred_affinity_pod),
    Workload(
        "SchedulingPreferredPodAntiAffinity/500Nodes", 500, 500, 1000, preferred_anti_affinity_pod
    ),
]


def run(workload: Workload, profile: bool = False) -> dict[str, Any]:
    result = measure(
        workload.name,
        [make_node(i, workload.zone) for i in range(workload.nodes)],
        [workload.pod("init", i, "sched-0") for i in range(workload.init_pods)],
        lambda: (workload.pod("pod", i, "sched-1") for i in range(workload.measured_pods)),
        profile=profile,
    )
    return {**result, "upstream_threshold": UPSTREAM_THRESHOLDS.get(workload.name)}


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="500-node workloads, for CI")
    parser.add_argument("--profile", action="store_true", help="add cProfile's top entries")
    parser.add_argument("--only", default="", help="run the workloads whose name contains this")
    parser.add_argument("--output", type=Path, default=RESULTS, help="where to write the JSON")
    parser.add_argument("--repeat", type=int, default=1, help="runs per workload (median)")
    parser.add_argument("--measured", type=int, default=0, help="measure this many pods instead")
    args = parser.parse_args(argv)
    selected = [w for w in (QUICK if args.quick else FULL) if args.only in w.name]
    if args.measured:
        selected = [evolve(w, measured_pods=args.measured) for w in selected]
    workloads = [median_of(lambda w=w: run(w, args.profile), args.repeat) for w in selected]
    return write_report(
        "scheduling_pod_affinity", args.output, repeat=args.repeat, workloads=workloads
    )


if __name__ == "__main__":
    main(sys.argv[1:])
