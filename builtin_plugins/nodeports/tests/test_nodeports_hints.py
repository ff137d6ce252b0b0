"""events_to_register and the queueing hint, re-expressing upstream's
Test_isSchedulableAfterPodDeleted."""

from __future__ import annotations

from typing import Any

import pytest

from kubesched.framework import ActionType, ClusterEvent, EventResource, QueueingHint
from kubesched.testing import make_pod
from kubesched_nodeports import NodePorts
from kubesched_nodeports.hints import schedulable_after_pod_deleted

QUEUE = QueueingHint.QUEUE
SKIP = QueueingHint.QUEUE_SKIP
POD = make_pod("pod").host_port(8080).obj()

CASES: list[tuple[str, Any, QueueingHint]] = [
    ("backoff on an old object that is not a pod", "not-a-pod", QUEUE),
    ("skip an unscheduled pod", make_pod("gone").host_port(8080).obj(), SKIP),
    ("skip a pod without host ports", make_pod("gone").node("fake-node").obj(), SKIP),
    (
        "skip a pod holding another host port",
        make_pod("gone").node("fake-node").host_port(8081).obj(),
        SKIP,
    ),
    (
        "queue on a released host port",
        make_pod("gone").node("fake-node").host_port(8080).obj(),
        QUEUE,
    ),
    (
        "queue on a port released by a nominated pod",
        make_pod("gone").nominated_node_name("fake-node").host_port(8080).obj(),
        QUEUE,
    ),
    (
        "skip the same port on another protocol",
        make_pod("gone").node("fake-node").host_port(8080, "UDP").obj(),
        SKIP,
    ),
]


@pytest.mark.parametrize(("name", "old", "hint"), CASES, ids=[c[0] for c in CASES])
def test_schedulable_after_pod_deleted(name: str, old: Any, hint: QueueingHint) -> None:
    assert schedulable_after_pod_deleted(POD, old, None) == hint


def test_events_to_register() -> None:
    events = NodePorts().events_to_register()
    assert [e.event for e in events] == [
        ClusterEvent(EventResource.POD, ActionType.DELETE),
        ClusterEvent(EventResource.NODE, ActionType.ADD),
    ]
    assert events[0].hint is schedulable_after_pod_deleted
    assert events[1].hint is None
