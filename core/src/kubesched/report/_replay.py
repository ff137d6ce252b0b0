"""The page of a `ReplayResult` (`kubesched replay`): the series as charts, the pods' timeline.

The series travels to the page column by column (one array per column, as uPlot
draws them); which columns are resources (`<resource>_allocation`), which are
pending reasons (`pending_<reason>`) is decided here, once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from kubesched.report._render import render

TITLE = "kubesched replay report"
ALLOCATION = "_allocation"
REQUEST = "_request"
PENDING = "pending_"
SUMMARY_CARDS = (
    ("created", "created"),
    ("bound", "bound"),
    ("finished", "finished"),
    ("deleted", "deleted"),
    ("preemptions", "preemptions"),
    ("evictions", "evictions"),
    ("dropped", "dropped"),
    ("attempts", "attempts"),
    ("events", "events"),
)
"""(summary field, label) of the cards on top, in order."""


def columns(series: Sequence[Mapping[str, Any]]) -> dict[str, list[Any]]:
    """The series' rows as columns, in the rows' column order."""
    names: dict[str, None] = {}
    for row in series:
        names.update(dict.fromkeys(row))
    return {name: [row.get(name) for row in series] for name in names}


def _shown(value: Any, unit: str = "") -> str:
    """A run option as the page shows it: JSON's spelling of booleans, numbers with `unit`."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return f"{value:g}{unit}"
    return str(value)


def render_replay(document: Mapping[str, Any], title: str | None) -> str:
    """The HTML of a ReplayResult: summary, charts, per-pod timeline, observers."""
    series = columns(document["series"])
    resources = [name[: -len(ALLOCATION)] for name in series if name.endswith(ALLOCATION)]
    reasons = [name[len(PENDING) :] for name in series if name.startswith(PENDING)]
    summary = document["summary"]
    times = series.get("time", [])
    span = max([float(summary.get("simulatedSeconds") or 0.0), *map(float, times)])
    options = {
        "scenario": _shown(document.get("scenario")),
        "seed": _shown(document.get("seed")),
        "ties": _shown(document.get("ties")),
        "dropUnschedulable": _shown(document.get("dropUnschedulable")),
        "sampleInterval": _shown(document.get("sampleInterval"), " s"),
        "bindLatency": _shown(document.get("bindLatency"), " s"),
    }
    return render(
        "replay.html.j2",
        title=title or TITLE,
        document=document,
        summary=summary,
        cards=SUMMARY_CARDS,
        options=options,
        states={k: v for k, v in (summary.get("states") or {}).items() if v},
        observers=document.get("observers") or {},
        samples=len(document["series"]),
        pods=len(document["pods"]),
        data={
            "series": series,
            "resources": resources,
            "reasons": reasons,
            "pods": document["pods"],
            "span": span,
        },
    )
