"""PreEnqueue and the queueing hint, re-expressing upstream's scheduling_gates_test.go."""

from __future__ import annotations

from typing import Any

import pytest

from kubesched.api import Pod
from kubesched.framework import (
    ActionType,
    ClusterEvent,
    Code,
    EventResource,
    QueueingHint,
    Status,
)
from kubesched.testing import make_pod
from kubesched_schedulinggates import SchedulingGates
from kubesched_schedulinggates.plugin import schedulable_after_gates_eliminated

# (name, pod, expected status; None lets the pod in)
PRE_ENQUEUE_CASES = [
    ("pod does not carry scheduling gates", make_pod("p").obj(), None),
    (
        "pod carries scheduling gates",
        make_pod("p").scheduling_gates("foo", "bar").obj(),
        Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, "waiting for scheduling gates: [foo bar]"),
    ),
    # Beyond upstream's table.
    (
        "one gate",
        make_pod("p").scheduling_gates("example.com/quota").obj(),
        Status(
            Code.UNSCHEDULABLE_AND_UNRESOLVABLE, "waiting for scheduling gates: [example.com/quota]"
        ),
    ),
]


@pytest.mark.parametrize(
    ("pod", "expected"),
    [pytest.param(pod, want, id=name) for name, pod, want in PRE_ENQUEUE_CASES],
)
def test_pre_enqueue(pod: Pod, expected: Status | None) -> None:
    assert SchedulingGates(None, None).pre_enqueue(pod=pod) == expected


QUEUE = QueueingHint.QUEUE
SKIP = QueueingHint.QUEUE_SKIP

# (name, pod, old object, new object, hint)
HINT_CASES: list[tuple[str, Pod, Any, Any, QueueingHint]] = [
    ("backoff on an old object that is not a pod", make_pod().obj(), "not-a-pod", None, QUEUE),
    ("backoff on a new object that is not a pod", make_pod().obj(), None, "not-a-pod", QUEUE),
    (
        "skip when another pod is updated",
        make_pod("p").scheduling_gates("foo", "bar").uid("uid0").obj(),
        make_pod("p1").scheduling_gates("foo", "bar").uid("uid1").obj(),
        make_pod("p1").scheduling_gates("foo").uid("uid1").obj(),
        SKIP,
    ),
    (
        "queue when the gated pod itself is updated",
        make_pod("p").scheduling_gates("foo").obj(),
        make_pod("p").scheduling_gates("foo").obj(),
        make_pod("p").obj(),
        QUEUE,
    ),
]


@pytest.mark.parametrize(
    ("pod", "old", "new", "hint"),
    [pytest.param(pod, old, new, hint, id=name) for name, pod, old, new, hint in HINT_CASES],
)
def test_gates_eliminated_hint(pod: Pod, old: Any, new: Any, hint: QueueingHint) -> None:
    assert schedulable_after_gates_eliminated(pod, old, new) is hint


def test_events_to_register() -> None:
    registered = SchedulingGates(None, None).events_to_register()
    assert [(r.event, r.hint) for r in registered] == [
        (
            ClusterEvent(EventResource.POD, ActionType.UPDATE_POD_SCHEDULING_GATES_ELIMINATED),
            schedulable_after_gates_eliminated,
        )
    ]
