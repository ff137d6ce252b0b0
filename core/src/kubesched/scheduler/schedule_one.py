"""One pod through the two cycles (upstream's schedule_one.go).

`schedule_one` runs the scheduling cycle of a popped pod (find a node, assume,
Reserve, Permit) and starts its binding cycle (WaitOnPermit, PreBind, Bind,
PostBind). Binding is asynchronous as upstream's: a pod held at Permit waits
while other pods are scheduled, and `pump_bindings` resumes it once its
waiting pod is decided; in a live scheduler its API calls run on a binding
worker (`kubesched.scheduler.binder`) while the next pods are scheduled.
Every failure path unreserves, forgets the assumed pod and hands the pod
back to the queue (`handle_scheduling_failure`), sets its PodScheduled
condition and records a FailedScheduling event.

Plugin code runs under the cycle watchdog; the cache and queue bookkeeping
here is never cut short by it (see `watchdog`).
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable, Iterable, Mapping

from attrs import define, evolve

from kubesched.api import Pod, PodCondition
from kubesched.framework._cycle_state import CycleState
from kubesched.framework._diagnosis import Diagnosis, FitError
from kubesched.framework._events import ASSIGNED_POD_DELETE
from kubesched.framework._interface import Clock, EventRecorder
from kubesched.framework._runtime import Framework
from kubesched.framework._status import Code, Status
from kubesched.framework._types import PodInfo
from kubesched.framework._waiting_pods import WaitingPodsMap
from kubesched.scheduler.algorithm import Algorithm, NodeStatusView, ScheduleError, ScheduleResult
from kubesched.scheduler.binder import ConcurrentBinder
from kubesched.scheduler.cache import Cache, CacheError
from kubesched.scheduler.entry import QueueEntry
from kubesched.scheduler.evicted import evicted
from kubesched.scheduler.explain import explain_failure, explain_result
from kubesched.scheduler.extenders import HTTPExtender, extenders_binding
from kubesched.scheduler.metrics import PLUGIN_METRICS_SAMPLE_PERCENT, SchedulerMetrics
from kubesched.scheduler.nominator import Nominator
from kubesched.scheduler.outcome import (
    ERROR,
    SCHEDULED,
    SKIPPED,
    UNSCHEDULABLE,
    PodOutcome,
    claimed_devices,
    claimed_volumes,
)
from kubesched.scheduler.queue import SchedulingQueue
from kubesched.scheduler.snapshot import Snapshot
from kubesched.scheduler.source import ClusterSource
from kubesched.scheduler.watchdog import CycleTimeout, Watchdog

NOTE_LENGTH_LIMIT = 1024
"""Event messages longer than this are truncated (upstream's NoteLengthLimit)."""
POD_SCHEDULED = "PodScheduled"
REASON_UNSCHEDULABLE = "Unschedulable"
REASON_SCHEDULER_ERROR = "SchedulerError"


log = logging.getLogger(__name__)


def truncate_message(message: str) -> str:
    """Cut a message to the event note limit, ending it with " ..."."""
    if len(message) <= NOTE_LENGTH_LIMIT:
        return message
    return message[: NOTE_LENGTH_LIMIT - 4] + " ..."


def _fit_status(code: Code, error: FitError) -> Status:
    return Status(code, error.message, err=error)


def _one_node_fit_error(
    pod: Pod, host: str, status: Status, plugins: Iterable[str] = ()
) -> FitError:
    diagnosis = Diagnosis(node_to_status={host: status}, unschedulable_plugins=set(plugins))
    diagnosis.add_plugin_status(status)
    return FitError(pod, 1, diagnosis)


@define
class _Binding:
    """A pod between Permit and the end of its binding cycle."""

    entry: QueueEntry
    fw: Framework
    state: CycleState
    assumed: Pod
    host: str
    start: float


class ScheduleOne:
    """The scheduling cycle, the binding cycle and failure handling."""

    cluster: ClusterSource
    clock: Clock
    recorder: EventRecorder
    metrics: SchedulerMetrics
    explain: bool | Callable[[Pod], bool]
    explain_nodes: int | None
    cache: Cache
    snapshot: Snapshot
    queue: SchedulingQueue
    nominator: Nominator
    waiting_pods: WaitingPodsMap
    frameworks: Mapping[str, Framework]
    extenders: tuple[HTTPExtender, ...]
    record_extender_bindings: bool
    algorithm: Algorithm
    watchdog: Watchdog
    outcomes: dict[str, PodOutcome]
    preemptors: dict[str, str]
    cluster_version: int
    seen_version: dict[str, int]
    timed_out: set[str]
    _sampler: random.Random
    _bindings: dict[str, _Binding]
    binder: ConcurrentBinder[_Binding] | None

    def explains(self, pod: Pod) -> bool:
        """Whether this pod's attempts record explanations (`explain`: a flag or a predicate)."""
        return self.explain if isinstance(self.explain, bool) else self.explain(pod)

    # -- the scheduling cycle --------------------------------------------------------

    def schedule_one(self, entry: QueueEntry) -> None:
        """One scheduling cycle for a popped pod, then its binding cycle as far as it goes."""
        pod = entry.pod
        fw = self.frameworks[pod.spec.scheduler_name]
        outcome = self.outcomes.get(pod.uid)
        if outcome is None:
            outcome = self.outcomes[pod.uid] = PodOutcome(pod.key, fw.profile_name)
        outcome.attempts = entry.attempts
        if pod.metadata.deletion_timestamp is not None:
            message = f"skip schedule deleting pod: {pod.key}"
            self.recorder.event(pod, "Warning", "FailedScheduling", "Scheduling", message)
            outcome.status, outcome.message = SKIPPED, message
            self.queue.done(pod.uid)
            return
        if self.cache.is_assumed(pod):
            self.queue.done(pod.uid)
            return
        start = time.perf_counter()
        state = CycleState()
        state.record_plugin_metrics = self._sampler.randrange(100) < PLUGIN_METRICS_SAMPLE_PERCENT
        self.cache.update_snapshot(self.snapshot)
        with self.watchdog.limit():
            self._scheduling_cycle(entry, fw, state, outcome, start)

    def _scheduling_cycle(
        self, entry: QueueEntry, fw: Framework, state: CycleState, outcome: PodOutcome, start: float
    ) -> None:
        try:
            try:
                result = self.algorithm.schedule_pod(
                    fw, state, entry.pod, self.snapshot, reasons=self.explains(entry.pod)
                )
            finally:
                self.metrics.scheduling_algorithm_duration.observe(time.perf_counter() - start)
        except FitError as err:
            if self.explains(entry.pod):
                explain_failure(self, outcome, err, entry.pod)
            self._after_fit_error(entry, fw, state, err, start)
            return
        except (ScheduleError, CycleTimeout) as err:
            outcome.nodes, outcome.not_shown = ({} if self.explains(entry.pod) else None), None
            status = err.status if isinstance(err, ScheduleError) else Status.error(err)
            self.handle_scheduling_failure(entry, fw, status, "", start)
            return
        if self.explains(entry.pod):
            explain_result(self, outcome, result, entry.pod)
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
            err.diagnosis.post_filter_msg = status.message
            if isinstance(status.err, CycleTimeout):
                self.timed_out.add(entry.pod.uid)
            nominating = None
            if result is not None:
                nominating = result.nominated_node_name
                outcome = self.outcomes[entry.pod.uid]
                if result.nominated_node_name:
                    outcome.nominated_node = result.nominated_node_name
                if self.explains(entry.pod) and result.details is not None:
                    outcome.preemption = result.details
                victims = evicted(self.cluster, self.snapshot, result.victims, nominating or "")
                outcome.victims.extend(v for v in victims if v not in outcome.victims)
                self.preemptors.update(dict.fromkeys(victims, entry.pod.key))
                if victims:
                    self.metrics.preemption_victims.observe(len(victims))
        self.handle_scheduling_failure(
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
        status = fw.run_reserve_plugins_reserve(state, assumed, host)
        if status is None or status.is_success():
            status = fw.run_permit_plugins(state, assumed, host)
        if status is not None and status.is_wait():
            status = None
        if status is not None and not status.is_success():
            fw.run_reserve_plugins_unreserve(state, assumed, host)
            self.cache.forget_pod(assumed)
            error = None
            if status.is_rejected():
                error = _one_node_fit_error(pod, host, status)
                status = _fit_status(status.code, error)
            self.handle_scheduling_failure(entry, fw, status, "", start, error)
            return
        binding = _Binding(entry, fw, state, assumed, host, start)
        self._bindings[pod.uid] = binding
        self._binding_cycle(binding)

    # -- the binding cycle -----------------------------------------------------------

    def pump_bindings(self) -> None:
        """Resume every binding cycle whose pod is no longer waiting at Permit, and finish
        those whose API calls ran concurrently."""
        for binding in list(self._bindings.values()):
            waiting = binding.fw.get_waiting_pod(binding.assumed.uid)
            if waiting is None or waiting.status is not None:
                with self.watchdog.limit():
                    self._binding_cycle(binding)
        if self.binder is not None:
            for b, (stage, status) in self.binder.completed():
                with self.watchdog.limit():
                    self._finish_binding_cycle(b, self._after_binders(b, stage, status))

    def has_waiting_bindings(self) -> bool:
        return bool(self._bindings) or (self.binder is not None and len(self.binder) > 0)

    def expire_waiting_pods(self) -> None:
        """Reject pods whose Permit wait has timed out on the clock."""
        now = self.clock.now()
        for waiting in self.waiting_pods:
            waiting.expire(now)

    def next_permit_deadline(self) -> float | None:
        deadlines = [d for wp in self.waiting_pods if (d := wp.deadline()) is not None]
        return min(deadlines, default=None)

    def _binding_cycle(self, b: _Binding) -> None:
        """The binding cycle from WaitOnPermit on; returns early while the pod still waits.
        With a concurrent binder, PreBind and Bind run on its worker and `pump_bindings`
        finishes the cycle."""
        waiting = b.fw.get_waiting_pod(b.assumed.uid)
        if waiting is not None and waiting.status is None:
            return
        del self._bindings[b.assumed.uid]
        status = b.fw.wait_on_permit(b.assumed)
        if status is not None:
            if status.is_rejected():
                error = _one_node_fit_error(b.assumed, b.host, status, [status.plugin])
                status = _fit_status(status.code, error)
            self._handle_binding_cycle_error(b, status)
            return
        self.queue.done(b.assumed.uid)
        if self.binder is not None:
            self.binder.submit(b.assumed.uid, b, lambda: self._run_binders(b))
            return
        stage, status = self._run_binders(b)
        self._finish_binding_cycle(b, self._after_binders(b, stage, status))

    def _run_binders(self, b: _Binding) -> tuple[str, Status | None]:
        """PreBind, then a binding extender or the Bind plugins: the plugin calls only, safe on
        a binding worker. (the stage reached, its status)"""
        try:
            status = b.fw.run_pre_bind_plugins(b.state, b.assumed, b.host)
            if status is not None:
                return "prebind", status
            bound, status = extenders_binding(self.extenders, b.assumed, b.host)
            if bound:
                if status is None and self.record_extender_bindings:
                    status = self._record_extender_binding(b)
                return "extender", status
            return "bind", b.fw.run_bind_plugins(b.state, b.assumed, b.host)
        except Exception as exc:  # the framework turns plugin errors into statuses already
            return "prebind", Status.error(f"binding cycle: {exc}")

    def _after_binders(self, b: _Binding, stage: str, status: Status | None) -> Status | None:
        """FinishBinding, then a check that the cluster has the pod where the binder says."""
        if stage == "prebind":
            return status
        self.cache.finish_binding(b.assumed)
        if stage == "extender" or status is None or not status.is_success():
            return status
        live = self.cluster.get_pod(b.assumed.uid)
        if live is not None and live.spec.node_name != b.host:
            where = f'node "{live.spec.node_name}"' if live.spec.node_name else "no node"
            return Status.error(
                f'plugin "{status.plugin}" reported pod {b.assumed.key} bound to node '
                f'"{b.host}", but the cluster has it on {where}',
                plugin=status.plugin,
            )
        return None

    def _finish_binding_cycle(self, b: _Binding, status: Status | None) -> None:
        if status is not None:
            self._handle_binding_cycle_error(b, status)
            return
        message = f"Successfully assigned {b.assumed.key} to {b.host}"
        self.recorder.event(b.assumed, "Normal", "Scheduled", "Binding", message)
        entry = b.entry
        self.metrics.observe_attempt("scheduled", b.fw.profile_name, time.perf_counter() - b.start)
        initial = entry.initial_attempt_timestamp
        self.metrics.observe_pod_scheduled(
            entry.attempts, None if initial is None else self.clock.now() - initial
        )
        b.fw.run_post_bind_plugins(b.state, b.assumed, b.host)
        outcome = self.outcomes[b.assumed.uid]
        outcome.status, outcome.node, outcome.message = SCHEDULED, b.host, ""
        outcome.volumes = claimed_volumes(self.cluster, b.assumed)
        outcome.devices = claimed_devices(self.cluster, b.assumed)

    def _record_extender_binding(self, b: _Binding) -> Status | None:
        """Apply to the simulated cluster the binding an extender accepted."""
        try:
            self.cluster.bind(b.assumed, b.host)
        except Exception as exc:  # the cluster's refusal fails this pod's binding cycle
            return Status.error(f"recording the extender's binding: {exc}")
        return None

    def _handle_binding_cycle_error(self, b: _Binding, status: Status) -> None:
        """Upstream's handleBindingCycleError."""
        b.fw.run_reserve_plugins_unreserve(b.state, b.assumed, b.host)
        try:
            self.cache.forget_pod(b.assumed)
        except CacheError as exc:  # the watch confirmed it elsewhere meanwhile: logged, as upstream
            log.error("scheduler cache ForgetPod failed: %s", exc)
        self.cluster_version += 1
        error = status.err if isinstance(status.err, FitError) else None
        if status.is_rejected():
            self.handle_scheduling_failure(b.entry, b.fw, status, "", b.start, error)
            self.queue.move_all_to_active_or_backoff(
                ASSIGNED_POD_DELETE, b.assumed, None, lambda p: p.uid != b.assumed.uid
            )
        else:
            self.queue.move_all_to_active_or_backoff(ASSIGNED_POD_DELETE, b.assumed, None)
            self.handle_scheduling_failure(b.entry, b.fw, status, "", b.start, error)

    def handle_scheduling_failure(
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
        message = status.message
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
