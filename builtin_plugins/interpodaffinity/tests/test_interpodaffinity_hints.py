"""Queueing hints: upstream's Test_isSchedulableAfterPodChange and
Test_isSchedulableAfterNodeChange cases, and the events the plugin registers."""

from __future__ import annotations

from typing import Any

import pytest
from ipa_testlib import EXISTS, IN, affinity, node, pod, term

from kubesched.framework import ActionType, EventResource, QueueingHint
from kubesched_interpodaffinity import InterPodAffinity
from kubesched_interpodaffinity.hints import (
    schedulable_after_node_change,
    schedulable_after_pod_change,
)

QUEUE, SKIP = QueueingHint.QUEUE, QueueingHint.QUEUE_SKIP
TARGET = pod(
    name="target",
    aff=affinity([term("zone", ("aaa", IN, ["a"]))], [term("region", ("bbb", IN, ["b"]))]),
)
NO_TERMS = pod(name="plain")


@pytest.mark.parametrize(
    ("target", "old", "new", "want"),
    [
        pytest.param(TARGET, None, pod({"aaa": "a"}, node_name="n"), QUEUE, id="add matching"),
        pytest.param(TARGET, None, pod({"aaa": "b"}, node_name="n"), SKIP, id="add unmatched"),
        pytest.param(TARGET, None, pod({"aaa": "a"}), SKIP, id="add unscheduled"),
        pytest.param(
            TARGET,
            pod({"aaa": "b"}, node_name="n"),
            pod({"aaa": "a"}, node_name="n"),
            QUEUE,
            id="update: now matches affinity",
        ),
        pytest.param(
            TARGET,
            pod({"bbb": "b"}, node_name="n"),
            pod({"bbb": "c"}, node_name="n"),
            QUEUE,
            id="update: no longer matches anti-affinity",
        ),
        pytest.param(
            TARGET,
            pod({"aaa": "a"}, node_name="n"),
            pod({"aaa": "a", "x": "y"}, node_name="n"),
            SKIP,
            id="update: unchanged match",
        ),
        pytest.param(
            TARGET, pod({"bbb": "b"}, node_name="n"), None, QUEUE, id="delete matching anti"
        ),
        pytest.param(TARGET, pod({"aaa": "a"}, node_name="n"), None, SKIP, id="delete other"),
        pytest.param(NO_TERMS, pod({"aaa": "a"}, node_name="n"), None, SKIP, id="no terms"),
        pytest.param(TARGET, None, node("n"), QUEUE, id="not a pod"),
    ],
)
def test_pod_change(target: Any, old: Any, new: Any, want: QueueingHint) -> None:
    assert schedulable_after_pod_change(target, old, new) == want


@pytest.mark.parametrize(
    ("target", "new", "want"),
    [
        pytest.param(TARGET, node("n", {"zone": "z1"}), QUEUE, id="affinity topology key"),
        pytest.param(TARGET, node("n", {"region": "r1"}), QUEUE, id="anti topology key"),
        pytest.param(TARGET, node("n", {"other": "x"}), SKIP, id="no topology key"),
        pytest.param(
            pod(aff=affinity(anti=[term("zone", ("k", EXISTS, []))])),
            node("n", {"zone": "z"}),
            QUEUE,
            id="anti only",
        ),
        pytest.param(TARGET, pod(), QUEUE, id="not a node"),
    ],
)
def test_node_change(target: Any, new: Any, want: QueueingHint) -> None:
    assert schedulable_after_node_change(target, None, new) == want
    assert schedulable_after_node_change(target, node("n"), new) == want


def test_events_to_register() -> None:
    plugin = InterPodAffinity(None, None)  # type: ignore[arg-type]
    pods, nodes = plugin.events_to_register()
    assert pods.event.resource == EventResource.POD
    assert pods.event.action_type == (
        ActionType.ADD | ActionType.UPDATE_POD_LABEL | ActionType.DELETE
    )
    assert nodes.event.resource == EventResource.NODE
    assert nodes.event.action_type == ActionType.ADD | ActionType.UPDATE_NODE_LABEL
