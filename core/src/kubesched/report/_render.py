"""Rendering: a Jinja2 environment over the package's templates, one template per kind.

Autoescaping is on for every template, so any text from a document placed in
the markup is escaped; the data the page's scripts read travels as JSON in a
`<script type="application/json">` block, escaped by `script_json`.
"""

from __future__ import annotations

from typing import Any

import yaml
from jinja2 import Environment, PackageLoader, StrictUndefined
from markupsafe import Markup

from kubesched.report._assets import inline_script, inline_style
from kubesched.report._escape import script_json

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


def as_yaml(value: Any) -> str:
    """A mapping as YAML text, in its own order, for a `<pre>` block."""
    return yaml.safe_dump(value, sort_keys=False, allow_unicode=True, width=100)


def render(template: str, **context: Any) -> str:
    """The page `template` (under templates/) renders with `context`."""
    return environment().get_template(template).render(**context)
