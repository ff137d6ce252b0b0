"""NodeAffinity's registered events and queueing hint: upstream's
Test_isSchedulableAfterNodeChange table."""

from __future__ import annotations

from typing import Any

import pytest

from kubesched.api import NodeAffinity as Spec
from kubesched.api import NodeSelector
from kubesched.api import NodeSelectorRequirement as R
from kubesched.api import NodeSelectorTerm as T
from kubesched.framework import ActionType, ClusterEvent, EventResource, QueueingHint
from kubesched.testing import make_node, make_pod
from kubesched_nodeaffinity import NodeAffinity, NodeAffinityArgs

QUEUE = QueueingHint.QUEUE
SKIP = QueueingHint.QUEUE_SKIP
POD = make_pod("p").node_affinity_in("foo", ["bar"]).obj()
ENFORCED = NodeAffinityArgs(
    Spec(
        required_during_scheduling_ignored_during_execution=NodeSelector(
            [T([R("foo", "In", ["bar"])])]
        )
    )
)
PLAIN = make_node("").obj()
FOO_BAR = make_node("").label("foo", "bar").obj()


@pytest.mark.parametrize(
    ("args", "old", "new", "hint"),
    [
        pytest.param(NodeAffinityArgs(), None, "not-a-node", QUEUE, id="backoff-wrong-new-object"),
        pytest.param(NodeAffinityArgs(), "not-a-node", PLAIN, QUEUE, id="backoff-wrong-old-object"),
        pytest.param(NodeAffinityArgs(), None, PLAIN, SKIP, id="skip-queue-on-add"),
        pytest.param(NodeAffinityArgs(), None, FOO_BAR, QUEUE, id="queue-on-add"),
        pytest.param(
            NodeAffinityArgs(),
            PLAIN,
            make_node("").capacity(cpu="1").obj(),
            SKIP,
            id="skip-unrelated-changes",
        ),
        pytest.param(
            NodeAffinityArgs(),
            PLAIN,
            make_node("").label("k", "v").obj(),
            SKIP,
            id="skip-unrelated-changes-on-labels",
        ),
        pytest.param(
            NodeAffinityArgs(),
            FOO_BAR,
            make_node("").label("foo", "bar").label("k", "v").obj(),
            SKIP,
            id="skip-labels-changes-on-suitable-node",
        ),
        pytest.param(
            NodeAffinityArgs(),
            FOO_BAR,
            make_node("").label("k", "v").obj(),
            SKIP,
            id="skip-labels-changes-on-node-from-suitable-to-unsuitable",
        ),
        pytest.param(
            NodeAffinityArgs(),
            PLAIN,
            FOO_BAR,
            QUEUE,
            id="queue-on-labels-change-makes-pod-schedulable",
        ),
        pytest.param(
            ENFORCED, None, PLAIN, SKIP, id="skip-queue-on-add-scheduler-enforced-node-affinity"
        ),
        pytest.param(
            ENFORCED, None, FOO_BAR, QUEUE, id="queue-on-add-scheduler-enforced-node-affinity"
        ),
    ],
)
def test_schedulable_after_node_change(
    args: NodeAffinityArgs, old: Any, new: Any, hint: QueueingHint
) -> None:
    (registered,) = NodeAffinity(args, None).events_to_register()
    assert registered.hint is not None
    assert registered.hint(POD, old, new) == hint


def test_selectors_that_do_not_parse_queue_the_pod() -> None:
    broken = make_pod("p").node_affinity_in("invalid key", ["bar"]).obj()
    (registered,) = NodeAffinity().events_to_register()
    assert registered.hint is not None
    assert registered.hint(broken, None, PLAIN) == QUEUE


def test_registers_node_additions_and_label_updates() -> None:
    (registered,) = NodeAffinity().events_to_register()
    expected = ClusterEvent(EventResource.NODE, ActionType.ADD | ActionType.UPDATE_NODE_LABEL)
    assert registered.event == expected
