"""The benchmark workloads build the shapes they claim: preemption's preemptors each evict
three low-priority pods and all get scheduled, its claims are bound and mounted, and the
per-node plugin dispatch.py adds really joins the default profile's Filter and Score."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[2] / "benchmarks"))

import _third_party
import preemption
import replay
import scale
import scheduler_perf_more

from kubesched.cluster.memory import InMemoryCluster
from kubesched.config import default_config
from kubesched.framework import default_registry
from kubesched.framework._runtime import Framework
from kubesched.profile import build_simulation


@pytest.mark.parametrize("volumes", [False, True])
def test_every_preemptor_evicts_three_low_priority_pods(volumes: bool) -> None:
    workload = preemption.Workload("t", 6, 24, 6, volumes=volumes)
    result = preemption.run(workload)
    assert result["scheduled"] == 6
    assert result["victims"] == 18
    assert result["pods_per_second"] > 0


def test_preemptors_mount_their_own_bound_claim() -> None:
    pv, pvc = preemption.bound_claim(3)
    pod = preemption.preemptor(3, volumes=True)
    claim = pod.spec.volumes[0].persistent_volume_claim
    assert claim is not None and claim.claim_name == pvc.metadata.name
    assert pvc.spec.volume_name == pv.metadata.name
    assert pv.spec.claim_ref is not None and pv.spec.claim_ref.name == pvc.metadata.name
    assert pod.priority == preemption.HIGH_PRIORITY
    assert preemption.preemptor(3, volumes=False).spec.volumes == []


def test_scale_leaves_out_the_shape_that_does_not_fit() -> None:
    names = [shape.name for shape in scale.FULL]
    assert "500Nodes_50000Pods" not in names
    assert {"15000Nodes_10000Pods", "5000Nodes_50000Pods", "15000Nodes_50000Pods"} <= set(names)


def test_scale_only_selects_by_prefix() -> None:
    assert [s.name for s in scale.selected(scale.FULL, "5000Nodes")] == [
        "5000Nodes_10000Pods",
        "5000Nodes_50000Pods",
    ]
    assert [s.name for s in scale.selected(scale.FULL, "15000Nodes_50000Pods")] == [
        "15000Nodes_50000Pods"
    ]


def test_the_per_node_plugin_joins_filter_and_score_of_the_default_profile() -> None:
    registry = _third_party.registry()
    for with_plugin in (False, True):
        cfg = _third_party.config(with_plugin, registry)
        simulation = build_simulation(cfg, registry, InMemoryCluster())
        framework: Framework = simulation.scheduler.frameworks["default-scheduler"]
        points = framework.profile.plugins
        assert (_third_party.NAME in points["filter"]) is with_plugin
        assert (_third_party.NAME in points["score"]) is with_plugin
        assert "NodeResourcesFit" in points["filter"] and "TaintToleration" in points["score"]


def test_third_party_run_schedules_every_pod() -> None:
    wall, cpu = _third_party.one_run(40, 30, with_plugin=True)
    assert wall > 0 and cpu > 0


def test_replay_streams_a_day_of_arrivals_each_with_a_running_time() -> None:
    shape = replay.Shape(3, 500)
    events = replay.scenario(shape, seed=1).iter_events()
    assert not isinstance(events, list | tuple)
    times = [(e.at, e.duration) for e in events]
    assert len(times) == 500
    assert times == sorted(times, key=lambda t: t[0])
    assert all(d is not None and d >= 0 for _, d in times)
    assert 0.8 * replay.DAY < times[-1][0] < 1.2 * replay.DAY


def test_replay_quick_runs_and_reports_rates() -> None:
    report = replay.run(replay.Shape(20, 200, 3600.0), seed=0)
    assert report["bound"] > 150
    assert report["events"] > report["bound"]
    assert report["events_per_second"] > 0 and report["simulated_seconds"] == 3600.0


@pytest.mark.parametrize(
    ("kind", "nodes", "init", "measured"),
    [
        ("daemonset", 5, 0, 10),
        ("csi", 4, 3, 6),
        ("intree", 4, 3, 6),
        ("migrated", 4, 3, 6),
    ],
)
def test_more_scheduler_perf_shapes_schedule_every_measured_pod(
    kind: str, nodes: int, init: int, measured: int
) -> None:
    workload = scheduler_perf_more.Workload("t", kind, nodes, init, measured, None)
    result = scheduler_perf_more.run(workload)
    assert result["scheduled"] == measured
    assert result["init_pods"] == init


def test_daemonset_pods_land_on_their_own_node() -> None:
    workload = scheduler_perf_more.Workload("t", "daemonset", 3, 0, 6, None)
    cluster, _ = scheduler_perf_more._cluster(workload)
    for pod in scheduler_perf_more._measured(workload):
        cluster.add_pod(pod)
    registry = default_registry()
    build_simulation(default_config(registry), registry, cluster).run()
    placed = {p.metadata.name: p.spec.node_name for p in cluster.pods()}
    assert placed == {f"daemon-{i}": f"scheduler-perf-{i % 3}" for i in range(6)}


def test_every_claim_template_pod_gets_its_own_device() -> None:
    import dynamic_resources

    workload = dynamic_resources.Workload(
        "t", dra_nodes=3, devices_per_node=2, init_pods=2, measured_pods=5
    )
    result = dynamic_resources.run(workload)
    assert result["scheduled"] == 4  # six devices in all, two taken by the init pods
    assert result["pods_per_second"] > 0


def test_steady_state_rounds_fit_beside_the_preallocated_claims() -> None:
    import dynamic_resources

    # Two nodes of ten devices, all but ten taken up front (upstream's "full"): every round
    # of ten pods fits exactly, and deleting the pods frees their devices for the next.
    workload = dynamic_resources.steady("t", nodes=2, init_claims=10, pods=30)
    assert dynamic_resources.run(workload)["scheduled"] == 30
    # One device short: each round has one pod left over (deleted with its round).
    crowded = dynamic_resources.steady("t", nodes=2, init_claims=11, pods=30)
    assert dynamic_resources.run(crowded)["scheduled"] == 27


def test_first_available_steady_state_takes_the_second_alternative() -> None:
    import dynamic_resources

    workload = dynamic_resources.steady("t", nodes=1, init_claims=0, pods=20, first_available=True)
    assert dynamic_resources.run(workload)["scheduled"] == 20
