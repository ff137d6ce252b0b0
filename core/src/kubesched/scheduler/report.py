"""A simulation's result as plain data: the body of `kubesched simulate --output json|yaml`.

The document is a public, versioned API (documented in
docs/reference/simulate-output.md); the CLI adds `apiVersion`
(`SIMULATION_API_VERSION`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from kubesched.framework._status import Status
from kubesched.scheduler.extenders import ExtenderNodeVerdict
from kubesched.scheduler.outcome import NodeExplanation, NodeGroup, PodOutcome
from kubesched.scheduler.simulation import NodeUsage, SimulationResult, Summary

KIND = "SimulationResult"
SIMULATION_API_VERSION = "kubesched.io/v1alpha2"
"""The `apiVersion` of a SimulationResult: v1alpha2 since explanations became short by
default (`results[].nodes` no longer holds every node unless `--explain-nodes all`) and
gained the pod's effective request, the nodes' free amounts and the groups of nodes not
shown. A v1alpha1 document is the same without those."""


def _filter(status: Status | None) -> dict[str, Any]:
    if status is None:
        return {"code": "Success", "plugin": None, "reasons": []}
    return {
        "code": str(status.code),
        "plugin": status.plugin or None,
        "reasons": list(status.reasons),
    }


def _extender(verdict: ExtenderNodeVerdict) -> dict[str, Any]:
    return {
        "filter": None if verdict.code is None else str(verdict.code),
        "reasons": list(verdict.reasons),
        "score": verdict.score,
        "weighted": verdict.weighted,
    }


def _node(node: NodeExplanation) -> dict[str, Any]:
    return {
        "filter": _filter(node.filter),
        "scores": {
            plugin: {"normalized": normalized, "weighted": weighted}
            for plugin, (normalized, weighted) in node.scores.items()
        },
        "total": node.total,
        "extenders": {name: _extender(v) for name, v in node.extenders.items()},
        "resources": {
            name: {
                "allocatable": allocatable,
                "requested": requested,
                "free": allocatable - requested,
            }
            for name, (allocatable, requested) in node.resources.items()
        },
    }


def _group(group: NodeGroup) -> dict[str, Any]:
    return {"filter": _filter(group.filter), "count": group.count, "examples": list(group.examples)}


def outcome_document(outcome: PodOutcome, explain: bool) -> dict[str, Any]:
    """One pending pod: where it went or why not; with `explain`, every node of its last attempt."""
    doc: dict[str, Any] = {
        "pod": outcome.pod,
        "profile": outcome.profile,
        "node": outcome.node,
        "status": outcome.status,
        "message": outcome.message,
        "attempts": outcome.attempts,
        "nominatedNode": outcome.nominated_node,
        "victims": list(outcome.victims),
        "preemptedBy": outcome.preempted_by,
        "stoppedTrying": outcome.stopped,
        "volumes": dict(outcome.volumes),
    }
    if outcome.devices:
        doc["devices"] = {claim: list(names) for claim, names in outcome.devices.items()}
    if explain:
        doc["request"] = None if outcome.request is None else dict(outcome.request)
        doc["nodes"] = {name: _node(n) for name, n in (outcome.nodes or {}).items()}
        doc["nodesNotShown"] = [_group(g) for g in outcome.not_shown or ()]
        doc["preemption"] = None if outcome.preemption is None else dict(outcome.preemption)
    return doc


def _usage(usage: NodeUsage) -> dict[str, Any]:
    return {
        "name": usage.name,
        "cpu": {
            "requestedMillicores": usage.cpu_requested,
            "allocatableMillicores": usage.cpu_allocatable,
        },
        "memory": {
            "requestedBytes": usage.memory_requested,
            "allocatableBytes": usage.memory_allocatable,
        },
        "pods": {"count": usage.pods, "allocatable": usage.pods_allowed},
        "extendedResources": {
            name: {"requested": requested, "allocatable": allocatable}
            for name, (requested, allocatable) in usage.extended.items()
        },
    }


def summary_document(summary: Summary, simulated_seconds: float) -> dict[str, Any]:
    return {
        "scheduled": summary.scheduled,
        "unschedulable": summary.unschedulable,
        "errors": summary.errors,
        "preempted": summary.preempted,
        "deleted": summary.deleted,
        "gated": summary.gated,
        "skipped": summary.skipped,
        "otherSchedulers": summary.other_schedulers,
        "simulatedSeconds": simulated_seconds,
        "nodes": [_usage(u) for u in summary.nodes],
    }


def result_document(
    result: SimulationResult,
    explain: bool | Callable[[PodOutcome], bool] = False,
    outcomes: Sequence[PodOutcome] | None = None,
) -> dict[str, Any]:
    """`kind`, `results` (one per pending pod, first-attempt order, or the `outcomes` given)
    and `summary`; `explain` says whether (or for which pods) to include every node."""
    explained = explain if callable(explain) else (lambda _: explain)
    return {
        "kind": KIND,
        "results": [
            outcome_document(o, explained(o))
            for o in (result.outcomes if outcomes is None else outcomes)
        ],
        "summary": summary_document(result.summary, result.simulated_seconds),
    }
