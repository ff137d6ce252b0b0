"""Rendering: a Jinja2 environment over the package's templates, one template per kind.

Autoescaping is on for every template, so any text from a document placed in
the markup is escaped; the data the page's scripts read travels as JSON in a
`<script type="application/json">` block, escaped by `script_json`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import yaml
from jinja2 import Environment, PackageLoader, StrictUndefined
from markupsafe import Markup

from kubesched.report._assets import inline_script, inline_style
from kubesched.report._escape import script_json
from kubesched.report._failures import failure_groups

_environment: Environment | None = None


def environment() -> Environment:
    """The one Jinja2 environment of the report, built on first use."""
    global _environment
    if _environment is None:
        env = Environment(
            loader=PackageLoader("kubesched.report", "templates"),
            autoescape=True,
            undefined=StrictUndefined,
            trim_blocks=True,
            lstrip_blocks=True,
            keep_trailing_newline=True,
        )
        env.globals["inline_script"] = lambda name: Markup(inline_script(name))
        env.globals["inline_style"] = lambda name: Markup(inline_style(name))
        env.filters["script_json"] = lambda value: Markup(script_json(value))
        _environment = env
    return _environment


def _yaml(value: Any) -> str:
    return yaml.safe_dump(value, sort_keys=False, allow_unicode=True, width=100)


def render_simulation(
    document: Mapping[str, Any], configuration: Mapping[str, Any] | None, title: str
) -> str:
    """The page of a SimulationResult."""
    results = document["results"]
    summary = document["summary"]
    profiles = sorted({str(r["profile"]) for r in results})
    explained = sum(1 for r in results if r.get("nodes"))
    template = environment().get_template("simulation.html.j2")
    return template.render(
        title=title,
        document=document,
        summary=summary,
        pods=len(results),
        explained=explained,
        profiles=profiles,
        failures=failure_groups(results),
        warnings=document.get("warnings", []),
        configuration=_yaml(dict(configuration)) if configuration is not None else None,
        data={
            "results": results,
            "nodes": summary["nodes"],
        },
    )
