"""The page of a `SimulationResult` (`kubesched simulate`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kubesched.report._failures import failure_groups
from kubesched.report._render import as_yaml, render

TITLE = "kubesched simulation report"


def render_simulation(
    document: Mapping[str, Any], configuration: Mapping[str, Any] | None, title: str | None
) -> str:
    """The HTML of a SimulationResult: summary, failures, pods, nodes, configuration."""
    results = document["results"]
    summary = document["summary"]
    return render(
        "simulation.html.j2",
        title=title or TITLE,
        document=document,
        summary=summary,
        pods=len(results),
        explained=sum(1 for r in results if r.get("nodes")),
        profiles=sorted({str(r["profile"]) for r in results}),
        failures=failure_groups(results),
        warnings=document.get("warnings", []),
        configuration=as_yaml(dict(configuration)) if configuration is not None else None,
        data={"results": results, "nodes": summary["nodes"]},
    )
