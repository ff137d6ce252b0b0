"""The scheduling queue (upstream's PriorityQueue): activeQ, backoffQ and unschedulable pods.

- activeQ: pods ready to be tried, ordered by the profile's QueueSort.
- backoffQ: pods waiting out a backoff (1 s doubling up to 10 s by default)
  before they may go back to activeQ; pods rejected by plugins and pods that
  failed with an error wait in two separate heaps. When activeQ is empty the
  scheduler may take a rejected pod from backoffQ early (SchedulerPopFromBackoffQ).
- unschedulable pods: rejected pods parked until a cluster event that one of
  their rejecting plugins registered, and whose queueing hint says Queue,
  moves them; or until they have waited 5 minutes. Pods a PreEnqueue plugin
  gates wait here too.

Events that happen while a pod is being scheduled ("in flight") are kept, so
a pod that fails after an event that would have moved it is requeued at once.
"""

from __future__ import annotations

import math
from collections import Counter, deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol

from attrs import frozen

from kubesched.api import Pod
from kubesched.framework._events import (
    UNSCHEDULED_POD_ADD,
    UNSCHEDULED_POD_UPDATE,
    ActionType,
    ClusterEvent,
    ClusterEventWithHint,
    EventResource,
    event_label,
)
from kubesched.framework._interface import Clock
from kubesched.framework._status import Status
from kubesched.framework._types import PodInfo, QueuedPodInfo
from kubesched.scheduler.backoff import (
    DEFAULT_POD_INITIAL_BACKOFF,
    DEFAULT_POD_MAX_BACKOFF,
    BackoffQueue,
)
from kubesched.scheduler.entry import QueueEntry
from kubesched.scheduler.heap import KeyedHeap
from kubesched.scheduler.metrics import SchedulerMetrics
from kubesched.scheduler.nominator import Nominator
from kubesched.scheduler.queueing_hints import AFTER_BACKOFF, IMMEDIATELY, SKIP, QueueingHints
from kubesched.scheduler.unschedulable import UnschedulablePods

DEFAULT_MAX_IN_UNSCHEDULABLE = 5 * 60.0
"""Upstream's DefaultPodMaxInUnschedulablePodsDuration."""
UNSCHEDULABLE_FLUSH_PERIOD = 30.0
"""How often upstream looks for pods that sat in unschedulablePods too long."""
ARRIVAL_TICK = 1e-9
"""Queue timestamps taken at one clock instant are this far apart, in arrival order."""
"""Backoff expiries are aligned to whole seconds (KEP-5142)."""

SCHEDULE_ATTEMPT_FAILURE = "ScheduleAttemptFailure"
BACKOFF_COMPLETE = "BackoffComplete"
POP_FROM_BACKOFF_Q = "PopFromBackoffQ"
FORCE_ACTIVATE = "ForceActivate"
UNSCHEDULABLE_TIMEOUT = "UnschedulableTimeout"

EVENT_UNSCHEDULABLE_TIMEOUT = ClusterEvent(
    EventResource.WILDCARD, ActionType.ALL, UNSCHEDULABLE_TIMEOUT
)
EVENT_FORCE_ACTIVATE = ClusterEvent(EventResource.WILDCARD, ActionType.ALL, FORCE_ACTIVATE)

ACTIVE_Q = "active"
BACKOFF_Q = "backoff"
UNSCHEDULABLE_Q = "unschedulable"
GATED_Q = "gated"


class QueueProfile(Protocol):
    """What the queue needs of a profile's framework."""

    def run_pre_enqueue_plugins(self, pod: Pod) -> Status | None: ...

    def events_to_register(self) -> Mapping[str, list[ClusterEventWithHint]]: ...


@frozen
class _InFlightEvent:
    seq: int
    event: ClusterEvent
    old: Any
    new: Any


def _uid(entry: QueueEntry) -> str:
    return entry.pod_info.pod.metadata.uid


