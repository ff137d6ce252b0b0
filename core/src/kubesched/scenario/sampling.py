"""One sample of the series: the run's picture of the cluster and the scheduler's queue."""

from __future__ import annotations

from kubesched.api import Pod
from kubesched.scenario.series import Counters, ResourceUse, Sample
from kubesched.scenario.state import ClusterState
from kubesched.scenario.stats import percentile
from kubesched.scheduler.outcome import ERROR, UNSCHEDULABLE
from kubesched.scheduler.scheduler import Scheduler

QUEUED = "Queued"
"""Pending, not tried yet (or back in activeQ/backoffQ)."""
GATED = "Gated"
"""Held by a PreEnqueue plugin (scheduling gates)."""
WAITING = "Waiting"
"""Assumed on a node, held at Permit or binding."""
OTHER_SCHEDULER = "OtherScheduler"
"""Named for a scheduler no profile here serves."""


def pending_reason(sched: Scheduler, pod: Pod) -> str:
    """Why a pending pod is pending: one of the constants above, `Error`, or the plugins
    that rejected its latest attempt joined by `+` (`Unschedulable` when none is named)."""
    if sched.cache.is_assumed(pod):
        return WAITING
    outcome = sched.outcomes.get(pod.uid)
    if outcome is None:
        if not sched.responsible_for(pod):
            return OTHER_SCHEDULER
        return GATED if sched.queue.gating_status(pod) is not None else QUEUED
    if outcome.status == ERROR:
        return ERROR
    entry = sched.queue.get(pod)
    plugins = sorted(entry.unschedulable_plugins) if entry is not None else []
    return "+".join(plugins) if plugins else UNSCHEDULABLE


def take_sample(
    state: ClusterState, sched: Scheduler, window: list[float], counters: Counters
) -> Sample:
    """The sample at `state.now`; `window` holds the latencies of the pods bound since the
    previous one."""
    reasons: dict[str, int] = {}
    for pod in state.pending_pods.values():
        reason = pending_reason(sched, pod)
        reasons[reason] = reasons.get(reason, 0) + 1
    names = sorted(set(state.allocatable) | set(state.allocated) | set(state.pending_requested))
    resources = {}
    for name in names:
        allocated = state.allocated.get(name, 0)
        requested = allocated + state.pending_requested.get(name, 0)
        allocatable = state.allocatable.get(name, 0)
        if allocated or requested or allocatable:
            resources[name] = ResourceUse(allocated, requested, allocatable)
    window = sorted(window)
    return Sample(
        state.now,
        len(state.nodes),
        len(state.bound_pods),
        len(state.pending_pods),
        dict(sorted(reasons.items())),
        resources,
        percentile(window, 50),
        percentile(window, 90),
        percentile(window, 99),
        counters,
    )
