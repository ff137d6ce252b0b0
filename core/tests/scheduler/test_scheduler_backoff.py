"""The backoff queue (upstream's backoff_queue_test tables, in seconds)."""

from __future__ import annotations

import pytest

from kubesched.framework import PodInfo, QueuedPodInfo
from kubesched.scheduler.backoff import BackoffQueue
from kubesched.scheduler.clock import SimulatedClock
from kubesched.scheduler.entry import QueueEntry
from kubesched.testing import make_pod

NS = 1e-9
MAX_INT32 = 2**31 - 1
MAX_INT64 = 2**63 - 1


def priority_less(a: QueuedPodInfo, b: QueuedPodInfo) -> bool:
    return a.pod.priority > b.pod.priority or (
        a.pod.priority == b.pod.priority and a.timestamp < b.timestamp
    )


@pytest.mark.parametrize(
    ("initial", "maximum", "count", "expected"),
    [
        (1 * NS, 32 * NS, 0, 0.0),
        (1 * NS, 32 * NS, 16, 32 * NS),
        (1 * NS, MAX_INT32 * NS, 32, MAX_INT32 * NS),
        (1 * NS, MAX_INT64 * NS, 64, MAX_INT64 * NS),
        (1.0, 10.0, 1, 1.0),
        (1.0, 10.0, 2, 2.0),
        (1.0, 10.0, 3, 4.0),
        (1.0, 10.0, 4, 8.0),
        (1.0, 10.0, 5, 10.0),
        (1.0, 10.0, 500, 10.0),
    ],
)
def test_duration(initial: float, maximum: float, count: int, expected: float) -> None:
    queue = BackoffQueue(SimulatedClock(), priority_less, initial, maximum)
    assert queue.duration(count) == pytest.approx(expected)


NOW = 1000.0


def _entry(name: str, offset: float, *, rejected: bool = True, priority: int = 0) -> QueueEntry:
    entry = QueueEntry(PodInfo(make_pod(name).priority(priority).obj()), NOW + offset)
    if rejected:
        entry.unschedulable_plugins = {"plugin"}
        entry.unschedulable_count = 1
    else:
        entry.consecutive_errors_count = 1
    return entry


ENTRIES = {
    "pod0": lambda: _entry("pod0", -2.0),
    "pod1": lambda: _entry("pod1", 1.0),
    "pod2": lambda: _entry("pod2", -2.0, rejected=False),
    "pod3": lambda: _entry("pod3", 1.0, rejected=False),
}


@pytest.mark.parametrize(
    ("in_backoff", "completed"),
    [
        ([], []),
        (["pod0", "pod1"], ["pod0"]),
        (["pod2", "pod3"], ["pod2"]),
        (["pod0", "pod1", "pod2", "pod3"], ["pod0", "pod2"]),
        (["pod0", "pod2"], ["pod0", "pod2"]),
        (["pod1", "pod3"], []),
    ],
)
def test_pop_completed(in_backoff: list[str], completed: list[str]) -> None:
    queue = BackoffQueue(SimulatedClock(NOW), priority_less)
    for name in in_backoff:
        queue.add(ENTRIES[name]())
    assert [e.pod.metadata.name for e in queue.pop_completed()] == completed
    assert len(queue) == len(in_backoff) - len(completed)


def test_same_window_is_ordered_by_queue_sort() -> None:
    queue = BackoffQueue(SimulatedClock(NOW), priority_less)
    for entry in (
        _entry("pod0", 0.0, priority=1),
        _entry("pod1", -1.0, priority=1),
        _entry("pod2", -2.0 + 0.001, priority=2),
        _entry("pod3", -2.0, priority=1),
        _entry("pod4", -2.0, priority=2),
        _entry("pod5", -3.0, priority=1),
    ):
        queue.add(entry)
    assert [e.pod.metadata.name for e in queue.pop_completed()] == ["pod5", "pod4", "pod2", "pod3"]


def test_errors_and_rejections_count_apart_and_pop_rejected_ignores_errors() -> None:
    queue = BackoffQueue(SimulatedClock(NOW), priority_less)
    errored = _entry("e", 0.0, rejected=False)
    errored.consecutive_errors_count = 3
    rejected = _entry("r", 0.0)
    rejected.unschedulable_count = 3
    rejected.consecutive_errors_count = 1
    queue.add(errored)
    queue.add(rejected)
    assert queue.expiry(errored) == NOW + 4.0 and queue.expiry(rejected) == NOW + 1.0
    assert queue.pop_rejected() is rejected and queue.pop_rejected() is None
    assert queue.errored() == [errored] and "e" not in queue
