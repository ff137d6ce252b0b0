"""NodeUnschedulable's registered events and queueing hints: upstream's
TestIsSchedulableAfterNodeChange and TestIsSchedulableAfterPodTolerationChange tables."""

from __future__ import annotations

from typing import Any

import pytest

from kubesched.api import Node, NodeSpec, Taint
from kubesched.framework import ActionType, ClusterEvent, EventResource, QueueingHint
from kubesched.testing import make_pod
from kubesched_nodeunschedulable import NodeUnschedulable

QUEUE = QueueingHint.QUEUE
SKIP = QueueingHint.QUEUE_SKIP
CORDONED = Node(spec=NodeSpec(unschedulable=True))
SCHEDULABLE = Node(spec=NodeSpec(unschedulable=False))
NOT_READY = Taint(key="node.kubernetes.io/not-ready", effect="NoExecute")


def hints() -> tuple[Any, Any]:
    node_event, pod_event = NodeUnschedulable().events_to_register()
    return node_event.hint, pod_event.hint


@pytest.mark.parametrize(
    ("old", "new", "hint"),
    [
        pytest.param(None, "not-a-node", QUEUE, id="error-wrong-new-object"),
        pytest.param("not-a-node", CORDONED, QUEUE, id="error-wrong-old-object"),
        pytest.param(None, CORDONED, SKIP, id="skip-queue-on-unschedulable-node-added"),
        pytest.param(None, SCHEDULABLE, QUEUE, id="queue-on-schedulable-node-added"),
        pytest.param(
            CORDONED,
            Node(spec=NodeSpec(unschedulable=True, taints=[NOT_READY])),
            SKIP,
            id="skip-unrelated-change-unschedulable-true",
        ),
        pytest.param(
            SCHEDULABLE,
            Node(spec=NodeSpec(unschedulable=False, taints=[NOT_READY])),
            SKIP,
            id="skip-unrelated-change-unschedulable-false",
        ),
        pytest.param(CORDONED, SCHEDULABLE, QUEUE, id="queue-on-unschedulable-field-change"),
    ],
)
def test_schedulable_after_node_change(old: Any, new: Any, hint: QueueingHint) -> None:
    node_hint, _ = hints()
    assert node_hint(make_pod().obj(), old, new) == hint


TOLERATING = "node.kubernetes.io/unschedulable"


@pytest.mark.parametrize(
    ("pod_uid", "old", "new", "hint"),
    [
        pytest.param("", None, "not-a-pod", QUEUE, id="error-wrong-new-object"),
        pytest.param("", "not-a-pod", make_pod().obj(), QUEUE, id="error-wrong-old-object"),
        pytest.param(
            "uid",
            make_pod().uid("different-uid").obj(),
            make_pod().uid("different-uid").toleration(TOLERATING, effect="NoSchedule").obj(),
            SKIP,
            id="skip-different-pod-update",
        ),
        pytest.param(
            "uid",
            make_pod().uid("uid").obj(),
            make_pod().uid("uid").toleration(TOLERATING, effect="NoSchedule").obj(),
            QUEUE,
            id="queue-when-the-unsched-pod-gets-toleration",
        ),
        pytest.param(
            "uid",
            make_pod().uid("uid").obj(),
            make_pod().uid("uid").toleration("unrelated-key", effect="NoSchedule").obj(),
            SKIP,
            id="skip-when-the-unsched-pod-gets-unrelated-toleration",
        ),
    ],
)
def test_schedulable_after_pod_toleration_change(
    pod_uid: str, old: Any, new: Any, hint: QueueingHint
) -> None:
    _, pod_hint = hints()
    assert pod_hint(make_pod().uid(pod_uid).obj(), old, new) == hint


def test_registers_node_and_pod_toleration_events() -> None:
    node_event, pod_event = NodeUnschedulable().events_to_register()
    expected_node = ClusterEvent(EventResource.NODE, ActionType.ADD | ActionType.UPDATE_NODE_TAINT)
    assert node_event.event == expected_node
    assert pod_event.event == ClusterEvent(EventResource.POD, ActionType.UPDATE_POD_TOLERATION)
