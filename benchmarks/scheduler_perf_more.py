"""More of upstream scheduler_perf's shapes, each with upstream's threshold beside it.

- SchedulingDaemonset: DaemonSet pods, each bound by a required node affinity
  on `metadata.name` to its own node (NodeAffinity's PreFilter narrows the
  nodes to that one), two per node.
- SchedulingCSIPVs: each pod has a claim bound to its own CSI volume (driver
  ebs.csi.aws.com, 39 attachable volumes per node in its CSINode).
- SchedulingInTreePVs: the same with in-tree AWS EBS volumes and no CSINode;
  SchedulingMigratedInTreePVs: in-tree volumes on nodes whose CSINode says the
  AWS EBS plugin migrated to ebs.csi.aws.com (39 attachable).

Upstream's Unschedulable and SchedulingWhileGated run a churn or deletePods op
beside the measured pods: they are in scheduler_perf_churn.py.

Nodes follow upstream's template (cpu 4, memory 32Gi, pods 110); the default
profile, in process; init pods are tried unmeasured, then the measured pods
are timed. pods/s divides the measured pods scheduled by the wall time, as
scheduler_perf's throughput; `upstream_threshold` is upstream's (met on its CI
machines, measured otherwise). Each run is its own process.

    uv run python benchmarks/scheduler_perf_more.py            # upstream's sizes
    uv run python benchmarks/scheduler_perf_more.py --quick    # small enough for CI
    uv run python benchmarks/scheduler_perf_more.py --only Daemonset

Prints JSON and writes it to benchmarks/results/scheduler_perf_more.json.
"""

from __future__ import annotations

import sys
import time
from typing import Any

from _measure import Sampler, rates, workloads_main
from attrs import evolve, frozen
from preemption import bound_claim
from scheduling_basic import make_node, make_pod

from kubesched.api import (
    Affinity,
    AWSElasticBlockStoreVolumeSource,
    CSINode,
    CSINodeDriver,
    CSINodeSpec,
    NodeAffinity,
    NodeSelector,
    NodeSelectorRequirement,
    NodeSelectorTerm,
    ObjectMeta,
    PersistentVolume,
    PersistentVolumeClaimVolumeSource,
    Pod,
    Volume,
    VolumeNodeResources,
)
from kubesched.api._storage import MIGRATED_PLUGINS_ANNOTATION
from kubesched.cluster.memory import InMemoryCluster
from kubesched.config import default_config
from kubesched.framework import default_registry
from kubesched.profile import build_simulation
from kubesched.scheduler.outcome import SCHEDULED

EBS_DRIVER = "ebs.csi.aws.com"
AWS_EBS_PLUGIN = "kubernetes.io/aws-ebs"
VOLUME_KINDS = ("csi", "intree", "migrated")


@frozen
class Workload:
    name: str
    kind: str
    nodes: int
    init_pods: int
    measured_pods: int
    threshold: int | None


FULL = [
    Workload("SchedulingDaemonset/15000Nodes", "daemonset", 15001, 0, 30000, 1100),
    Workload("SchedulingCSIPVs/5000Nodes_5000Pods", "csi", 5000, 5000, 5000, 100),
    Workload("SchedulingInTreePVs/5000Nodes_2000Pods", "intree", 5000, 1000, 2000, 290),
    Workload("SchedulingMigratedInTreePVs/5000Nodes_5000Pods", "migrated", 5000, 5000, 5000, 100),
]
QUICK = [
    Workload("SchedulingDaemonset/1000Nodes", "daemonset", 1000, 0, 2000, None),
    Workload("SchedulingCSIPVs/500Nodes", "csi", 500, 500, 1000, None),
    Workload("SchedulingInTreePVs/500Nodes", "intree", 500, 500, 1000, None),
    Workload("SchedulingMigratedInTreePVs/500Nodes", "migrated", 500, 500, 1000, None),
]


def daemon_pod(i: int, nodes: int) -> Pod:
    """A DaemonSet pod for node `i % nodes`, as the DaemonSet controller writes it."""
    name = f"scheduler-perf-{i % nodes}"
    term = NodeSelectorTerm(
        match_fields=[NodeSelectorRequirement(key="metadata.name", operator="In", values=[name])]
    )
    required = NodeSelector(node_selector_terms=[term])
    affinity = Affinity(
        node_affinity=NodeAffinity(required_during_scheduling_ignored_during_execution=required)
    )
    pod = make_pod("daemon", i)
    return evolve(pod, spec=evolve(pod.spec, affinity=affinity))


