"""A simulation: the scheduler against the in-memory cluster on a simulated clock, until
nothing can change any more.

Pods are scheduled one after another, the cluster's changes applied between
cycles; simulated time only moves when the queue is idle, straight to the
next moment something can happen: a Permit timeout, the end of an error
backoff, or the 30-second sweep that retries pods left unschedulable for 5
minutes. A retry that cannot change the outcome
(nothing in the cluster changed since the pod last failed) is not waited for:
then the simulation is over.
"""

from __future__ import annotations

from collections.abc import Callable

from attrs import field, frozen

from kubesched.api import CPU, MEMORY, PODS, Pod
from kubesched.api._heap import frozen_heap
from kubesched.api._requests import pod_requests
from kubesched.scheduler.clock import SimulatedClock
from kubesched.scheduler.loop import next_moment, next_pod, reach
from kubesched.scheduler.outcome import (
    DELETED,
    ERROR,
    GATED,
    PREEMPTED,
    SCHEDULED,
    SKIPPED,
    STATUSES,
    UNSCHEDULABLE,
    PodOutcome,
)
from kubesched.scheduler.scheduler import Scheduler
from kubesched.scheduler.source import ClusterSource

DEFAULT_MAX_ATTEMPTS = 20
"""A pod is not tried again after this many attempts (`--max-attempts`): kube-scheduler would
retry a pod that keeps failing with an error forever, on backoff, and a plugin may requeue a
pod forever (say, a rejection message that changes every time, so every failure updates the
pod, and that update requeues it). The pod's last outcome stands and says so."""

Progress = Callable[[int, int], None]
"""(pods decided so far, pending pods) after every scheduling attempt."""


@frozen
class NodeUsage:
    """What the pods bound to a node request of it, against its allocatable."""

    name: str
    cpu_requested: int
    cpu_allocatable: int
    memory_requested: int
    memory_allocatable: int
    pods: int
    pods_allowed: int
    extended: dict[str, tuple[int, int]] = field(factory=dict)
    """Every other resource the node allocates or its pods request (GPUs, hugepages,
    ephemeral storage), none of zero: name -> (requested, allocatable)."""


@frozen
class Summary:
    """Outcome counts, pending pods no profile serves (left alone), and every node's use."""

    scheduled: int
    unschedulable: int
    errors: int
    other_schedulers: int
    nodes: list[NodeUsage]
    preempted: int = 0
    deleted: int = 0
    gated: int = 0
    """Pending pods never attempted: held by a PreEnqueue plugin (scheduling gates)."""
    skipped: int = 0
    """Pending pods being deleted, which the scheduler skips."""


@frozen
class SimulationResult:
    """Every pending pod's outcome, in the order first attempted (never-attempted gated pods
    last), and the summary."""

    outcomes: list[PodOutcome]
    summary: Summary
    simulated_seconds: float
    cycles: int


def _node_usage(cluster: ClusterSource) -> list[NodeUsage]:
    requested: dict[str, dict[str, int]] = {}
    for pod in cluster.pods():
        if pod.spec.node_name:
            totals = requested.setdefault(pod.spec.node_name, {PODS: 0})
            for name, amount in pod_requests(pod).items():
                totals[name] = totals.get(name, 0) + amount
            totals[PODS] += 1
    usage = []
    for node in cluster.nodes():
        used = requested.get(node.name, {})
        alloc = node.status.allocatable
        others = sorted(
            name
            for name in (set(used) | set(alloc)) - {CPU, MEMORY, PODS}
            if used.get(name) or alloc.get(name)
        )
        usage.append(
            NodeUsage(
                node.name,
                used.get(CPU, 0),
                alloc.get(CPU, 0),
                used.get(MEMORY, 0),
                alloc.get(MEMORY, 0),
                used.get(PODS, 0),
                alloc.get(PODS, 0),
                {name: (used.get(name, 0), alloc.get(name, 0)) for name in others},
            )
        )
    return usage


class Simulation:
    """Run `scheduler` on its simulated `clock` until it settles; see the module docstring."""

    def __init__(
        self,
        scheduler: Scheduler,
        clock: SimulatedClock,
        *,
        max_attempts: int = DEFAULT_MAX_ATTEMPTS,
    ) -> None:
        self.scheduler = scheduler
        self.cluster = scheduler.cluster
        self.recorder = scheduler.recorder
        self.clock = clock
        self.max_attempts = max_attempts
        self.cycles = 0

    def run(self, progress: Progress | None = None) -> SimulationResult:
        sched = self.scheduler
        pending = sum(1 for p in self.cluster.pods() if not p.spec.node_name)
        with sched.watchdog.session(), frozen_heap():
            self._loop(progress, pending)
            return self._result()

    def _loop(self, progress: Progress | None, pending: int) -> None:
        """Schedule until nothing can change any more."""
        sched = self.scheduler
        while True:
            entry = next_pod(sched)
            if entry is not None and self._give_up(entry.uid, entry.attempts):
                sched.queue.done(entry.uid)
                continue
            if entry is not None:
                sched.schedule_one(entry)
                self.cycles += 1
                if progress is not None:
                    progress(len(sched.outcomes), pending)
                continue
            moment = next_moment(sched, self._stale)
            if moment is None:
                break
            self.clock.advance_to(moment)
            reach(sched, moment)

    def _give_up(self, uid: str, attempts: int) -> bool:
        """Should the simulation stop retrying this pod? Say why on its outcome."""
        outcome = self.scheduler.outcomes.get(uid)
        if uid in self.scheduler.timed_out:
            reason = "its cycle ran past --cycle-timeout"
        elif attempts > self.max_attempts:
            reason = f"tried {self.max_attempts} times (--max-attempts)"
        else:
            return False
        if outcome is not None:
            outcome.stopped = reason
        return True

    def _stale(self, pod: Pod) -> bool:
        """Did the cluster change since this pod last failed?"""
        sched = self.scheduler
        return sched.cluster_version > sched.seen_version.get(pod.uid, -1)

    def _result(self) -> SimulationResult:
        sched = self.scheduler
        outcomes = list(sched.outcomes.values())
        for pod in self.cluster.pods():
            if pod.spec.node_name or pod.uid in sched.outcomes or not sched.responsible_for(pod):
                continue
            status = sched.queue.gating_status(pod)
            fw = sched.frameworks[pod.spec.scheduler_name]
            outcomes.append(
                PodOutcome(
                    pod.key,
                    fw.profile_name,
                    status=UNSCHEDULABLE if status is None else GATED,
                    message="" if status is None else status.message,
                )
            )
        others = sum(
            1 for p in self.cluster.pods() if not p.spec.node_name and not sched.responsible_for(p)
        )
        counts = dict.fromkeys(STATUSES, 0)
        for outcome in outcomes:
            counts[outcome.status] += 1
        summary = Summary(
            counts[SCHEDULED],
            counts[UNSCHEDULABLE],
            counts[ERROR],
            others,
            _node_usage(self.cluster),
            preempted=counts[PREEMPTED],
            deleted=counts[DELETED],
            gated=counts[GATED],
            skipped=counts[SKIPPED],
        )
        return SimulationResult(outcomes, summary, self.clock.now(), self.cycles)
