"""A comparison as plain data: the body of `kubesched compare --output json|yaml`.

The document is a public, versioned API (docs/reference/compare-output.md, schema
docs/reference/schemas/comparison-result.schema.json); the CLI adds `apiVersion`.
It holds every run's metrics and placements, so a report can be rendered from it alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kubesched.experiment._compare import Comparison, ConfigRuns, NodeView, Placement
from kubesched.experiment._metrics import RunMetrics
from kubesched.experiment._spread import numeric, spread

KIND = "ComparisonResult"


def metrics_document(metrics: RunMetrics) -> dict[str, Any]:
    """One run's metrics (camelCase keys)."""
    return {
        "pods": metrics.pods,
        "scheduled": metrics.scheduled,
        "unschedulable": metrics.unschedulable,
        "errors": metrics.errors,
        "preempted": metrics.preempted,
        "otherSchedulers": metrics.other_schedulers,
        "gated": metrics.gated,
        "skipped": metrics.skipped,
        "unschedulableByReason": dict(metrics.unschedulable_by_reason),
        "utilisation": dict(metrics.utilisation),
        "fragmentation": dict(metrics.fragmentation),
        "simulatedSeconds": metrics.simulated_seconds,
        "cycles": metrics.cycles,
    }


COUNTS = ("scheduled", "unschedulable", "errors", "preempted", "gated", "skipped")
"""The counts whose spread over seeds a comparison reports."""
PER_KEY = ("unschedulableByReason", "utilisation", "fragmentation")
"""The metrics keyed by reason or resource whose spread a comparison reports."""


def spread_document(per_seed: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Mean, min and max over seeds of each count and of each keyed metric (a key missing
    under a seed, such as a reason no pod had, counts as 0 there)."""
    doc: dict[str, Any] = {
        name: spread([run[name] for run in per_seed]).document() for name in COUNTS
    }
    for name in PER_KEY:
        keys = list(dict.fromkeys(key for run in per_seed for key in run[name]))
        doc[name] = {
            key: spread([run[name].get(key, 0) for run in per_seed]).document() for key in keys
        }
    return doc


def _placement(placement: Placement | None) -> dict[str, Any] | None:
    if placement is None:
        return None
    return {"status": placement.status, "node": placement.node, "message": placement.message}


def _view(view: NodeView) -> dict[str, Any]:
    doc: dict[str, Any] = {"evaluated": view.evaluated, "filter": None, "scores": {}, "total": None}
    if view.filter is not None:
        code, plugin, reasons = view.filter
        doc["filter"] = {"code": code, "plugin": plugin or None, "reasons": list(reasons)}
    doc["scores"] = {p: {"normalized": n, "weighted": w} for p, n, w in view.scores}
    doc["total"] = view.total
    return doc


def replay_spread_document(per_seed: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Mean, min and max over seeds of each numeric replay metric (seeds where it has no
    value, such as a latency with no pod bound, left out; a metric no seed has, too)."""
    keys = list(dict.fromkeys(key for run in per_seed for key in run))
    spreads = {}
    for key in keys:
        values = [numeric(run).get(key) for run in per_seed]
        present = [v for v in values if v is not None]
        if present:
            spreads[key] = spread(present).document()
    return spreads


def _metrics(runs: ConfigRuns, seeds: Sequence[int]) -> dict[str, Any]:
    if runs.replays:
        pairs = zip(seeds, runs.replays, strict=True)
        per_seed: list[dict[str, Any]] = [{"seed": s, "replay": dict(m)} for s, m in pairs]
        spreads = replay_spread_document([m["replay"] for m in per_seed])
        return {"perSeed": per_seed, "spread": {"replay": spreads}}
    cluster = zip(seeds, runs.metrics, strict=True)
    documents = [{"seed": seed, **metrics_document(m)} for seed, m in cluster]
    return {"perSeed": documents, "spread": spread_document(documents)}


def _config(runs: ConfigRuns, seeds: Sequence[int]) -> dict[str, Any]:
    doc = {
        "name": runs.config.name,
        "source": runs.config.source,
        "hash": runs.config.digest,
        "metrics": _metrics(runs, seeds),
        "placements": [
            {
                "seed": seed,
                "pods": {pod: _placement(p) for pod, p in placements.items()},
            }
            for seed, placements in zip(seeds, runs.placements, strict=True)
        ],
    }
    if runs.replays:
        doc["series"] = list(runs.series)
    return doc


def comparison_document(comparison: Comparison) -> dict[str, Any]:
    """`kind`, the input, the seeds, each config's metrics and placements, the differences."""
    spec = comparison.input
    return {
        "kind": KIND,
        "input": {"kind": spec.kind, "path": spec.path, "name": spec.name, "hash": spec.digest},
        "seeds": list(comparison.seeds),
        "explainedSeed": comparison.seeds[0],
        "configs": [_config(runs, comparison.seeds) for runs in comparison.configs],
        "differences": [
            {
                "pod": d.pod,
                "kind": d.kind,
                "placements": {name: _placement(p) for name, p in d.placements.items()},
                "explanations": {
                    name: {node: _view(v) for node, v in nodes.items()}
                    for name, nodes in d.explanations.items()
                },
            }
            for d in comparison.differences
        ],
    }