def csi_pod(prefix: str, i: int) -> Pod:
    source = PersistentVolumeClaimVolumeSource(f"pvc-{i}")
    pod = make_pod(prefix, i)
    volumes = [Volume(name="vol", persistent_volume_claim=source)]
    return evolve(pod, spec=evolve(pod.spec, volumes=volumes))


def csi_node(i: int, migrated: bool = False) -> CSINode:
    """The node's CSINode: the EBS driver with 39 attachable volumes; `migrated` also
    says the in-tree AWS EBS plugin moved to it."""
    driver = CSINodeDriver(name=EBS_DRIVER, allocatable=VolumeNodeResources(count=39))
    annotations = {MIGRATED_PLUGINS_ANNOTATION: AWS_EBS_PLUGIN} if migrated else {}
    return CSINode(
        metadata=ObjectMeta(
            name=f"scheduler-perf-{i}", uid=f"csinode-{i}", annotations=annotations
        ),
        spec=CSINodeSpec(drivers=[driver]),
    )


def in_tree(claim: tuple[PersistentVolume, Any]) -> tuple[PersistentVolume, Any]:
    """The bound pair with its volume as an in-tree AWS EBS one (upstream's pv-aws)."""
    pv, pvc = claim
    source = AWSElasticBlockStoreVolumeSource(volume_i_d=f"vol-{pv.metadata.name}")
    return evolve(pv, spec=evolve(pv.spec, csi=None, aws_elastic_block_store=source)), pvc


def _measured(w: Workload) -> list[Pod]:
    if w.kind == "daemonset":
        return [daemon_pod(i, w.nodes) for i in range(w.measured_pods)]
    if w.kind in VOLUME_KINDS:
        return [csi_pod("measured", w.init_pods + i) for i in range(w.measured_pods)]
    return [make_pod("measured", i) for i in range(w.measured_pods)]


def _cluster(w: Workload) -> tuple[InMemoryCluster, list[Pod]]:
    """The cluster with its init pods (created, not yet tried)."""
    nodes = [make_node(i) for i in range(w.nodes)]
    if w.kind == "daemonset":
        return InMemoryCluster(nodes=nodes), []
    claims = [bound_claim(i) for i in range(w.init_pods + w.measured_pods)]
    if w.kind != "csi":
        claims = [in_tree(c) for c in claims]
    csi_nodes = (
        [] if w.kind == "intree" else [csi_node(i, w.kind == "migrated") for i in range(w.nodes)]
    )
    init = [csi_pod("init", i) for i in range(w.init_pods)]
    cluster = InMemoryCluster(
        nodes=nodes,
        pods=init,
        csi_nodes=csi_nodes,
        persistent_volumes=[pv for pv, _ in claims],
        persistent_volume_claims=[pvc for _, pvc in claims],
    )
    return cluster, init


def run(workload: Workload) -> dict[str, Any]:
    """One measured run: the init pods tried unmeasured, then the measured pods timed."""
    cluster, init = _cluster(workload)
    registry = default_registry()
    simulation = build_simulation(default_config(registry), registry, cluster)
    simulation.run()
    for pod in _measured(workload):
        cluster.add_pod(pod)
    sampler = Sampler(len(simulation.scheduler.outcomes))
    start, cpu_start = time.perf_counter(), time.process_time()
    result = simulation.run(sampler)
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    measured = [o for o in result.outcomes if "/measured-" in o.pod or "/daemon-" in o.pod]
    scheduled = sum(1 for o in measured if o.status == SCHEDULED)
    return {
        "name": workload.name,
        "nodes": workload.nodes,
        "init_pods": len(init),
        "measured_pods": workload.measured_pods,
        "upstream_threshold": workload.threshold,
        **rates(scheduled, elapsed, cpu, sampler),
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    return workloads_main("scheduler_perf_more", __doc__ or "", QUICK, FULL, run, argv)


if __name__ == "__main__":
    main(sys.argv[1:])
