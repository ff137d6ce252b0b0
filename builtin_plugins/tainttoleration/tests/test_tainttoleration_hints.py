"""events_to_register and the queueing hints, re-expressing upstream's
TestIsSchedulableAfterNodeChange and Test_isSchedulableAfterPodChange."""

from __future__ import annotations

from typing import Any

import pytest

from kubesched.api import Pod
from kubesched.framework import ActionType, ClusterEvent, EventResource, QueueingHint
from kubesched.testing import make_node, make_pod
from kubesched_tainttoleration import TaintToleration
from kubesched_tainttoleration.hints import (
    schedulable_after_node_change,
    schedulable_after_pod_toleration_change,
)

QUEUE = QueueingHint.QUEUE
SKIP = QueueingHint.QUEUE_SKIP

POD_USER2 = make_pod("pod1").toleration("dedicated", value="user2", effect="NoSchedule").obj()

# (name, pod, old object, new object, hint)
NODE_CASES: list[tuple[str, Pod, Any, Any, QueueingHint]] = [
    (
        "backoff on a new object that is not a node",
        make_pod("pod1").obj(),
        None,
        "not-a-node",
        QUEUE,
    ),
    (
        "backoff on an old object that is not a node",
        make_pod("pod1").obj(),
        "not-a-node",
        make_node("nodeA").taint("dedicated", "user1", "NoSchedule").obj(),
        QUEUE,
    ),
    (
        "skip a node added with a taint the pod does not tolerate",
        POD_USER2,
        None,
        make_node("nodeA").taint("dedicated", "user1", "NoSchedule").obj(),
        SKIP,
    ),
    (
        "queue on a node added with a taint the pod tolerates",
        POD_USER2,
        None,
        make_node("nodeA").taint("dedicated", "user2", "NoSchedule").obj(),
        QUEUE,
    ),
    (
        "skip a change that leaves an untolerated taint",
        POD_USER2,
        make_node("nodeA").taint("dedicated", "user1", "NoSchedule").obj(),
        make_node("nodeA")
        .taint("dedicated", "user1", "NoSchedule")
        .taint("dedicated", "user3", "NoSchedule")
        .obj(),
        SKIP,
    ),
    (
        "queue when the taint changes to one the pod tolerates",
        POD_USER2,
        make_node("nodeA").taint("dedicated", "user1", "NoSchedule").obj(),
        make_node("nodeA").taint("dedicated", "user2", "NoSchedule").obj(),
        QUEUE,
    ),
    # Beyond upstream's table: a node that was already fine does not requeue.
    (
        "skip when the node was already tolerated",
        POD_USER2,
        make_node("nodeA").obj(),
        make_node("nodeA").label("x", "y").obj(),
        SKIP,
    ),
]


@pytest.mark.parametrize(
    ("pod", "old", "new", "hint"),
    [pytest.param(pod, old, new, hint, id=name) for name, pod, old, new, hint in NODE_CASES],
)
def test_node_change_hint(pod: Pod, old: Any, new: Any, hint: QueueingHint) -> None:
    assert schedulable_after_node_change(pod, old, new) is hint


def _pod(name: str, uid: str, *, tolerates: bool = False) -> Pod:
    builder = make_pod(name).namespace("ns-1").uid(uid)
    if tolerates:
        builder = builder.toleration("foo", effect="NoSchedule")
    return builder.obj()


POD_CASES: list[tuple[str, Pod, Any, Any, QueueingHint]] = [
    ("backoff on a new object that is not a pod", make_pod("p").obj(), None, "not-a-pod", QUEUE),
    (
        "backoff on an old object that is not a pod",
        make_pod("p").obj(),
        "not-a-pod",
        make_pod("p").obj(),
        QUEUE,
    ),
    (
        "skip another pod's toleration update",
        _pod("pod-1", "uid0"),
        _pod("pod-2", "uid1"),
        _pod("pod-2", "uid1", tolerates=True),
        SKIP,
    ),
    (
        "queue on a toleration added to the pod itself",
        _pod("pod-1", "uid0"),
        _pod("pod-1", "uid0"),
        _pod("pod-1", "uid0", tolerates=True),
        QUEUE,
    ),
]


@pytest.mark.parametrize(
    ("pod", "old", "new", "hint"),
    [pytest.param(pod, old, new, hint, id=name) for name, pod, old, new, hint in POD_CASES],
)
def test_pod_toleration_change_hint(pod: Pod, old: Any, new: Any, hint: QueueingHint) -> None:
    assert schedulable_after_pod_toleration_change(pod, old, new) is hint


def test_events_to_register() -> None:
    plugin = TaintToleration(None, None)
    registered = plugin.events_to_register()
    assert [(r.event, r.hint) for r in registered] == [
        (
            ClusterEvent(EventResource.NODE, ActionType.ADD | ActionType.UPDATE_NODE_TAINT),
            plugin.node_hint,
        ),
        (
            ClusterEvent(EventResource.POD, ActionType.UPDATE_POD_TOLERATION),
            schedulable_after_pod_toleration_change,
        ),
    ]
