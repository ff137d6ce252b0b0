"""The configuration reference page is generated from the models and must not drift."""

from __future__ import annotations

from pathlib import Path

import attrs

from kubesched.config import KubeSchedulerConfiguration, Plugins
from kubesched.config.converter import json_name
from kubesched.config.reference import render_markdown

PAGE = Path(__file__).parents[3] / "docs" / "reference" / "configuration.md"


def test_reference_page_is_up_to_date() -> None:
    assert PAGE.read_text(encoding="utf-8") == render_markdown(), (
        "docs/reference/configuration.md is stale; regenerate it with "
        "`uv run python -m kubesched.config.reference > docs/reference/configuration.md`"
    )


def test_every_field_is_documented() -> None:
    page = render_markdown()
    for cls in (KubeSchedulerConfiguration, Plugins):
        for attribute in attrs.fields(cls):
            assert attribute.metadata.get("doc"), f"{cls.__name__}.{attribute.name} has no doc"
            assert f"| `{json_name(attribute)}` |" in page
