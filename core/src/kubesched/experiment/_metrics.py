"""The metrics of one run: outcome counts (scheduled, unschedulable, errors, preempted,
left to other schedulers, gated, skipped), failure reasons, utilisation, fragmentation.

- utilisation of a resource: what the pods bound at the end request of it over all
  nodes, divided by all nodes' allocatable (a ratio of two integer sums);
- fragmentation of a resource: `1 - largest free amount on one node / total free
  amount` (external fragmentation, as memory allocators measure it): 0 when all the
  free capacity is on one node, so the largest pod that fits anywhere could use all
  of it; towards 1 when it is scattered in slivers over many nodes. 0 when nothing is
  free. Pods (the per-node pod count) have a utilisation but no fragmentation.
- unschedulable by reason: for each reason a node gave in the final message of an
  unschedulable pod ("Insufficient cpu", "node(s) had untolerated taint(s)"), how
  many pods it rejected (a pod counts once for each distinct reason).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from attrs import frozen

from kubesched.api import CPU, MEMORY, PODS
from kubesched.scheduler.outcome import UNSCHEDULABLE, PodOutcome
from kubesched.scheduler.simulation import NodeUsage, SimulationResult

_AVAILABLE = re.compile(r"^\d+/\d+ nodes are available: (?P<reasons>.*?)\.?(?: preemption: .*)?$")
_REASON = re.compile(r"(?:^|, )\d+ (?P<reason>.+?)(?=, \d+ |$)")


@frozen
class RunMetrics:
    """What one run of a config on an input gives, for tables and comparisons."""

    pods: int
    """Pending pods the config's profiles were responsible for."""
    scheduled: int
    unschedulable: int
    errors: int
    preempted: int
    other_schedulers: int
    gated: int
    """Pending pods never attempted: held back by a PreEnqueue plugin (scheduling gates)."""
    skipped: int
    """Pending pods being deleted, which the scheduler skips."""
    unschedulable_by_reason: dict[str, int]
    utilisation: dict[str, float]
    fragmentation: dict[str, float]
    simulated_seconds: float
    cycles: int


def reasons(message: str) -> list[str]:
    """The distinct node reasons of an upstream FitError message ("0/3 nodes are available:
    2 Insufficient cpu, 1 node(s) ..."), or the whole message when it has another form."""
    match = _AVAILABLE.match(message)
    if match is None:
        return [message] if message else []
    found = [m["reason"] for m in _REASON.finditer(match["reasons"])]
    if found:
        return list(dict.fromkeys(found))
    return [match["reasons"] or message]


def _amounts(usage: NodeUsage) -> dict[str, tuple[int, int]]:
    """Resource -> (requested, allocatable) on one node."""
    return {
        CPU: (usage.cpu_requested, usage.cpu_allocatable),
        MEMORY: (usage.memory_requested, usage.memory_allocatable),
        PODS: (usage.pods, usage.pods_allowed),
        **usage.extended,
    }


def usage_metrics(nodes: Iterable[NodeUsage]) -> tuple[dict[str, float], dict[str, float]]:
    """(utilisation, fragmentation) per resource that some node allocates, sorted by name."""
    requested: dict[str, int] = {}
    allocatable: dict[str, int] = {}
    free: dict[str, list[int]] = {}
    for node in nodes:
        for name, (used, alloc) in _amounts(node).items():
            requested[name] = requested.get(name, 0) + used
            allocatable[name] = allocatable.get(name, 0) + alloc
            free.setdefault(name, []).append(max(alloc - used, 0))
    utilisation = {
        name: requested[name] / allocatable[name]
        for name in sorted(allocatable)
        if allocatable[name] > 0
    }
    fragmentation = {}
    for name in utilisation:
        if name == PODS:
            continue
        total = 0
        for amount in free[name]:
            total += amount
        fragmentation[name] = 0.0 if total == 0 else 1 - max(free[name]) / total
    return utilisation, fragmentation


def unschedulable_reasons(outcomes: Iterable[PodOutcome]) -> dict[str, int]:
    """Reason -> unschedulable pods it rejected, most pods first, then by reason."""
    counts: dict[str, int] = {}
    for outcome in outcomes:
        if outcome.status == UNSCHEDULABLE:
            for reason in reasons(outcome.message):
                counts[reason] = counts.get(reason, 0) + 1
    return dict(sorted(counts.items(), key=lambda item: (-item[1], item[0])))


def run_metrics(result: SimulationResult) -> RunMetrics:
    """The metrics of a simulation's result."""
    summary = result.summary
    utilisation, fragmentation = usage_metrics(summary.nodes)
    return RunMetrics(
        pods=len(result.outcomes),
        scheduled=summary.scheduled,
        unschedulable=summary.unschedulable,
        errors=summary.errors,
        preempted=summary.preempted,
        other_schedulers=summary.other_schedulers,
        gated=summary.gated,
        skipped=summary.skipped,
        unschedulable_by_reason=unschedulable_reasons(result.outcomes),
        utilisation=utilisation,
        fragmentation=fragmentation,
        simulated_seconds=result.simulated_seconds,
        cycles=result.cycles,
    )
