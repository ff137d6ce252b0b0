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

from attrs import frozen

from kubesched.api import CPU, MEMORY, PODS, Pod
from kubesched.api._requests import pod_requests
from kubesched.scheduler.clock import SimulatedClock
from kubesched.scheduler.entry import QueueEntry
from kubesched.scheduler.loop import next_moment, next_pod, reach
from kubesched.scheduler.outcome import ERROR, SCHEDULED, UNSCHEDULABLE, PodOutcome
from kubesched.scheduler.scheduler import Scheduler
from kubesched.scheduler.source import ClusterSource

MAX_ATTEMPTS_PER_POD = 100
"""A pod is not tried again after this many attempts: a guard against plugins that requeue a
pod forever (say, a rejection message that changes every time, so every failure updates the
pod, and that update requeues it); its last outcome stands."""

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


@frozen
class Summary:
    """Outcome counts, pending pods no profile serves (left alone), and every node's use."""

    scheduled: int
    unschedulable: int
    errors: int
    other_schedulers: int
    nodes: list[NodeUsage]


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
        usage.append(
            NodeUsage(
                node.name,
                used.get(CPU, 0),
                alloc.get(CPU, 0),
                used.get(MEMORY, 0),
                alloc.get(MEMORY, 0),
                used.get(PODS, 0),
                alloc.get(PODS, 0),
            )
        )
    return usage


class Simulation:
    """Run `scheduler` on its simulated `clock` until it settles; see the module docstring."""

    def __init__(self, scheduler: Scheduler, clock: SimulatedClock) -> None:
        self.scheduler = scheduler
        self.cluster = scheduler.cluster
        self.recorder = scheduler.recorder
        self.clock = clock
        self.cycles = 0

    def run(self, progress: Progress | None = None) -> SimulationResult:
        sched = self.scheduler
        pending = sum(1 for p in self.cluster.pods() if not p.spec.node_name)
        with sched.watchdog.session():
            self._loop(progress, pending)
        return self._result()

    def _loop(self, progress: Progress | None, pending: int) -> None:
        """Schedule until nothing can change any more."""
        sched = self.scheduler
        while True:
            entry = next_pod(sched)
            if entry is not None and self._given_up(entry):
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

    def _given_up(self, entry: QueueEntry) -> bool:
        """Pods tried too often, or whose cycle timed out, are not tried again."""
        return entry.attempts > MAX_ATTEMPTS_PER_POD or entry.uid in self.scheduler.timed_out

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
                    message="" if status is None else status.message(),
                )
            )
        others = sum(
            1 for p in self.cluster.pods() if not p.spec.node_name and not sched.responsible_for(p)
        )
        counts = {SCHEDULED: 0, UNSCHEDULABLE: 0, ERROR: 0}
        for outcome in outcomes:
            counts[outcome.status] += 1
        summary = Summary(
            counts[SCHEDULED],
            counts[UNSCHEDULABLE],
            counts[ERROR],
            others,
            _node_usage(self.cluster),
        )
        return SimulationResult(outcomes, summary, self.clock.now(), self.cycles)
