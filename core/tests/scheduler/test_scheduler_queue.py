"""The scheduling queue: ordering, backoff, gating, hints, in-flight events, flushes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from kubesched.api import Pod
from kubesched.framework import (
    ActionType,
    ClusterEvent,
    ClusterEventWithHint,
    Code,
    EventResource,
    QueuedPodInfo,
    QueueingHint,
    Status,
)
from kubesched.framework._events import (
    ASSIGNED_POD_ADD,
    ASSIGNED_POD_DELETE,
    NODE_ADD,
    WILDCARD_EVENT,
)
from kubesched.scheduler.clock import SimulatedClock
from kubesched.scheduler.entry import QueueEntry
from kubesched.scheduler.nominator import Nominator
from kubesched.scheduler.queue import SchedulingQueue
from kubesched.testing import make_pod

Hint = Callable[[Pod, Any, Any], QueueingHint]


class FakeProfile:
    """Gates pods labelled `gated`; plugin -> registered events."""

    def __init__(self, events: dict[str, list[ClusterEventWithHint]] | None = None) -> None:
        self.events = events or {}

    def run_pre_enqueue_plugins(self, pod: Pod) -> Status | None:
        if "gated" in pod.metadata.labels:
            return Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, "gated", plugin="Gate")
        return None

    def events_to_register(self) -> dict[str, list[ClusterEventWithHint]]:
        return self.events


def priority_less(a: QueuedPodInfo, b: QueuedPodInfo) -> bool:
    return a.pod.priority > b.pod.priority or (
        a.pod.priority == b.pod.priority and a.timestamp < b.timestamp
    )


def _queue(
    events: dict[str, list[ClusterEventWithHint]] | None = None,
) -> tuple[SchedulingQueue, SimulatedClock]:
    clock = SimulatedClock()
    queue = SchedulingQueue(
        clock=clock,
        less=priority_less,
        profiles={"default-scheduler": FakeProfile(events)},
        nominator=Nominator(),
    )
    return queue, clock


def _pop_names(queue: SchedulingQueue) -> list[str]:
    names = []
    while (entry := queue.pop()) is not None:
        names.append(entry.pod.metadata.name)
        queue.done(entry.uid)
    return names


def _fail(queue: SchedulingQueue, entry: QueueEntry, *plugins: str) -> None:
    entry.unschedulable_plugins = set(plugins)
    queue.add_unschedulable_if_not_present(entry)


def _popped(queue: SchedulingQueue, name: str) -> QueueEntry:
    entry = queue.pop()
    assert entry is not None and entry.pod.metadata.name == name
    return entry


def test_active_queue_orders_by_priority_then_arrival() -> None:
    queue, _ = _queue()
    for name, prio in [("low-1", 0), ("high", 10), ("low-2", 0), ("mid", 5)]:
        queue.add(make_pod(name).priority(prio).obj())
    assert _pop_names(queue) == ["high", "mid", "low-1", "low-2"]


def test_rejected_pod_without_matching_event_stays_unschedulable() -> None:
    queue, _ = _queue({"Fit": [ClusterEventWithHint(NODE_ADD)]})
    queue.add(make_pod("p").obj())
    _fail(queue, _popped(queue, "p"), "Fit")
    assert queue.pending_counts()["unschedulable"] == 1 and queue.pop() is None
    queue.move_all_to_active_or_backoff(ASSIGNED_POD_ADD, None, make_pod("x").obj())
    assert queue.pop() is None


def test_registered_event_moves_pod_to_backoff_then_active_after_backoff() -> None:
    queue, clock = _queue({"Fit": [ClusterEventWithHint(NODE_ADD)]})
    queue.add(make_pod("p").obj())
    queue.add(make_pod("q").obj())
    _fail(queue, _popped(queue, "p"), "Fit")
    queue.move_all_to_active_or_backoff(NODE_ADD, None, object())
    counts = queue.pending_counts()
    assert (counts["backoff"], counts["active"], counts["unschedulable"]) == (1, 1, 0)
    queue.flush_backoff_completed()
    assert queue.pending_counts()["backoff"] == 1, "still inside its 1s backoff"
    clock.advance_to(2.0)
    queue.flush_backoff_completed()
    assert queue.pending_counts()["active"] == 2


def test_empty_active_queue_pops_from_backoff_early() -> None:
    queue, _ = _queue({"Fit": [ClusterEventWithHint(NODE_ADD)]})
    queue.add(make_pod("p").obj())
    _fail(queue, _popped(queue, "p"), "Fit")
    queue.move_all_to_active_or_backoff(NODE_ADD, None, object())
    entry = _popped(queue, "p")
    assert entry.attempts == 2 and not entry.unschedulable_plugins


def test_hint_skip_keeps_the_pod_and_errors_count_as_queue() -> None:
    def skip(pod: Pod, old: Any, new: Any) -> QueueingHint:
        return QueueingHint.QUEUE_SKIP

    def broken(pod: Pod, old: Any, new: Any) -> QueueingHint:
        raise RuntimeError("boom")

    queue, _ = _queue(
        {
            "A": [ClusterEventWithHint(NODE_ADD, skip)],
            "B": [ClusterEventWithHint(ASSIGNED_POD_DELETE, broken)],
        }
    )
    queue.add(make_pod("p").obj())
    _fail(queue, _popped(queue, "p"), "A", "B")
    queue.move_all_to_active_or_backoff(NODE_ADD, None, object())
    assert queue.pending_counts()["unschedulable"] == 1
    queue.move_all_to_active_or_backoff(ASSIGNED_POD_DELETE, make_pod("x").obj(), None)
    assert queue.pending_counts()["backoff"] == 1


def test_only_rejecting_plugins_hints_are_asked() -> None:
    calls: list[str] = []

    def queue_hint(pod: Pod, old: Any, new: Any) -> QueueingHint:
        calls.append(pod.metadata.name)
        return QueueingHint.QUEUE

    queue, _ = _queue({"A": [ClusterEventWithHint(NODE_ADD, queue_hint)], "B": []})
    queue.add(make_pod("p").obj())
    _fail(queue, _popped(queue, "p"), "B")
    queue.move_all_to_active_or_backoff(NODE_ADD, None, object())
    assert calls == [] and queue.pending_counts()["unschedulable"] == 1


def test_pending_plugin_queue_goes_straight_to_active() -> None:
    queue, _ = _queue({"Wait": [ClusterEventWithHint(NODE_ADD)]})
    queue.add(make_pod("p").obj())
    entry = _popped(queue, "p")
    entry.pending_plugins = {"Wait"}
    queue.add_unschedulable_if_not_present(entry)
    queue.move_all_to_active_or_backoff(NODE_ADD, None, object())
    assert queue.pending_counts()["active"] == 1


def test_error_goes_to_error_backoff_and_is_not_popped_early() -> None:
    queue, clock = _queue()
    queue.add(make_pod("p").obj())
    entry = _popped(queue, "p")
    queue.add_unschedulable_if_not_present(entry)
    assert entry.consecutive_errors_count == 1 and queue.pending_counts()["backoff"] == 1
    assert queue.pop() is None
    assert queue.backoff.expiry(entry) == 1.0
    clock.advance_to(2.0)
    queue.flush_backoff_completed()
    assert _popped(queue, "p").attempts == 2


def test_event_during_the_attempt_requeues_on_failure() -> None:
    queue, _ = _queue({"Fit": [ClusterEventWithHint(ASSIGNED_POD_DELETE)]})
    queue.add(make_pod("p").obj())
    entry = _popped(queue, "p")
    queue.move_all_to_active_or_backoff(ASSIGNED_POD_DELETE, make_pod("victim").obj(), None)
    _fail(queue, entry, "Fit")
    assert queue.pending_counts()["backoff"] == 1 and queue.in_flight() == 0


def test_events_before_the_attempt_do_not_count() -> None:
    queue, _ = _queue({"Fit": [ClusterEventWithHint(ASSIGNED_POD_DELETE)]})
    queue.add(make_pod("p").obj())
    queue.add(make_pod("q").obj())
    first = _popped(queue, "p")
    queue.move_all_to_active_or_backoff(ASSIGNED_POD_DELETE, make_pod("v").obj(), None)
    second = _popped(queue, "q")
    _fail(queue, first, "Fit")
    _fail(queue, second, "Fit")
    counts = queue.pending_counts()
    assert (counts["backoff"], counts["unschedulable"]) == (1, 1)
    assert queue.get(make_pod("p").obj()) is not queue.get(make_pod("q").obj())


def test_gated_pods_wait_until_their_gating_plugin_event() -> None:
    gate_event = ClusterEvent(EventResource.POD, ActionType.UPDATE_POD_SCHEDULING_GATES_ELIMINATED)
    queue, _ = _queue({"Gate": [ClusterEventWithHint(gate_event)]})
    gated = make_pod("p").label("gated", "yes").obj()
    queue.add(gated)
    assert queue.pending_counts()["gated"] == 1 and queue.pop() is None
    status = queue.gating_status(gated)
    assert status is not None and status.message == "gated"
    queue.move_all_to_active_or_backoff(NODE_ADD, None, object())
    queue.flush_unschedulable_leftover()
    assert queue.pending_counts()["gated"] == 1
    ungated = make_pod("p").obj()
    queue.update(gated, ungated, [gate_event])
    assert _popped(queue, "p").pod is ungated


def test_wildcard_registration_moves_on_any_event() -> None:
    queue, _ = _queue({"Any": [ClusterEventWithHint(WILDCARD_EVENT)]})
    queue.add(make_pod("p").obj())
    _fail(queue, _popped(queue, "p"), "Any")
    queue.move_all_to_active_or_backoff(ASSIGNED_POD_ADD, None, make_pod("x").obj())
    assert queue.pending_counts()["backoff"] == 1


def test_leftover_flush_after_five_minutes() -> None:
    queue, clock = _queue({"Fit": [ClusterEventWithHint(NODE_ADD)]})
    queue.add(make_pod("p").obj())
    entry = _popped(queue, "p")
    _fail(queue, entry, "Fit")
    assert queue.leftover_deadline(entry) == pytest.approx(300.0)
    clock.advance_to(300.0)
    queue.flush_unschedulable_leftover()
    assert queue.pending_counts()["unschedulable"] == 1
    clock.advance_to(330.0)
    queue.flush_unschedulable_leftover()
    assert queue.pending_counts()["active"] == 1


def test_activate_moves_unschedulable_and_backoff_pods() -> None:
    queue, _ = _queue({"Fit": [ClusterEventWithHint(NODE_ADD)]})
    for name in ("a", "b"):
        queue.add(make_pod(name).obj())
    _fail(queue, _popped(queue, "a"), "Fit")
    _fail(queue, _popped(queue, "b"))
    queue.activate([make_pod("a").obj(), make_pod("b").obj()])
    assert queue.pending_counts()["active"] == 2


def test_update_and_delete_of_queued_pods() -> None:
    queue, _ = _queue()
    queue.add(make_pod("p").obj())
    queue.add(make_pod("q").nominated_node_name("n1").obj())
    assert [pi.pod.metadata.name for pi in queue.nominator.nominated_pods_for_node("n1")] == ["q"]
    newer = make_pod("p").priority(9).obj()
    queue.update(make_pod("p").obj(), newer, [])
    queue.delete(make_pod("q").obj())
    assert queue.nominator.nominated_pods_for_node("n1") == []
    assert _pop_names(queue) == ["p"]
    queue.update(make_pod("r").obj(), make_pod("r").obj(), [])
    assert _pop_names(queue) == ["r"]


def test_activating_an_in_flight_pod_requeues_it_when_its_attempt_fails() -> None:
    queue, _ = _queue({"Fit": [ClusterEventWithHint(NODE_ADD)]})
    for name in ("p", "q"):
        queue.add(make_pod(name).obj())
    p, q = _popped(queue, "p"), _popped(queue, "q")
    queue.activate([make_pod("p").obj()])
    _fail(queue, p, "Fit")
    _fail(queue, q, "Fit")
    counts = queue.pending_counts()
    assert (counts["backoff"], counts["unschedulable"]) == (1, 1)
    assert queue.backoff.get(p.uid) is p, "the wildcard event named p, not q"


class SwitchableGate(FakeProfile):
    """Gates the pods named in `held` (plugin Gate)."""

    def __init__(self, events: dict[str, list[ClusterEventWithHint]]) -> None:
        super().__init__(events)
        self.held: set[str] = set()

    def run_pre_enqueue_plugins(self, pod: Pod) -> Status | None:
        if pod.metadata.name in self.held:
            return Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, "held", plugin="Gate")
        return None


def _switchable_queue(
    events: dict[str, list[ClusterEventWithHint]],
) -> tuple[SchedulingQueue, SwitchableGate]:
    gate = SwitchableGate(events)
    queue = SchedulingQueue(
        clock=SimulatedClock(),
        less=priority_less,
        profiles={"default-scheduler": gate},
        nominator=Nominator(),
    )
    return queue, gate


def test_an_event_no_gating_plugin_registered_does_not_walk_gated_pods() -> None:
    queue, gate = _switchable_queue({"Fit": [ClusterEventWithHint(ASSIGNED_POD_DELETE)]})
    gate.held = {f"g{i}" for i in range(5)}
    for i in range(5):
        queue.add(make_pod(f"g{i}").obj())
    queue.add(make_pod("r").obj())
    _fail(queue, _popped(queue, "r"), "Fit")
    seen: list[str] = []

    def look(pod: Pod) -> bool:
        seen.append(pod.metadata.name)
        return True

    queue.move_all_to_active_or_backoff(ASSIGNED_POD_DELETE, make_pod("x").obj(), None, look)
    assert seen == ["r"]
    assert queue.pending_counts() == {"active": 0, "backoff": 1, "unschedulable": 0, "gated": 5}


def test_gated_pods_move_on_an_event_their_gating_plugin_registered() -> None:
    queue, gate = _switchable_queue(
        {"Gate": [ClusterEventWithHint(NODE_ADD)], "Fit": [ClusterEventWithHint(NODE_ADD)]}
    )
    gate.held = {"a", "b"}
    queue.add(make_pod("a").obj())
    queue.add(make_pod("b").obj())
    assert queue.pending_counts()["gated"] == 2
    gate.held = {"b"}  # a's gate is lifted; only an event Gate registered brings it back
    queue.move_all_to_active_or_backoff(ASSIGNED_POD_DELETE, make_pod("x").obj(), None)
    assert queue.pending_counts()["gated"] == 2
    queue.move_all_to_active_or_backoff(NODE_ADD, None, object())
    assert queue.pending_counts() == {"active": 1, "backoff": 0, "unschedulable": 0, "gated": 1}
    assert _pop_names(queue) == ["a"]


def test_a_pod_gated_again_on_activation_is_counted_as_gated() -> None:
    queue, gate = _switchable_queue({"Fit": [ClusterEventWithHint(NODE_ADD)]})
    queue.add(make_pod("p").obj())
    _fail(queue, _popped(queue, "p"), "Fit")
    assert queue.pending_counts()["unschedulable"] == 1
    gate.held = {"p"}
    queue.activate([make_pod("p").obj()])
    assert queue.pending_counts() == {"active": 0, "backoff": 0, "unschedulable": 0, "gated": 1}
    assert queue.rejected_unschedulable_entries() == []
    gate.held = set()
    queue.activate([make_pod("p").obj()])
    assert _pop_names(queue) == ["p"]
