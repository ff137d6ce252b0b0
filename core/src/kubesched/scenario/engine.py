"""The engine: a scenario's events fed to the scheduler `simulate` runs, on a simulated clock.

The scheduler is built by `kubesched.profile.build_scheduler` (same queue, cache,
framework and plugins as `simulate`) and driven by the loop's own steps
(`kubesched.scheduler.loop`): at each moment the engine finishes the pods whose
running time is over, applies the events due, schedules every pod that is ready,
and takes a sample when one is due; then the clock jumps to the next moment
something can happen: the next event, the next pod to finish, the next sample, or
what the scheduler waits for (a backoff's end, a Permit timeout, the sweep of pods
left unschedulable for 5 minutes). A retry that cannot change anything (nothing in
the cluster changed since the pod failed) is not waited for, as in `simulate`.

What the run records comes from the changes the scheduler takes from the cluster
(a pod bound, a pod deleted by a preemption) and from its results after each
attempt; the scheduling cycle itself is left as it is.
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from kubesched.api import Node, Pod, is_tolerated
from kubesched.api._heap import frozen_heap
from kubesched.cluster import InMemoryCluster
from kubesched.config import KubeSchedulerConfiguration
from kubesched.framework import Registry
from kubesched.framework._profile import EffectiveProfile
from kubesched.profile import build_scheduler
from kubesched.scenario.checks import checked
from kubesched.scenario.model import (
    Event,
    NodeAdded,
    NodeRemoved,
    NodeTainted,
    PodCreated,
    PodDeleted,
    Scenario,
)
from kubesched.scenario.nodes import changed_node
from kubesched.scenario.observers import Attempt, observer_name
from kubesched.scenario.options import ReplayOptions
from kubesched.scenario.podlog import (
    DELETED,
    DROPPED,
    EVICTED,
    FINISHED,
    PREEMPTED,
    RUNNING,
    WAITING,
    PodRecord,
)
from kubesched.scenario.result import ReplayResult, RunTotals
from kubesched.scenario.sampling import take_sample
from kubesched.scenario.series import Counters, Sample
from kubesched.scenario.state import ClusterState
from kubesched.scenario.stats import percentile
from kubesched.scheduler.clock import SimulatedClock
from kubesched.scheduler.loop import next_moment, next_pod, next_sweep, reach
from kubesched.scheduler.outcome import ERROR, UNSCHEDULABLE
from kubesched.scheduler.scheduler import Scheduler

Progress = Callable[[float, int], None]
"""(simulated seconds now, events applied so far), called as the run goes."""

NO_EXECUTE = "NoExecute"


class _Recorder:
    """Kubernetes events are counted, not kept: a long run would hold them all."""

    __slots__ = ("count",)

    def __init__(self) -> None:
        self.count = 0

    def event(self, obj: Any, event_type: str, reason: str, action: str, message: str) -> None:
        self.count += 1


class _WatchedCluster(InMemoryCluster):
    """The in-memory cluster, handing each batch of changes to `watcher` as the scheduler
    takes them."""

    watcher: Callable[[Sequence[tuple[Any, Any]]], None] | None = None

    def take_changes(self) -> list[tuple[Any, Any]]:
        changes = super().take_changes()
        if self.watcher is not None and changes:
            self.watcher(changes)
        return changes


class Engine:
    """One run of a scenario; `run()` once."""

    def __init__(
        self,
        scenario: Scenario,
        cfg: KubeSchedulerConfiguration | None,
        registry: Registry,
        *,
        profiles: Sequence[EffectiveProfile] | None = None,
        seed: int = 0,
        options: ReplayOptions | None = None,
    ) -> None:
        self.scenario = scenario
        self.options = options = options or ReplayOptions()
        self.seed = seed
        self.clock = SimulatedClock()
        self.state = ClusterState()
        self.records: dict[str, PodRecord] = {}
        """Live pods' records, by uid."""
        self.log: list[PodRecord] = []
        self.uids: dict[str, str] = {}
        """Live pods: `namespace/name` -> uid."""
        self.durations: dict[str, float] = {}
        self.finishing: list[tuple[float, int, str]] = []
        """(when, order, uid) of the pods that will finish, a heap."""
        self._order = 0
        self.deleting: dict[str, str] = {}
        """uid -> the state the engine gives a pod it is deleting itself."""
        self.latencies: list[float] = []
        self.all_latencies: list[float] = []
        self.counters: dict[str, int] = dict.fromkeys(Counters.__annotations__, 0)
        self.samples: list[Sample] = []
        self.events_applied = 0
        self.observers: list[object] = [
            *options.observers,
            *(factory() for factory in scenario.observers),
        ]
        cluster = _WatchedCluster.of(scenario.cluster)
        assert isinstance(cluster, _WatchedCluster)
        cluster.watcher = self._changed
        self.cluster = cluster
        self.recorder = _Recorder()
        self.scheduler: Scheduler = build_scheduler(
            cfg,
            registry,
            self.cluster,
            clock=self.clock,
            recorder=self.recorder,
            profiles=profiles,
            seed=seed,
            cycle_timeout=options.cycle_timeout,
            simulated=True,
            feature_gates=options.feature_gates,
            ties=options.ties,
        )

    # -- the run ---------------------------------------------------------------------

    def run(self, progress: Progress | None = None) -> ReplayResult:
        """Replay every event, then schedule until nothing can change; the result."""
        started, cpu = time.perf_counter(), time.process_time()
        sched = self.scheduler
        events = checked(self.scenario.iter_events(), self.scenario.cluster, self.scenario.source)
        with sched.watchdog.session(), frozen_heap():
            self._loop(events, progress)
        return self._result(time.perf_counter() - started, time.process_time() - cpu)

    def _loop(self, events: Iterator[Event], progress: Progress | None) -> None:
        interval = self.options.sample_interval
        upcoming = next(events, None)
        next_sample = 0.0
        sampled_at = -1.0
        while True:
            now = self.clock.now()
            self.state.now = now
            while self.finishing and self.finishing[0][0] <= now:
                self._finish(heapq.heappop(self.finishing)[2])
            while upcoming is not None and upcoming.at <= now:
                self._apply(upcoming)
                upcoming = next(events, None)
            tail = upcoming is None and not self.finishing
            self._schedule(tail)
            if next_sample <= now:
                self._sample()
                sampled_at = now
                next_sample += interval
            if progress is not None:
                progress(now, self.events_applied)
            moments = []
            if upcoming is not None:
                moments.append(upcoming.at)
            if self.finishing:
                moments.append(self.finishing[0][0])
            waited = next_moment(self.scheduler, self._stale)
            if waited is not None:
                waited = waited if waited > now else next_sweep(now)
                moments.append(waited)
            if not moments:
                break
            moment = min(*moments, next_sample)
            until = self.options.until
            if until is not None and moment > until:
                if now < until:
                    self.clock.advance_to(until)
                    self.scheduler.expire_waiting_pods()
                    self.state.now = until
                break
            self.clock.advance_to(moment)
            if moment == waited:
                reach(self.scheduler, moment)
            else:  # a sweep here could only retry pods nothing changed for: skipped
                self.scheduler.expire_waiting_pods()
        if sampled_at < self.clock.now():
            self._sample()

    def _schedule(self, tail: bool) -> None:
        """Every pod that is ready, one attempt each, until none is."""
        sched = self.scheduler
        while True:
            entry = next_pod(sched)
            if entry is None:
                return
            uid = entry.uid
            if uid in sched.timed_out or (tail and entry.attempts > self.options.max_attempts):
                sched.queue.done(uid)
                continue
            sched.schedule_one(entry)
            self.counters["attempts"] += 1
            sched.sync()
            attempt = self._attempt(entry.pod, entry.attempts)
            if self.options.drop_unschedulable and attempt.status in (UNSCHEDULABLE, ERROR):
                live = self.cluster.get_pod(uid)
                if live is not None:
                    self.deleting[uid] = DROPPED
                    self.counters["dropped"] += 1
                    self.cluster.delete_pod(live)
                    sched.sync()
            for observer in self.observers:
                on_attempt = getattr(observer, "on_attempt", None)
                if on_attempt is not None:
                    on_attempt(self.state, attempt)

    def _attempt(self, pod: Pod, attempts: int) -> Attempt:
        sched = self.scheduler
        uid = pod.uid
        record = self.records.get(uid)
        if record is not None:
            record.attempts = attempts
        outcome = sched.outcomes.get(uid)
        live = self.cluster.get_pod(uid)
        node = None
        if live is not None and live.spec.node_name:
            status, node = "Scheduled", live.spec.node_name
        elif live is not None and sched.cache.is_assumed(live):
            status = WAITING
        else:
            status = outcome.status if outcome is not None else UNSCHEDULABLE
        message = outcome.message if outcome is not None else ""
        return Attempt(self.clock.now(), pod.key, status, node, message, attempts)

    def _stale(self, pod: Pod) -> bool:
        sched = self.scheduler
        return sched.cluster_version > sched.seen_version.get(pod.uid, -1)

    # -- events ----------------------------------------------------------------------

    def _apply(self, event: Event) -> None:
        cluster = self.cluster
        if isinstance(event, PodCreated):
            if event.duration is not None:
                self.durations[event.pod.uid] = event.duration
            cluster.add_pod(event.pod)
        elif isinstance(event, PodDeleted):
            uid = self.uids.get(event.pod)
            live = cluster.get_pod(uid) if uid is not None else None
            if live is not None:  # else it finished, or was evicted, before
                self._delete(live, DELETED)
        elif isinstance(event, NodeAdded):
            cluster.add_node(event.node)
        elif isinstance(event, NodeRemoved):
            for pod in self.state.on_node(event.node):
                self._delete(pod, EVICTED)
            cluster.delete_node(event.node)
        else:
            node = cluster.get_node(event.node)
            assert node is not None  # checked: the node exists
            cluster.update_node(changed_node(node, event))
            if isinstance(event, NodeTainted):
                self._evict_intolerant(event.node, event)
        self.scheduler.sync()
        self.events_applied += 1
        for observer in self.observers:
            on_event = getattr(observer, "on_event", None)
            if on_event is not None:
                on_event(self.state, event)

    def _evict_intolerant(self, node: str, event: NodeTainted) -> None:
        """Pods that do not tolerate a new NoExecute taint leave (the taint manager's part)."""
        taints = [t for t in event.taints if t.effect == NO_EXECUTE]
        if not taints:
            return
        for pod in self.state.on_node(node):
            if not all(is_tolerated(t, pod.spec.tolerations) for t in taints):
                self._delete(pod, EVICTED)

    def _delete(self, pod: Pod, state: str) -> None:
        self.deleting[pod.uid] = state
        if state == EVICTED:
            self.counters["evictions"] += 1
        self.cluster.delete_pod(pod)

    def _finish(self, uid: str) -> None:
        live = self.cluster.get_pod(uid)
        if live is not None:
            self._delete(live, FINISHED)
            self.scheduler.sync()

    # -- what the scheduler did ------------------------------------------------------

    def _changed(self, changes: Sequence[tuple[Any, Any]]) -> None:
        """The changes the scheduler is taking from the cluster, seen first by the run."""
        state = self.state
        for old, new in changes:
            obj = new if new is not None else old
            if isinstance(obj, Node):
                state.node_changed(old, new)
            elif isinstance(obj, Pod):
                if old is None:
                    self._pod_created(new)
                elif new is None:
                    self._pod_gone(old)
                elif not old.spec.node_name and new.spec.node_name:
                    state.pod_bound(new)
                    self._pod_bound(new)
                else:
                    state.pod_updated(new)

    def _pod_created(self, pod: Pod) -> None:
        now = self.clock.now()
        self.state.pod_added(pod)
        self.uids[pod.key] = pod.uid
        self.counters["created"] += 1
        record = PodRecord(pod.key, now, duration=self.durations.get(pod.uid))
        self.records[pod.uid] = record
        if self.options.keep_pods:
            self.log.append(record)
        if pod.spec.node_name:
            self._pod_bound(pod)

    def _pod_bound(self, pod: Pod) -> None:
        record = self.records[pod.uid]
        bound = self.clock.now() + self.options.bind_latency
        record.bound, record.node, record.state = bound, pod.spec.node_name, RUNNING
        self.counters["bound"] += 1
        self.latencies.append(bound - record.created)
        self.all_latencies.append(bound - record.created)
        duration = self.durations.pop(pod.uid, None)
        if duration is not None:
            self._order += 1
            heapq.heappush(self.finishing, (bound + duration, self._order, pod.uid))

    def _pod_gone(self, pod: Pod) -> None:
        self.state.pod_deleted(pod)
        uid = pod.uid
        if self.uids.get(pod.key) == uid:
            del self.uids[pod.key]
        self.durations.pop(uid, None)
        record = self.records.pop(uid, None)
        state = self.deleting.pop(uid, None)
        if state is None:  # the scheduler deleted it: a preemption's victim
            preemptor = self.scheduler.preemptors.get(pod.key)
            state = PREEMPTED
            self.counters["preemptions"] += 1
            if record is not None:
                record.preempted_by = preemptor
        if state == FINISHED:
            self.counters["finished"] += 1
        elif state == DELETED:
            self.counters["deleted"] += 1
        if record is not None:
            record.state, record.left = state, self.clock.now()
        sched = self.scheduler
        sched.outcomes.pop(uid, None)
        sched.seen_version.pop(uid, None)

    # -- samples and the result ------------------------------------------------------

    def _sample(self) -> None:
        window, self.latencies = self.latencies, []
        sample = take_sample(self.state, self.scheduler, window, Counters(**self.counters))
        self.samples.append(sample)
        for observer in self.observers:
            on_sample = getattr(observer, "on_sample", None)
            if on_sample is not None:
                on_sample(self.state, sample)

    def _result(self, wall: float, cpu: float) -> ReplayResult:
        summaries = {}
        for observer in self.observers:
            summary = getattr(observer, "summary", None)
            metrics = dict(summary()) if summary is not None else {}
            if metrics:  # an observer with nothing to report is left out
                summaries[observer_name(observer)] = metrics
        latencies = sorted(self.all_latencies)
        totals = RunTotals(
            events=self.events_applied,
            simulated_seconds=self.clock.now(),
            counters=Counters(**self.counters),
            latency_p50=percentile(latencies, 50),
            latency_p90=percentile(latencies, 90),
            latency_p99=percentile(latencies, 99),
            wall_seconds=wall,
            cpu_seconds=cpu,
        )
        return ReplayResult(
            scenario=self.scenario.name,
            seed=self.seed,
            options=self.options,
            totals=totals,
            series=self.samples,
            pods=self.log if self.options.keep_pods else [],
            observers=summaries,
        )
