"""The scheduler: profiles, queue, cache, and one pod at a time through the two cycles.

`schedule_one` runs the scheduling cycle of the next pod (find a node,
assume, Reserve, Permit) and starts its binding cycle (WaitOnPermit,
PreBind, Bind, PostBind). Binding is asynchronous as upstream's: a pod held
at Permit waits while other pods are scheduled, and `pump_bindings`
resumes it once its waiting pod is decided. Every failure path unreserves,
forgets the assumed pod and hands the pod back to the queue, sets its
PodScheduled condition and records a FailedScheduling event.

The cluster tells the scheduler what changed (`on_change`), as informers
tell kube-scheduler: the cache and the queue follow.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Protocol

from attrs import define, evolve, frozen

from kubesched.api import Node, Pod, PodCondition
from kubesched.cluster.changes import ASSIGNED_POD_ADD, ASSIGNED_POD_DELETE
from kubesched.cluster.memory import Change
from kubesched.framework._cycle_state import CycleState
from kubesched.framework._diagnosis import Diagnosis, FitError
from kubesched.framework._events import EventResource
from kubesched.framework._interface import Clock, ClusterClient, EventRecorder
from kubesched.framework._profile import EffectiveProfile
from kubesched.framework._registry import Registry
from kubesched.framework._runtime import Framework
from kubesched.framework._status import Code, Status
from kubesched.framework._types import PodInfo
from kubesched.framework._waiting_pods import WaitingPodsMap
from kubesched.scheduler.algorithm import (
    Algorithm,
    NodeStatusView,
    ScheduleError,
    ScheduleResult,
)
from kubesched.scheduler.backoff import DEFAULT_POD_INITIAL_BACKOFF, DEFAULT_POD_MAX_BACKOFF
from kubesched.scheduler.cache import Cache
from kubesched.scheduler.entry import QueueEntry
from kubesched.scheduler.metrics import PLUGIN_METRICS_SAMPLE_PERCENT, SchedulerMetrics
from kubesched.scheduler.nominator import Nominator
from kubesched.scheduler.outcome import (
    ERROR,
    SCHEDULED,
    UNSCHEDULABLE,
    NodeExplanation,
    PodOutcome,
)
from kubesched.scheduler.queue import SchedulingQueue
from kubesched.scheduler.snapshot import Snapshot
from kubesched.scheduler.watchdog import DEFAULT_CYCLE_TIMEOUT, CycleTimeout, Watchdog

NOTE_LENGTH_LIMIT = 1024
"""Event messages longer than this are truncated (upstream's NoteLengthLimit)."""
POD_SCHEDULED = "PodScheduled"
REASON_UNSCHEDULABLE = "Unschedulable"
REASON_SCHEDULER_ERROR = "SchedulerError"


class SchedulerCluster(ClusterClient, Protocol):
    """What the scheduler needs of a cluster backend beyond the plugins' ClusterClient."""

    def nodes(self) -> list[Node]: ...

    def pods(self) -> list[Pod]: ...

    def get_pod(self, uid: str) -> Pod | None: ...

    def subscribe(self, listener: Callable[[Change], None]) -> None: ...


@frozen
class SchedulerSettings:
    """The top-level KubeSchedulerConfiguration fields the loop uses."""

    percentage_of_nodes_to_score: int = 0
    pod_initial_backoff_seconds: float = DEFAULT_POD_INITIAL_BACKOFF
    pod_max_backoff_seconds: float = DEFAULT_POD_MAX_BACKOFF


def truncate_message(message: str) -> str:
    """Cut a message to the event note limit, ending it with " ..."."""
    if len(message) <= NOTE_LENGTH_LIMIT:
        return message
    return message[: NOTE_LENGTH_LIMIT - 4] + " ..."


def _fit_status(code: Code, error: FitError) -> Status:
    return Status(code, error.message(), err=error)


@define
class _Binding:
    """A pod between Permit and the end of its binding cycle."""

    entry: QueueEntry
    fw: Framework
    state: CycleState
    assumed: Pod
    host: str
    start: float


class Scheduler:
    """kube-scheduler's loop over an in-memory (or any `SchedulerCluster`) backend."""

    def __init__(
        self,
        profiles: Sequence[EffectiveProfile],
        registry: Registry,
        cluster: SchedulerCluster,
        *,
        clock: Clock,
        recorder: EventRecorder,
        settings: SchedulerSettings | None = None,
        seed: int = 0,
        metrics: SchedulerMetrics | None = None,
        explain: bool = False,
        cycle_timeout: float | None = DEFAULT_CYCLE_TIMEOUT,
    ) -> None:
        settings = settings or SchedulerSettings()
        self.watchdog = Watchdog(cycle_timeout)
        self.timed_out: set[str] = set()
        """Pods whose cycle ran past the watchdog's limit (a simulation does not retry them)."""
        self.cluster = cluster
        self.clock = clock
        self.recorder = recorder
        self.metrics = metrics or SchedulerMetrics()
        self.explain = explain
        self.cache = Cache()
        self.snapshot = Snapshot()
        self.nominator = Nominator(lambda pod: cluster.get_pod(pod.uid))
        self.waiting_pods = WaitingPodsMap()
        self.frameworks: dict[str, Framework] = {
            p.scheduler_name: Framework(
                p,
                registry,
                client=cluster,
                snapshot=self.snapshot,
                nominator=self.nominator,
                clock=clock,
                event_recorder=recorder,
                activate_pods=self._activate,
                metrics=self.metrics,
                waiting_pods=self.waiting_pods,
                rng=random.Random(f"{seed}/{p.scheduler_name}"),
            )
            for p in profiles
        }
        first = next(iter(self.frameworks.values()))
        self.queue = SchedulingQueue(
            clock=clock,
            less=first.queue_sort_less,
            profiles=self.frameworks,
            nominator=self.nominator,
            metrics=self.metrics,
            initial_backoff=settings.pod_initial_backoff_seconds,
            max_backoff=settings.pod_max_backoff_seconds,
        )
        self.algorithm = Algorithm(random.Random(seed), settings.percentage_of_nodes_to_score)
        self._sampler = random.Random(seed + 1)
        self.outcomes: dict[str, PodOutcome] = {}
        self.cluster_version = 0
        self.seen_version: dict[str, int] = {}
        self._bindings: dict[str, _Binding] = {}
        for node in cluster.nodes():
            self.cache.add_node(node)
        for pod in cluster.pods():
            if pod.spec.node_name:
                self.cache.add_pod(pod)
            elif self.responsible_for(pod):
                self.queue.add(pod)
        cluster.subscribe(self.on_change)

    def responsible_for(self, pod: Pod) -> bool:
        return pod.spec.scheduler_name in self.frameworks

    def _activate(self, pods: Sequence[Pod]) -> None:
        self.queue.activate(pods)

    # -- cluster events (upstream's eventhandlers.go) ------------------------------------

    def on_change(self, change: Change) -> None:
        """Keep the cache and the queue in step with the cluster."""
        resource = change.events[0].resource
        if resource == EventResource.NODE:
            self.cluster_version += 1
            self._on_node_change(change)
        elif resource == EventResource.ASSIGNED_POD:
            self.cluster_version += 1
            self._on_assigned_pod_change(change)
        elif self.responsible_for(change.new or change.old):
            self._on_unscheduled_pod_change(change)

    def _on_node_change(self, change: Change) -> None:
        if change.old is None:
            self.cache.add_node(change.new)
            self.queue.move_all_to_active_or_backoff(change.events[0], None, change.new)
        elif change.new is None:
            self.queue.move_all_to_active_or_backoff(change.events[0], change.old, None)
            self.cache.remove_node(change.old)
        else:
            self.cache.update_node(change.old, change.new)
            for event in change.events:
                self.queue.move_all_to_active_or_backoff(event, change.old, change.new)

    def _on_assigned_pod_change(self, change: Change) -> None:
        old, new = change.old, change.new
        if new is None:
            self.cache.remove_pod(old)
            self.queue.move_all_to_active_or_backoff(ASSIGNED_POD_DELETE, old, None)
        elif old is None or not old.spec.node_name:
            self.cache.add_pod(new)
            if old is not None and self.responsible_for(old):
                self.queue.delete(old)
            self.queue.move_all_to_active_or_backoff(ASSIGNED_POD_ADD, None, new)
        else:
            self.cache.update_pod(old, new)
            for event in change.events:
                self.queue.move_all_to_active_or_backoff(event, old, new)

    def _on_unscheduled_pod_change(self, change: Change) -> None:
        old, new = change.old, change.new
        if old is None:
            self.queue.add(new)
            return
        if new is None:
            self.cluster_version += 1
            self.queue.delete(old)
            if self.cache.is_assumed(old):
                self._assumed_pod_deleted(old)
            elif old.status.nominated_node_name:
                self._pod_left_node(old)
            return
        if self.cache.is_assumed(new):
            return
        self.queue.update(old, new, change.events)
        previous = old.status.nominated_node_name
        if previous and previous != new.status.nominated_node_name:
            self._pod_left_node(old)

    def _pod_left_node(self, pod: Pod) -> None:
        """A nominated pod no longer holds its node: lower or equal priority pods may fit."""
        priority = pod.priority
        self.queue.move_all_to_active_or_backoff(
            ASSIGNED_POD_DELETE, pod, None, lambda p: p.priority <= priority
        )

    def _assumed_pod_deleted(self, pod: Pod) -> None:
        assumed = self.cache.get_pod(pod)
        if assumed is None:
            return
        fw = self.frameworks[assumed.spec.scheduler_name]
        if not fw.reject_waiting_pod(assumed.uid):
            self.cache.forget_pod(assumed)
        self.queue.move_all_to_active_or_backoff(ASSIGNED_POD_DELETE, assumed, None)

    # -- the scheduling cycle ------------------------------------------------------------

    def schedule_one(self, entry: QueueEntry) -> None:
        """One scheduling cycle for a popped pod, then its binding cycle as far as it goes."""
        pod = entry.pod
        fw = self.frameworks[pod.spec.scheduler_name]
        outcome = self.outcomes.get(pod.uid)
        if outcome is None:
            outcome = self.outcomes[pod.uid] = PodOutcome(pod.key, fw.profile_name)
        outcome.attempts = entry.attempts
        if pod.metadata.deletion_timestamp is not None:
            self.recorder.event(
                pod,
                "Warning",
                "FailedScheduling",
                "Scheduling",
                f"skip schedule deleting pod: {pod.key}",
            )
            self.queue.done(pod.uid)
            return
        if self.cache.is_assumed(pod):
            self.queue.done(pod.uid)
            return
        start = time.perf_counter()
        state = CycleState()
        state.record_plugin_metrics = self._sampler.randrange(100) < PLUGIN_METRICS_SAMPLE_PERCENT
        self.cache.update_snapshot(self.snapshot)
        try:
            with self.watchdog.limit():
                result = self.algorithm.schedule_pod(fw, state, pod, self.snapshot)
        except CycleTimeout as exc:
            outcome.nodes = {} if self.explain else None
            self._handle_failure(entry, fw, Status.error(exc), "", start)
            return
        except FitError as err:
            self._explain_failure(outcome, err)
            self._after_fit_error(entry, fw, state, err, start)
            return
        except ScheduleError as err:
            outcome.nodes = {} if self.explain else None
            self._handle_failure(entry, fw, err.status, "", start)
            return
        finally:
            self.metrics.scheduling_algorithm_duration.observe(time.perf_counter() - start)
        self._explain_result(outcome, result)
        self._assume_and_permit(entry, fw, state, result, start)

    def _after_fit_error(
        self, entry: QueueEntry, fw: Framework, state: CycleState, err: FitError, start: float
    ) -> None:
        """Run PostFilter (preemption), then fail the attempt as Unschedulable."""
        nominating: str | None = ""
        if fw.has_post_filter_plugins():
            self.metrics.preemption_attempts.inc()
            view = NodeStatusView(self.snapshot, err.diagnosis)
            result, status = fw.run_post_filter_plugins(state, entry.pod, view)
            err.diagnosis.post_filter_msg = status.message()
            nominating = None
            if result is not None:
                nominating = result.nominated_node_name
                outcome = self.outcomes[entry.pod.uid]
                if result.nominated_node_name:
                    outcome.nominated_node = result.nominated_node_name
                outcome.victims.extend(result.victims)
                if result.victims:
                    self.metrics.preemption_victims.observe(len(result.victims))
        self._handle_failure(
            entry, fw, _fit_status(Code.UNSCHEDULABLE, err), nominating, start, err
        )

    def _assume_and_permit(
        self,
        entry: QueueEntry,
        fw: Framework,
        state: CycleState,
        result: ScheduleResult,
        start: float,
    ) -> None:
        pod, host = entry.pod, result.host
        assumed = evolve(pod, spec=evolve(pod.spec, node_name=host))
        self.cache.assume_pod(assumed, entry.pod_info)
        self.nominator.delete_nominated_pod_if_exists(assumed)
        try:
            with self.watchdog.limit():
                status = fw.run_reserve_plugins_reserve(state, assumed, host)
                if status is None or status.is_success():
                    status = fw.run_permit_plugins(state, assumed, host)
        except CycleTimeout as exc:
            status = Status.error(exc)
        if status is not None and status.is_wait():
            status = None
        if status is not None and not status.is_success():
            fw.run_reserve_plugins_unreserve(state, assumed, host)
            self.cache.forget_pod(assumed)
            error = None
            if status.is_rejected():
                error = self._one_node_fit_error(pod, host, status)
                status = _fit_status(status.code, error)
            self._handle_failure(entry, fw, status, "", start, error)
            return
        binding = _Binding(entry, fw, state, assumed, host, start)
        self._bindings[pod.uid] = binding
        self._run_binding(binding)

    @staticmethod
    def _one_node_fit_error(
        pod: Pod, host: str, status: Status, plugins: Iterable[str] = ()
    ) -> FitError:
        diagnosis = Diagnosis(node_to_status={host: status}, unschedulable_plugins=set(plugins))
        diagnosis.add_plugin_status(status)
        return FitError(pod, 1, diagnosis)

    # -- the binding cycle ----------------------------------------------------------------

    def pump_bindings(self) -> None:
        """Resume every binding cycle whose pod is no longer waiting at Permit."""
        for binding in list(self._bindings.values()):
            waiting = binding.fw.get_waiting_pod(binding.assumed.uid)
            if waiting is None or waiting.status is not None:
                self._run_binding(binding)

    def has_waiting_bindings(self) -> bool:
        return bool(self._bindings)

    def expire_waiting_pods(self) -> None:
        """Reject pods whose Permit wait has timed out on the clock."""
        now = self.clock.now()
        for waiting in self.waiting_pods:
            waiting.expire(now)

    def next_permit_deadline(self) -> float | None:
        deadlines = [d for wp in self.waiting_pods if (d := wp.deadline()) is not None]
        return min(deadlines, default=None)

    def _run_binding(self, b: _Binding) -> None:
        """The binding cycle from WaitOnPermit on; returns early while the pod still waits."""
        waiting = b.fw.get_waiting_pod(b.assumed.uid)
        if waiting is not None and waiting.status is None:
            return
        del self._bindings[b.assumed.uid]
        status = b.fw.wait_on_permit(b.assumed)
        if status is not None:
            if status.is_rejected():
                error = self._one_node_fit_error(b.assumed, b.host, status, [status.plugin])
                status = _fit_status(status.code, error)
            self._binding_failed(b, status)
            return
        self.queue.done(b.assumed.uid)
        bind_attempted = False
        try:
            with self.watchdog.limit():
                status = b.fw.run_pre_bind_plugins(b.state, b.assumed, b.host)
                if status is None:
                    bind_attempted = True
                    status = b.fw.run_bind_plugins(b.state, b.assumed, b.host)
        except CycleTimeout as exc:
            status = Status.error(exc)
        if bind_attempted:
            self.cache.finish_binding(b.assumed)
        if status is not None:
            self._binding_failed(b, status)
            return
        self.recorder.event(
            b.assumed,
            "Normal",
            "Scheduled",
            "Binding",
            f"Successfully assigned {b.assumed.key} to {b.host}",
        )
        entry = b.entry
        self.metrics.observe_attempt("scheduled", b.fw.profile_name, time.perf_counter() - b.start)
        initial = entry.initial_attempt_timestamp
        self.metrics.observe_pod_scheduled(
            entry.attempts, None if initial is None else self.clock.now() - initial
        )
        b.fw.run_post_bind_plugins(b.state, b.assumed, b.host)
        outcome = self.outcomes[b.assumed.uid]
        outcome.status, outcome.node, outcome.message = SCHEDULED, b.host, ""

    def _binding_failed(self, b: _Binding, status: Status) -> None:
        """Upstream's handleBindingCycleError."""
        b.fw.run_reserve_plugins_unreserve(b.state, b.assumed, b.host)
        self.cache.forget_pod(b.assumed)
        self.cluster_version += 1
        error = status.err if isinstance(status.err, FitError) else None
        if status.is_rejected():
            self._handle_failure(b.entry, b.fw, status, "", b.start, error)
            self.queue.move_all_to_active_or_backoff(
                ASSIGNED_POD_DELETE, b.assumed, None, lambda p: p.uid != b.assumed.uid
            )
        else:
            self.queue.move_all_to_active_or_backoff(ASSIGNED_POD_DELETE, b.assumed, None)
            self._handle_failure(b.entry, b.fw, status, "", b.start, error)

    # -- failures -------------------------------------------------------------------------

    def _handle_failure(
        self,
        entry: QueueEntry,
        fw: Framework,
        status: Status,
        nominating: str | None,
        start: float,
        error: FitError | None = None,
    ) -> None:
        """Upstream's handleSchedulingFailure: requeue, nominate, event, PodScheduled=False."""
        pod = entry.pod
        rejected = status.is_rejected()
        if isinstance(status.err, CycleTimeout):
            self.timed_out.add(pod.uid)
        self.metrics.observe_attempt(
            "unschedulable" if rejected else "error", fw.profile_name, time.perf_counter() - start
        )
        if error is not None:
            entry.unschedulable_plugins = set(error.diagnosis.unschedulable_plugins)
            entry.pending_plugins = set(error.diagnosis.pending_plugins)
        live = self.cluster.get_pod(pod.uid)
        if live is None or live.spec.node_name:
            self.queue.done(pod.uid)
        else:
            entry.pod_info = PodInfo(live)
            self.queue.add_unschedulable_if_not_present(entry)
        self.nominator.add_nominated_pod(entry.pod_info, nominating)
        message = status.message()
        outcome = self.outcomes[pod.uid]
        outcome.status = UNSCHEDULABLE if rejected else ERROR
        outcome.node, outcome.message = None, message
        self.recorder.event(
            pod, "Warning", "FailedScheduling", "Scheduling", truncate_message(message)
        )
        if live is not None:
            condition = PodCondition(
                type=POD_SCHEDULED,
                status="False",
                reason=REASON_UNSCHEDULABLE if rejected else REASON_SCHEDULER_ERROR,
                message=message,
            )
            nominated = nominating
            if nominated is not None and live.status.nominated_node_name == nominated:
                nominated = None
            self.cluster.update_pod_status(live, condition=condition, nominated_node_name=nominated)
        self.seen_version[pod.uid] = self.cluster_version

    def refresh_gauges(self) -> None:
        """Bring scheduler_pending_pods and the cache size gauges up to date."""
        for queue, count in self.queue.pending_counts().items():
            self.metrics.set_pending(queue, count)
        cache = self.cache
        self.metrics.set_cache_size(cache.num_nodes, cache.num_pods, cache.num_assumed_pods)

    # -- explanations ------------------------------------------------------------------------

    def _explain_failure(self, outcome: PodOutcome, err: FitError) -> None:
        if not self.explain:
            return
        d = err.diagnosis
        names: Iterable[str] = (
            self.snapshot.node_table.names if d.pre_filter_msg else d.node_to_status
        )
        outcome.nodes = {
            name: NodeExplanation(d.node_to_status.get(name, d.absent_nodes_status))
            for name in names
        }

    def _explain_result(self, outcome: PodOutcome, result: ScheduleResult) -> None:
        if not self.explain:
            return
        nodes = {name: NodeExplanation(status) for name, status in result.filter_statuses.items()}
        names = self.snapshot.node_table.names
        for i, row in enumerate(result.feasible_rows.tolist()):
            node = nodes[names[row]] = NodeExplanation()
            if result.scores is not None:
                node.total = int(result.scores.totals[i])
                node.scores = {
                    plugin: (int(normalized[i]), int(weighted[i]))
                    for plugin, (normalized, weighted) in result.scores.plugins.items()
                }
        outcome.nodes = {name: nodes[name] for name in names if name in nodes}
