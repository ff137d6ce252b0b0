"""The report's static files (scripts, styles, vendored libraries), read for inlining."""

from __future__ import annotations

import re
from functools import cache
from importlib import resources

_CLOSES_SCRIPT = re.compile(r"</script|<!--", re.IGNORECASE)
_CLOSES_STYLE = re.compile(r"</style", re.IGNORECASE)


@cache
def asset(name: str) -> str:
    """The text of `static/<name>` (e.g. `vendor/uplot/uPlot.iife.min.js`)."""
    return (
        resources.files("kubesched.report")
        .joinpath("static", *name.split("/"))
        .read_text(encoding="utf-8")
    )


def inline_script(name: str) -> str:
    """A script's text for an inline `<script>`; ValueError if it could end the element."""
    text = asset(name)
    if _CLOSES_SCRIPT.search(text):
        raise ValueError(f"static/{name} contains '</script' or '<!--' and cannot be inlined")
    return text


def inline_style(name: str) -> str:
    """A stylesheet's text for an inline `<style>`; ValueError if it could end the element."""
    text = asset(name)
    if _CLOSES_STYLE.search(text):
        raise ValueError(f"static/{name} contains '</style' and cannot be inlined")
    return text