class SchedulingQueue:
    """Upstream's PriorityQueue, with queueing hints and PopFromBackoffQ on (their defaults)."""

    def __init__(
        self,
        *,
        clock: Clock,
        less: Callable[[QueuedPodInfo, QueuedPodInfo], bool],
        profiles: Mapping[str, QueueProfile],
        nominator: Nominator,
        metrics: SchedulerMetrics | None = None,
        initial_backoff: float = DEFAULT_POD_INITIAL_BACKOFF,
        max_backoff: float = DEFAULT_POD_MAX_BACKOFF,
        max_in_unschedulable: float = DEFAULT_MAX_IN_UNSCHEDULABLE,
    ) -> None:
        self._clock = clock
        self._less = less
        self._profiles = profiles
        self.nominator = nominator
        self._metrics = metrics
        self._max_in_unschedulable = max_in_unschedulable
        self._active: KeyedHeap[QueueEntry] = KeyedHeap(_uid, less)
        self.backoff = BackoffQueue(clock, less, initial_backoff, max_backoff)
        self._unschedulable = UnschedulablePods()
        self._hints = QueueingHints(
            {n: fw.events_to_register() for n, fw in profiles.items()},
            None if metrics is None else metrics.observe_queueing_hint,
        )
        self._in_flight: dict[str, int] = {}
        self._in_flight_events: deque[_InFlightEvent] = deque()
        self._seq = 0
        self._last_stamp = -math.inf

    # -- sizes and views -----------------------------------------------------------------

    def pending_counts(self) -> dict[str, int]:
        """Pods per queue, as scheduler_pending_pods labels them."""
        gated = self._unschedulable.gated_count()
        return {
            ACTIVE_Q: len(self._active),
            BACKOFF_Q: len(self.backoff),
            UNSCHEDULABLE_Q: len(self._unschedulable) - gated,
            GATED_Q: gated,
        }

    def rejected_unschedulable_entries(self) -> list[QueueEntry]:
        """The unschedulable pods no PreEnqueue plugin gates."""
        return self._unschedulable.rejected()

    def in_flight_events(self) -> dict[str, int]:
        """The events recorded while pods were in flight, by label (scheduler_inflight_events)."""
        return dict(Counter(event_label(r.event) for r in self._in_flight_events))

    def in_flight(self) -> int:
        return len(self._in_flight)

    def get(self, pod: Pod) -> QueueEntry | None:
        """The pod's entry in any of the three structures."""
        uid = pod.uid
        return self._active.get(uid) or self.backoff.get(uid) or self._unschedulable.get(uid)

    def _stamp(self) -> float:
        """A queue timestamp: the clock's time, nudged past the previous stamp if the clock
        has not moved (a simulated clock stands still), so arrival order is kept."""
        stamp = max(self._clock.now(), self._last_stamp + ARRIVAL_TICK)
        self._last_stamp = stamp
        return stamp

    def _new_entry(self, pod: Pod) -> QueueEntry:
        return QueueEntry(PodInfo(pod), self._stamp())

    # -- PreEnqueue ------------------------------------------------------------------------

    def _run_pre_enqueue(self, entry: QueueEntry) -> None:
        profile = self._profiles.get(entry.pod.spec.scheduler_name)
        status = None if profile is None else profile.run_pre_enqueue_plugins(entry.pod)
        if status is None or status.is_success():
            entry.set_gating(None)
            return
        if status.plugin not in entry.unschedulable_plugins:
            entry.unschedulable_plugins.add(status.plugin)
            if self._metrics is not None:
                self._metrics.add_unschedulable(status.plugin, entry.pod.spec.scheduler_name, 1)
        entry.set_gating(status)

    def gating_status(self, pod: Pod) -> Status | None:
        """Why a PreEnqueue plugin keeps the pod out of the queue (None: it does not)."""
        entry = self.get(pod)
        return None if entry is None else entry.gating_status

    # -- moving between structures ---------------------------------------------------------

    def _incoming(self, queue: str, event: str) -> None:
        if self._metrics is not None:
            self._metrics.inc_queue_incoming(queue, event)

    def _to_unschedulable(self, entry: QueueEntry, event: str) -> None:
        self._unschedulable.put(entry)
        self._incoming(UNSCHEDULABLE_Q if not entry.gated else GATED_Q, event)

    def _move_to_active(self, entry: QueueEntry, event: str, from_backoff: bool = False) -> bool:
        """Into activeQ unless a PreEnqueue plugin gates it (then into unschedulable pods)."""
        if not from_backoff:
            self._run_pre_enqueue(entry)
        uid = entry.uid
        if entry.gated:
            if uid not in self._active and uid not in self.backoff:
                self._unschedulable.put_if_absent(entry)
                self._incoming(GATED_Q, event)
            return False
        if entry.initial_attempt_timestamp is None:
            entry.initial_attempt_timestamp = self._clock.now()
        self._unschedulable.pop(uid)
        self.backoff.delete(uid)
        self._active.add_or_update(entry)
        self._incoming(ACTIVE_Q, event)
        if event in (event_label(UNSCHEDULED_POD_ADD), event_label(UNSCHEDULED_POD_UPDATE)):
            self.nominator.add_nominated_pod(entry.pod_info, None)
        return True

    def _move_to_backoff(self, entry: QueueEntry, event: str) -> bool:
        self._run_pre_enqueue(entry)
        if entry.gated:
            self._unschedulable.put_if_absent(entry)
            return False
        self._unschedulable.pop(entry.uid)
        self.backoff.add(entry)
        self._incoming(BACKOFF_Q, event)
        return True

    def _requeue(self, entry: QueueEntry, strategy: int, event: str) -> str:
        """Upstream's requeuePodWithQueueingStrategy; returns where the pod went."""
        if strategy == SKIP:
            self._to_unschedulable(entry, event)
            return UNSCHEDULABLE_Q
        if strategy == AFTER_BACKOFF and self.backoff.is_backing_off(entry):
            return BACKOFF_Q if self._move_to_backoff(entry, event) else UNSCHEDULABLE_Q
        return ACTIVE_Q if self._move_to_active(entry, event) else UNSCHEDULABLE_Q

    # -- adding and popping ----------------------------------------------------------------

    def add(self, pod: Pod) -> None:
        """A new pending pod."""
        self._move_to_active(self._new_entry(pod), event_label(UNSCHEDULED_POD_ADD))

    def pop(self) -> QueueEntry | None:
        """The next pod to schedule: activeQ's head, else (activeQ empty) backoffQ's head."""
        entry = self._active.pop()
        if entry is None:
            entry = self.backoff.pop_rejected()
            if entry is None:
                return None
            self._incoming(ACTIVE_Q, POP_FROM_BACKOFF_Q)
        entry.attempts += 1
        self._seq += 1
        self._in_flight[entry.uid] = self._seq
        if self._metrics is not None:
            for plugin in entry.unschedulable_plugins | entry.pending_plugins:
                self._metrics.add_unschedulable(plugin, entry.pod.spec.scheduler_name, -1)
        entry.unschedulable_plugins = set()
        entry.pending_plugins = set()
        return entry

    def done(self, uid: str) -> None:
        """The pod's scheduling attempt is over; drop events no in-flight pod needs."""
        if self._in_flight.pop(uid, None) is None:
            return
        oldest = next(iter(self._in_flight.values()), None)
        events = self._in_flight_events
        while events and (oldest is None or events[0].seq < oldest):
            events.popleft()

    def _record_in_flight(self, event: ClusterEvent, old: Any, new: Any) -> None:
        if self._in_flight:
            self._seq += 1
            self._in_flight_events.append(_InFlightEvent(self._seq, event, old, new))

    def add_unschedulable_if_not_present(self, entry: QueueEntry) -> None:
        """A pod whose attempt failed comes back: to activeQ/backoffQ if an event during its
        attempt may have helped it, else to the unschedulable pods."""
        try:
            uid = entry.uid
            if uid in self._unschedulable or uid in self._active or uid in self.backoff:
                return
            if not entry.rejected():
                entry.consecutive_errors_count += 1
            else:
                entry.unschedulable_count += 1
                entry.consecutive_errors_count = 0
            entry.timestamp = self._stamp()
            entry.backoff_expiration = None
            if self._metrics is not None:
                for plugin in entry.unschedulable_plugins | entry.pending_plugins:
                    self._metrics.add_unschedulable(plugin, entry.pod.spec.scheduler_name, 1)
            self._requeue(entry, self._hint_for_in_flight(entry), SCHEDULE_ATTEMPT_FAILURE)
        finally:
            self.done(entry.uid)

    def _hint_for_in_flight(self, entry: QueueEntry) -> int:
        if not entry.rejected():
            return AFTER_BACKOFF
        start = self._in_flight.get(entry.uid)
        if start is None:
            return AFTER_BACKOFF
        strategy = SKIP
        for record in self._in_flight_events:
            if record.seq <= start:
                continue
            verdict = self._hints.worth_requeuing(entry, record.event, record.old, record.new)
            if verdict == IMMEDIATELY:
                return IMMEDIATELY
            if verdict == AFTER_BACKOFF:
                strategy = AFTER_BACKOFF
                if not entry.pending_plugins:
                    return strategy
        return strategy

    # -- events ------------------------------------------------------------------------------

    def move_all_to_active_or_backoff(
        self,
        event: ClusterEvent,
        old: Any,
        new: Any,
        pre_check: Callable[[Pod], bool] | None = None,
    ) -> None:
        """A cluster event: requeue the unschedulable pods it may help (upstream's
        MoveAllToActiveOrBackoffQueue)."""
        if not self._hints.of_interest(event):
            return
        candidates = self._unschedulable.walked_for(
            lambda key: self._hints.gating_key_interested(*key, event)
        )
        entries = [e for e in candidates if pre_check is None or pre_check(e.pod)]
        self._move_pods(entries, event, old, new)

    def _move_pods(
        self, entries: Iterable[QueueEntry], event: ClusterEvent, old: Any, new: Any
    ) -> None:
        if not self._hints.of_interest(event):
            return
        label = event_label(event)
        for entry in entries:
            if entry.gated and not self._hints.gating_plugin_interested(entry, event):
                continue
            strategy = self._hints.worth_requeuing(entry, event, old, new)
            if strategy == SKIP:
                continue
            self._unschedulable.pop(entry.uid)
            self._requeue(entry, strategy, label)
        self._record_in_flight(event, old, new)

    def activate(self, pods: Sequence[Pod]) -> None:
        """Move these pods to activeQ now (upstream's Activate, for PodsToActivate)."""
        for pod in pods:
            entry = self._unschedulable.get(pod.uid)
            from_backoff = False
            if entry is None:
                entry = self.backoff.delete(pod.uid)
                from_backoff = True
            if entry is not None:
                self._move_to_active(entry, FORCE_ACTIVATE, from_backoff)
            elif pod.uid in self._in_flight:
                self._seq += 1
                self._in_flight_events.append(
                    _InFlightEvent(self._seq, EVENT_FORCE_ACTIVATE, None, pod)
                )

    def update(self, old: Pod, new: Pod, events: Sequence[ClusterEvent]) -> None:
        """A pending pod changed (`events` say how)."""
        uid = new.uid
        if uid in self._in_flight:
            for event in events:
                self._seq += 1
                self._in_flight_events.append(_InFlightEvent(self._seq, event, old, new))
            return
        entry = self._active.get(uid) or self.backoff.get(uid)
        if entry is not None:
            entry.pod_info = PodInfo(new)
            if uid in self._active:
                self._active.add_or_update(entry)
            else:
                self.backoff.add(entry)
            self.nominator.update_nominated_pod(old, entry.pod_info)
            return
        entry = self._unschedulable.get(uid)
        if entry is not None:
            entry.pod_info = PodInfo(new)
            self.nominator.update_nominated_pod(old, entry.pod_info)
            for event in events:
                strategy = self._hints.worth_requeuing(entry, event, old, new)
                self._unschedulable.pop(uid)
                where = self._requeue(entry, strategy, event_label(event))
                if where != UNSCHEDULABLE_Q:
                    break
            return
        self._move_to_active(self._new_entry(new), event_label(UNSCHEDULED_POD_UPDATE))

    def delete(self, pod: Pod) -> None:
        """A pending pod is gone (deleted, or bound by someone else)."""
        self.nominator.delete_nominated_pod_if_exists(pod)
        uid = pod.uid
        self._active.delete(uid)
        self.backoff.delete(uid)
        self._unschedulable.pop(uid)

    # -- timers ------------------------------------------------------------------------------

    def flush_backoff_completed(self) -> None:
        """Move every pod whose backoff is over to activeQ."""
        for entry in self.backoff.pop_completed():
            self._move_to_active(entry, BACKOFF_COMPLETE, from_backoff=True)

    def flush_unschedulable_leftover(self) -> None:
        """Requeue pods that sat in the unschedulable pods longer than the maximum."""
        now = self._clock.now()
        stale = [e for e in self._unschedulable if now - e.timestamp > self._max_in_unschedulable]
        if stale:
            self._move_pods(stale, EVENT_UNSCHEDULABLE_TIMEOUT, None, None)

    def leftover_deadline(self, entry: QueueEntry) -> float:
        """The first moment the leftover flush would move this pod."""
        return entry.timestamp + self._max_in_unschedulable
