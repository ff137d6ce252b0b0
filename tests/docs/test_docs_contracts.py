"""Pages that describe a contract of the code name every part of it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kubesched.cli.plugins import describe_plugins
from kubesched.framework import EXTENSION_POINTS, HOOKS
from kubesched.framework._points import POINTS
from kubesched.framework._registry import IN_TREE_DISTRIBUTIONS, Registry

DOCS = Path(__file__).resolve().parents[2] / "docs"


def read(page: str) -> str:
    return (DOCS / page).read_text(encoding="utf-8")


def mermaid_blocks(text: str) -> list[str]:
    return re.findall(r"^```mermaid\n(.*?)^```", text, flags=re.S | re.M)


def test_pipeline_diagram_shows_every_extension_point() -> None:
    (diagram,) = mermaid_blocks(read("concepts/pipeline.md"))
    missing = [
        title
        for title in (p.title for p in EXTENSION_POINTS)
        if not re.search(rf"\b{title}\b", diagram)
    ]
    assert missing == []


@pytest.mark.parametrize("hook", HOOKS)
def test_extension_points_page_covers_every_hook(hook: str) -> None:
    assert f"`{hook}" in read("concepts/extension-points.md")


@pytest.mark.parametrize("point", [p.name for p in EXTENSION_POINTS])
def test_extension_points_table_names_every_config_point_and_its_hooks(point: str) -> None:
    row = next(
        line
        for line in read("concepts/extension-points.md").splitlines()
        if line.startswith(f"| `{point}` |")
    )
    hooks = re.findall(r"`([a-z_]+)`", row.split("|")[2])
    assert hooks == list(POINTS[point].hooks)


def test_json_output_page_documents_every_plugins_field() -> None:
    registry = Registry.discover({"KUBESCHED_LOAD_PLUGINS": ""})
    emitted = set(describe_plugins(registry)[0])
    documented = set(
        re.findall(r"^\| `plugins\[\]\.(\w+)` \|", read("reference/json-output.md"), re.M)
    )
    assert documented == emitted


def test_plugins_index_lists_every_in_tree_plugin_with_its_page_and_points() -> None:
    rows = {
        cells[0]: cells
        for line in read("plugins/index.md").splitlines()
        if line.startswith("| [")
        for cells in [[c.strip() for c in line.strip("|").split("|")]]
    }
    registry = Registry.discover({"KUBESCHED_LOAD_PLUGINS": ""})
    in_tree = [r for r in describe_plugins(registry) if r["source"] == "in-tree"]
    assert {r["distribution"] for r in in_tree} == IN_TREE_DISTRIBUTIONS
    for record in in_tree:
        slug = record["distribution"].removeprefix("kubesched-")
        distribution, points = rows[f"[{record['name']}]({slug}.md)"][1:3]
        assert distribution == f"`{record['distribution']}`"
        shown = [p.strip() for p in points.split(",")]
        assert shown == [p for p in record["extensionPoints"] if p != "EnqueueExtensions"]


def test_every_page_says_simulate_calls_the_configured_extenders() -> None:
    """`simulate` builds the configuration's extenders (tests/extenders run it against real
    HTTP servers); no page may say otherwise, and the simulate guide's list of differences
    from a live kube-scheduler sends readers to the extenders guide."""
    pages = [*DOCS.rglob("*.md"), DOCS.parent / "README.md"]
    denying = [p.name for p in pages if "no extenders" in p.read_text(encoding="utf-8").lower()]
    assert denying == []
    differences = read("guide/simulate.md").split("Where this differs from a live")[1]
    assert "are called, as kube-scheduler calls them ([HTTP\n  extenders](extenders.md))" in (
        differences
    )
