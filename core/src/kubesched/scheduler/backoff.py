"""The backoff queue (upstream's backoffQueue): pods waiting out a backoff before a retry.

Two heaps ordered by backoff expiry: pods plugins rejected, and pods whose
attempt ended in an error. The backoff doubles with every failure of the same
kind, from the initial to the maximum duration; expiries are aligned to
one-second ordering windows, inside which rejected pods keep QueueSort order
(KEP-5142, SchedulerPopFromBackoffQ, on by default upstream).
"""

from __future__ import annotations

import math
from collections.abc import Callable

from kubesched.framework._interface import Clock
from kubesched.framework._types import QueuedPodInfo
from kubesched.scheduler.entry import QueueEntry
from kubesched.scheduler.heap import KeyedHeap

DEFAULT_POD_INITIAL_BACKOFF = 1.0
DEFAULT_POD_MAX_BACKOFF = 10.0
BACKOFF_ORDERING_WINDOW = 1.0


def align_to_window(t: float) -> float:
    """The start of the ordering window `t` falls in."""
    return math.floor(t / BACKOFF_ORDERING_WINDOW) * BACKOFF_ORDERING_WINDOW


def _uid(entry: QueueEntry) -> str:
    return entry.pod_info.pod.metadata.uid


class BackoffQueue:
    """Rejected pods and errored pods, each heap by backoff expiry."""

    def __init__(
        self,
        clock: Clock,
        less: Callable[[QueuedPodInfo, QueuedPodInfo], bool],
        initial: float = DEFAULT_POD_INITIAL_BACKOFF,
        maximum: float = DEFAULT_POD_MAX_BACKOFF,
    ) -> None:
        self._clock = clock
        self._less = less
        self._initial = initial
        self._maximum = maximum
        self._rejected: KeyedHeap[QueueEntry] = KeyedHeap(_uid, self._less_with_priority)
        self._errored: KeyedHeap[QueueEntry] = KeyedHeap(_uid, self._less_by_expiry)

    def __len__(self) -> int:
        return len(self._rejected) + len(self._errored)

    def __contains__(self, uid: str) -> bool:
        return uid in self._rejected or uid in self._errored

    def get(self, uid: str) -> QueueEntry | None:
        return self._rejected.get(uid) or self._errored.get(uid)

    def errored(self) -> list[QueueEntry]:
        """The pods backing off after an error."""
        return list(self._errored)

    def duration(self, count: int) -> float:
        """`initial · 2^(count-1)`, capped at the maximum; 0 before any failure."""
        if count == 0:
            return 0.0
        return min(self._initial * 2.0 ** min(count - 1, 1000), self._maximum)

    def expiry(self, entry: QueueEntry) -> float | None:
        """When the entry's backoff ends, aligned to its window (cached until it is requeued);
        None before any failure. Errors count apart from rejections."""
        count = entry.unschedulable_count
        if entry.consecutive_errors_count > 0:
            count = entry.consecutive_errors_count
        if count == 0:
            return None
        if entry.backoff_expiration is None:
            entry.backoff_expiration = align_to_window(entry.timestamp + self.duration(count))
        return entry.backoff_expiration

    def is_backing_off(self, entry: QueueEntry) -> bool:
        """Still waiting: its expiry window has not passed."""
        expiry = self.expiry(entry)
        return expiry is not None and expiry >= align_to_window(self._clock.now())

    def _less_by_expiry(self, a: QueueEntry, b: QueueEntry) -> bool:
        return (self.expiry(a) or 0.0) < (self.expiry(b) or 0.0)

    def _less_with_priority(self, a: QueueEntry, b: QueueEntry) -> bool:
        ta, tb = self.expiry(a) or 0.0, self.expiry(b) or 0.0
        if ta != tb:
            return ta < tb
        return self._less(a, b)

    def add(self, entry: QueueEntry) -> None:
        """Into the rejected heap, or the error heap when no plugin rejected the pod."""
        if entry.rejected():
            self._errored.delete(entry.uid)
            self._rejected.add_or_update(entry)
        else:
            self._rejected.delete(entry.uid)
            self._errored.add_or_update(entry)

    def delete(self, uid: str) -> QueueEntry | None:
        return self._rejected.delete(uid) or self._errored.delete(uid)

    def pop_rejected(self) -> QueueEntry | None:
        """The first rejected pod, backoff over or not (to use an otherwise idle cycle)."""
        return self._rejected.pop()

    def pop_completed(self) -> list[QueueEntry]:
        """Every pod whose backoff is over: rejected ones first, each heap in order."""
        done = []
        for heap in (self._rejected, self._errored):
            while (head := heap.peek()) is not None and not self.is_backing_off(head):
                heap.pop()
                done.append(head)
        return done
