"""Reject answers that would generate a broken plugin, with one clear line on stderr.

Cookiecutter renders this script with the answers, then runs it before
writing any file; a non-zero exit stops the generation.
"""

from __future__ import annotations

import json
import keyword
import re
import sys
from typing import Any

ANSWERS: dict[str, Any] = json.loads(r"""{{ cookiecutter | jsonify }}""")
PLUGIN_NAME: str = ANSWERS["plugin_name"]
PROJECT_SLUG: str = ANSWERS["project_slug"]
MODULE_NAME: str = ANSWERS["module_name"]
EXTENSION_POINTS: str = ANSWERS["extension_points"]
CHOICES: list[str] = ANSWERS["_extension_point_choices"]

CAMEL_CASE = re.compile(r"[A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*")
RESERVED = frozenset(
    {
        "Any",
        "Code",
        "CycleState",
        "Handle",
        "Mapping",
        "NodeInfo",
        "NodeScoreList",
        "Pod",
        "PodInfo",
        "PluginHarness",
        "PreFilterResult",
        "QueuedPodInfo",
        "Registry",
        "Reservation",
        "Sequence",
        "Simulate",
        "Status",
    }
)
"""Names the generated modules import or define; the plugin class must not shadow them."""
DISTRIBUTION_NAME = re.compile(r"[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?")


def problem() -> str | None:
    """The first thing wrong with the answers, or None."""
    if not CAMEL_CASE.fullmatch(PLUGIN_NAME):
        return (
            f"plugin_name {PLUGIN_NAME!r} is not a CamelCase identifier: a capital letter, "
            "then letters and digits, at least one of them lower-case (like NodeLabelScore)"
        )
    if keyword.iskeyword(PLUGIN_NAME) or PLUGIN_NAME in RESERVED:
        return f"plugin_name {PLUGIN_NAME!r} is taken by Python or the generated code"
    if not DISTRIBUTION_NAME.fullmatch(PROJECT_SLUG):
        return (
            f"project_slug {PROJECT_SLUG!r} is not a valid distribution name: letters, digits, "
            "'-', '_' and '.', starting and ending with a letter or digit"
        )
    if not MODULE_NAME.isidentifier() or keyword.iskeyword(MODULE_NAME):
        return f"module_name {MODULE_NAME!r} is not a valid Python package name"
    points = [p.strip() for p in EXTENSION_POINTS.split(",")]
    unknown = [p for p in points if p not in CHOICES]
    if unknown:
        return (
            f"unknown extension point {unknown[0]!r} in {EXTENSION_POINTS!r}; "
            f"choose one or more of: {', '.join(CHOICES)}"
        )
    return None


if __name__ == "__main__":
    message = problem()
    if message is not None:
        print(f"error: {message}", file=sys.stderr)
        sys.exit(1)
