"""The churn shapes: the churn op creates, or alternately creates and deletes, what its
templates build, on its ticker; the measured pods are all scheduled beside it."""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[2] / "benchmarks"))

import scheduler_perf_churn as churn_bench

from kubesched.api import CPU, PODS
from kubesched.config import default_config
from kubesched.framework import default_registry
from kubesched.profile import build_simulation


def _noop(decided: int, pending: int) -> None:
    return None


def test_create_mode_adds_one_object_of_each_template_per_tick() -> None:
    cluster = churn_bench.CountingCluster(1)
    churn = churn_bench.Churn(
        cluster, "create", [churn_bench.high_priority_pod], 0.2, _noop, number=1
    )
    for _ in range(3):
        churn.tick()
    names = sorted(p.metadata.name for p in cluster.pods())
    assert names == ["pod-h-1", "pod-h-2", "pod-h-3"]
    assert churn.churned == 3
    assert all(p.priority == 10 and not p.spec.node_name for p in cluster.pods())


def test_recreate_mode_alternately_creates_and_deletes_each_slot() -> None:
    cluster = churn_bench.CountingCluster(1)
    templates = [churn_bench.churn_node, churn_bench.high_priority_large_pod]
    churn = churn_bench.Churn(cluster, "recreate", templates, 1.0, _noop, number=1)
    seen = []
    for _ in range(4):
        churn.tick()
        seen.append(([n.name for n in cluster.nodes()], [p.metadata.name for p in cluster.pods()]))
    assert seen == [
        (["node-churn-1"], ["pod-hl-2"]),
        ([], []),
        (["node-churn-3"], ["pod-hl-4"]),
        ([], []),
    ]
    assert churn.churned == 8


def test_churn_objects_follow_upstream_templates() -> None:
    node = churn_bench.churn_node(7)
    assert node.status.allocatable[PODS] == 0
    large = churn_bench.high_priority_large_pod(1)
    assert large.spec.containers[0].resources.requests[CPU] == 9000 and large.priority == 10
    assert churn_bench.high_priority_pod(1).spec.containers[0].resources.requests[CPU] == 3000


def test_churn_ticks_on_wall_time_and_stops_once_the_measured_pods_are_bound() -> None:
    cluster = churn_bench.CountingCluster(1)
    churn = churn_bench.Churn(cluster, "create", [churn_bench.high_priority_pod], 0.01, _noop)
    churn(0, 0)
    assert cluster.pods() == []
    time.sleep(0.02)
    churn(0, 0)
    assert len(cluster.pods()) >= 1
    cluster.finished_at = 1.0
    before = len(cluster.pods())
    churn(0, 0)
    assert len(cluster.pods()) == before


def test_counting_cluster_notes_the_last_measured_binding() -> None:
    workload = churn_bench.Workload("t", "async", 2, 8, 3, None)
    cluster = churn_bench._cluster(workload)
    for i in range(3):
        cluster.add_pod(churn_bench.make_pod(churn_bench.MEASURED, i))
    registry = default_registry()
    build_simulation(default_config(registry), registry, cluster).run()
    assert cluster.bound == 3 and cluster.finished_at is not None


def test_every_shape_schedules_every_measured_pod() -> None:
    shapes = (("async", 10, 40, 0), ("mixed", 10, 0, 0), ("unschedulable", 10, 5, 0))
    for kind, nodes, init, deleting in (*shapes, ("gated", 1, 5, 8)):
        workload = churn_bench.Workload("t", kind, nodes, init, 20, None, deleting)
        result = churn_bench.run(workload)
        assert result["scheduled"] == 20
        assert result["pods_per_second"] > 0 and result["pods_per_cpu_second"] > 0


def test_gated_shape_keeps_its_gated_pods_pending_and_places_the_deleting_ones() -> None:
    workload = churn_bench.Workload("t", "gated", 1, 4, 2, None, 3)
    cluster = churn_bench._cluster(workload)
    registry = default_registry()
    build_simulation(default_config(registry), registry, cluster).run()
    placed = {p.metadata.name: p.spec.node_name for p in cluster.pods()}
    assert placed == {
        **{f"gated-{i}": "" for i in range(4)},
        **{f"deleting-{i}": "scheduler-perf-node" for i in range(3)},
    }
    light = churn_bench.light_pod("x", 0)
    assert light.spec.containers[0].resources.requests == {}
    assert churn_bench.named_node().status.allocatable[PODS] == 90000


def test_deleter_deletes_in_order_on_wall_time_until_the_measured_pods_are_bound() -> None:
    cluster = churn_bench.CountingCluster(1)
    for i in range(3):
        cluster.add_pod(churn_bench.light_pod(churn_bench.DELETING, i))
    uids = [f"{churn_bench.DELETING}-{i}" for i in range(3)]
    deleter = churn_bench.Deleter(cluster, uids, 100.0, _noop)
    deleter(0, 0)
    assert deleter.deleted == 0
    time.sleep(0.015)
    deleter(0, 0)
    assert deleter.deleted >= 1
    assert cluster.get_pod(uids[0]) is None
    cluster.finished_at = 1.0
    time.sleep(0.05)
    before = deleter.deleted
    deleter(0, 0)
    assert deleter.deleted == before


def test_unschedulable_shape_churns_pods_that_fit_nowhere() -> None:
    workload = churn_bench.Workload("t", "unschedulable", 3, 2, 1, None)
    cluster = churn_bench._cluster(workload)
    churn = churn_bench._churn(workload, cluster, _noop)
    assert isinstance(churn, churn_bench.Churn)
    churn.tick()
    registry = default_registry()
    build_simulation(default_config(registry), registry, cluster).run()
    pending = [p.metadata.name for p in cluster.pods() if not p.spec.node_name]
    assert pending == ["pod-hl-1"]
