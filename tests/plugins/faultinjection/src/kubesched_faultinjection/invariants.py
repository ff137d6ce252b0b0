"""Invariants a simulation keeps whatever its plugins do, checked after a run.

Shared by the fault-injection tests and benchmarks/faults.py.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from kubesched.api import Pod, pod_requests
from kubesched.scheduler import Simulation, SimulationResult

FINAL_STATUSES = {
    "Scheduled",
    "Unschedulable",
    "Error",
    "Preempted",
    "Deleted",
    "Gated",
    "Skipped",
}


def violations(
    simulation: Simulation, result: SimulationResult, pending: Iterable[Pod], plugin: Any = None
) -> list[str]:
    """Every broken invariant, as one line each (empty: all hold).

    - every pending pod is reported exactly once, with a final state and its why;
    - no node is overcommitted on any resource;
    - a pod reported Scheduled is bound there, and every bound pod is reported so;
    - every assumed pod was bound or forgotten, no binding is left half-way;
    - no reservation of `plugin` (its `reserved`: uid -> node) outlives its pod's attempt.
    """
    found: list[str] = []
    keys = [p.key for p in pending]
    reported = Counter(o.pod for o in result.outcomes)
    lost = sorted(set(keys) - set(reported))
    twice = sorted(k for k, n in reported.items() if n > 1)
    if lost:
        found.append(f"{len(lost)} pending pods have no result, e.g. {lost[:3]}")
    if twice:
        found.append(f"pods reported more than once: {twice[:3]}")
    for o in result.outcomes:
        if o.status not in FINAL_STATUSES:
            found.append(f"{o.pod}: no final state ({o.status})")
        elif o.status in ("Unschedulable", "Error", "Gated", "Skipped") and not o.message:
            found.append(f"{o.pod}: {o.status} without a reason")
        elif o.status == "Error" and '"' not in o.message:
            found.append(f"{o.pod}: an Error that names no plugin: {o.message}")
        elif o.status == "Preempted" and not o.preempted_by:
            found.append(f"{o.pod}: Preempted by nobody")
    live = {p.key: p for p in simulation.cluster.pods()}
    for o in result.outcomes:
        bound = live.get(o.pod)
        node = bound.spec.node_name if bound is not None else None
        if (o.status == "Scheduled") != bool(node) or (o.status == "Scheduled" and o.node != node):
            found.append(f"{o.pod}: reported {o.status} on {o.node}, bound to {node}")
    found += _overcommitted(simulation)
    sched = simulation.scheduler
    if sched.cache.num_assumed_pods:
        found.append(f"{sched.cache.num_assumed_pods} assumed pods neither bound nor forgotten")
    if sched.has_waiting_bindings():
        found.append("binding cycles left waiting")
    if plugin is not None:
        held = {uid: n for uid, n in plugin.reserved.items() if _bound_to(simulation, uid) != n}
        if held:
            found.append(f"{len(held)} reservations left behind, e.g. {sorted(held)[:3]}")
    return found


def _bound_to(simulation: Simulation, uid: str) -> str | None:
    pod = simulation.cluster.get_pod(uid)
    return pod.spec.node_name if pod is not None and pod.spec.node_name else None


def _overcommitted(simulation: Simulation) -> list[str]:
    used: dict[str, Counter[str]] = {}
    for pod in simulation.cluster.pods():
        if pod.spec.node_name:
            totals = used.setdefault(pod.spec.node_name, Counter())
            totals.update(pod_requests(pod))
            totals["pods"] += 1
    found = []
    for node in simulation.cluster.nodes():
        for resource, amount in used.get(node.name, Counter()).items():
            if amount > node.status.allocatable.get(resource, 0):
                found.append(f"node {node.name} overcommitted on {resource}")
    return found
