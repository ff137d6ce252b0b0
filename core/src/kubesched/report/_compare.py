"""The page of a `ComparisonResult` (`kubesched compare`): the metrics of every config side by
side with their differences from the first, and the pods the configs placed differently.

The metric table is computed here once (rows of metrics, a cell per config with its mean, its
range over the seeds, and its difference from the first config's mean).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from kubesched.report._render import render
from kubesched.report._replay import columns

TITLE = "kubesched comparison report"
COUNTS = ("scheduled", "unschedulable", "errors", "preempted")
"""Count metrics, in the order shown; ratios and reasons follow."""
_ZERO = {"mean": 0.0, "min": 0.0, "max": 0.0}
HIGHER_IS_BETTER = frozenset({"scheduled", "utilisation"})
"""Metric groups where more is better; for the others (failures, fragmentation) less is."""
REPLAY = "replay"
"""The spread's one group on a scenario: the replay's metrics by name."""
REPLAY_HIGHER = ("bound", "finished", "running_at_end", "utilisation_")
REPLAY_LOWER = ("latency_", "pending_at_end", "dropped", "evictions", "preemptions", "attempts")
"""Prefixes of replay metrics where more is better, and where less is; the rest (events,
created, state counts, observers' values) are told apart only by their difference."""


@attrs.frozen
class Cell:
    """One config's value of a metric: mean over seeds, range, difference from the first."""

    mean: float
    low: float
    high: float
    delta: float | None
    """None for the first config, the baseline."""


@attrs.frozen
class MetricRow:
    """One metric across the configs; `ratio` metrics show as percentages."""

    group: str
    name: str
    ratio: bool
    cells: tuple[Cell, ...]

    def verdict(self, cell: Cell) -> str:
        """`better`, `worse`, `changed` (no direction is better) or `same`: how a config's
        difference from the first reads."""
        if not cell.delta:
            return "same"
        if self.group == REPLAY:
            if self.name.startswith(REPLAY_HIGHER):
                higher = True
            elif self.name.startswith(REPLAY_LOWER):
                higher = False
            else:
                return "changed"
        else:
            higher = self.group in HIGHER_IS_BETTER
        return "better" if (cell.delta > 0) == higher else "worse"

    @property
    def differs(self) -> bool:
        """Whether any config's mean differs from the first's."""
        return any(c.delta for c in self.cells)


def _spread(config: Mapping[str, Any], group: str, key: str | None) -> Mapping[str, float]:
    spread = config["metrics"]["spread"]
    value = spread.get(group, _ZERO) if key is None else spread.get(group, {}).get(key, _ZERO)
    return value if isinstance(value, Mapping) else _ZERO


def _row(
    configs: Sequence[Mapping[str, Any]], group: str, key: str | None, ratio: bool
) -> MetricRow:
    values = [_spread(c, group, key) for c in configs]
    base = float(values[0]["mean"]) if values else 0.0
    cells = tuple(
        Cell(
            mean=float(v["mean"]),
            low=float(v["min"]),
            high=float(v["max"]),
            delta=None if i == 0 else float(v["mean"]) - base,
        )
        for i, v in enumerate(values)
    )
    return MetricRow(group=group, name=key or group, ratio=ratio, cells=cells)


def _keys(configs: Sequence[Mapping[str, Any]], group: str, *, ordered: bool = False) -> list[str]:
    keys: dict[str, None] = {}
    for config in configs:
        keys.update(dict.fromkeys(config["metrics"]["spread"].get(group, {})))
    return list(keys) if ordered else sorted(keys)


def metric_rows(configs: Sequence[Mapping[str, Any]]) -> list[MetricRow]:
    """The counts, then utilisation and fragmentation per resource, then each reason; on a
    scenario, the replay's metrics in the order the document gives them."""
    if any(REPLAY in c["metrics"]["spread"] for c in configs):
        return [
            _row(configs, REPLAY, key, ratio=key.startswith("utilisation_"))
            for key in _keys(configs, REPLAY, ordered=True)
        ]
    rows = [_row(configs, name, None, ratio=False) for name in COUNTS]
    for group in ("utilisation", "fragmentation"):
        rows += [_row(configs, group, key, ratio=True) for key in _keys(configs, group)]
    reasons = "unschedulableByReason"
    rows += [_row(configs, reasons, key, ratio=False) for key in _keys(configs, reasons)]
    return rows


def render_comparison(document: Mapping[str, Any], title: str | None) -> str:
    """The HTML of a ComparisonResult: inputs, metrics side by side, differing placements."""
    configs = document["configs"]
    return render(
        "comparison.html.j2",
        title=title or TITLE,
        document=document,
        configs=configs,
        seeds=document.get("seeds", []),
        rows=metric_rows(configs),
        differences=len(document["differences"]),
        series=any(c.get("series") for c in configs),
        data={
            "configs": [c["name"] for c in configs],
            "differences": document["differences"],
            "explainedSeed": document.get("explainedSeed"),
            "series": {c["name"]: columns(c.get("series") or []) for c in configs},
        },
    )
