"""The in-memory cluster: what each request does and the (old, new) changes it records."""

from __future__ import annotations

from typing import Any

import pytest

from kubesched.api import PodCondition
from kubesched.cluster.memory import ClusterError, InMemoryCluster
from kubesched.cluster.recorder import MemoryEventRecorder
from kubesched.errors import InputError
from kubesched.testing import make_node, make_pod


def _cluster() -> InMemoryCluster:
    cluster = InMemoryCluster(
        nodes=[make_node("n1").obj()],
        pods=[make_pod("run").node("n1").obj(), make_pod("wait").obj()],
    )
    cluster.take_changes()
    return cluster


def _kinds(cluster: InMemoryCluster) -> list[str]:
    """The changes recorded since the last call, as `add|update|delete <name>`."""

    def kind(old: Any, new: Any) -> str:
        op = "add" if old is None else "delete" if new is None else "update"
        return f"{op} {(new or old).metadata.name}"

    return [kind(old, new) for old, new in cluster.take_changes()]


def test_every_change_is_taken_once_oldest_first() -> None:
    cluster = InMemoryCluster(nodes=[make_node("n1").obj()], pods=[make_pod("p").obj()])
    assert _kinds(cluster) == ["add n1", "add p"]
    assert _kinds(cluster) == []


def test_loading_sorts_running_and_pending_and_admits_priority() -> None:
    cluster = _cluster()
    running, pending = cluster.pods()
    assert running.spec.node_name == "n1" and not pending.spec.node_name
    assert pending.spec.priority == 0
    with pytest.raises(InputError, match="already used"):
        cluster.add_pod(make_pod("wait").obj())


def test_bind_sets_node_name_and_records_the_update() -> None:
    cluster = _cluster()
    pending = cluster.pods()[1]
    cluster.bind(pending, "n1")
    bound = cluster.get_pod(pending.uid)
    assert bound is not None and bound.spec.node_name == "n1"
    assert cluster.take_changes() == [(pending, bound)]
    with pytest.raises(ClusterError, match='is already assigned to node "n1"'):
        cluster.bind(bound, "n1")


def test_delete_records_the_old_object_and_missing_pods_fail() -> None:
    cluster = _cluster()
    running, pending = cluster.pods()
    cluster.delete_pod(running)
    cluster.delete_pod(pending)
    assert cluster.take_changes() == [(running, None), (pending, None)]
    assert cluster.pods() == []
    with pytest.raises(ClusterError, match='pods "run" not found'):
        cluster.delete_pod(running)


def test_status_patch_replaces_the_condition_and_skips_no_ops() -> None:
    cluster = _cluster()
    pending = cluster.pods()[1]
    condition = PodCondition(type="PodScheduled", status="False", reason="Unschedulable")
    updated = cluster.update_pod_status(pending, condition=condition, nominated_node_name="n1")
    assert updated.status.conditions == [condition] and updated.status.nominated_node_name == "n1"
    assert cluster.update_pod_status(updated, condition=condition) == updated
    assert cluster.take_changes() == [(pending, updated)]


def test_node_add_update_delete() -> None:
    cluster = _cluster()
    cluster.add_node(make_node("n2").obj())
    cluster.update_node(make_node("n2").label("a", "b").taint("k", "v", "NoSchedule").obj())
    cluster.delete_node("n2")
    assert _kinds(cluster) == ["add n2", "update n2", "delete n2"]
    with pytest.raises(ClusterError, match='nodes "n2" not found'):
        cluster.delete_node("n2")
    with pytest.raises(ClusterError, match='nodes "n1" already exists'):
        cluster.add_node(make_node("n1").obj())


def test_recorder_keeps_events_per_object() -> None:
    recorder = MemoryEventRecorder()
    pod = make_pod("p").namespace("ns").obj()
    recorder.event(pod, "Normal", "Scheduled", "Binding", "Successfully assigned ns/p to n1")
    recorder.event(make_node("n1").obj(), "Warning", "X", "Y", "z")
    [event] = recorder.for_object("Pod ns/p")
    assert (event.type, event.reason, event.message) == (
        "Normal",
        "Scheduled",
        "Successfully assigned ns/p to n1",
    )
    assert recorder.events[1].involved == "Node n1"
