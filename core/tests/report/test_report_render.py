"""The rendered page: self-contained, its data intact, and no document text read as markup."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from typing import Any

import pytest

from kubesched.report import render_html
from kubesched.report._assets import inline_script, inline_style

OUR_TAGS = {
    "html", "head", "meta", "title", "style", "body", "header", "div", "h1", "h2", "nav", "a",
    "main", "section", "span", "p", "code", "details", "summary", "ul", "li", "table", "thead",
    "tbody", "tr", "th", "td", "button", "input", "select", "option", "canvas", "pre",
    "footer", "script",
}  # fmt: skip


class Tags(HTMLParser):
    """Every start tag and attribute of a page, and the text of each script element."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.scripts: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        self._in_script = tag == "script"
        if self._in_script:
            self.scripts.append("")

    def handle_endtag(self, tag: str) -> None:
        self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script:
            self.scripts[-1] += data


def parse(html: str) -> Tags:
    tags = Tags()
    tags.feed(html)
    tags.close()
    return tags


def test_document_text_never_becomes_markup(hostile_document: dict[str, Any]) -> None:
    html = render_html(hostile_document, configuration={"profiles": ["<script>cfg</script>"]})
    page = parse(html)
    assert {tag for tag, _ in page.tags} <= OUR_TAGS
    assert [tag for tag, _ in page.tags].count("script") == 4  # data + three scripts
    handlers = [(t, a) for t, attrs in page.tags for a in attrs if a.startswith("on")]
    assert handlers == []
    assert "&lt;script&gt;alert(&#34;pod&#34;)&lt;/script&gt;&#39;quoted&#39;" in html
    assert "&lt;script&gt;cfg&lt;/script&gt;" in html
    assert "<script>alert" not in html and "<img" not in html and "<b>cpu" not in html


def test_the_data_block_carries_the_document_exactly(hostile_document: dict[str, Any]) -> None:
    page = parse(render_html(hostile_document))
    data = json.loads(page.scripts[0])
    assert data["results"] == hostile_document["results"]
    assert data["nodes"] == hostile_document["summary"]["nodes"]
    assert "\u2028" not in page.scripts[0]


def test_the_page_loads_nothing_from_elsewhere(hostile_document: dict[str, Any]) -> None:
    page = parse(render_html(hostile_document))
    for tag, attrs in page.tags:
        assert "src" not in attrs, tag
        if tag == "a":
            assert str(attrs["href"]).startswith("#")
    assert not [a for t, a in page.tags if t == "link"]


def test_summary_and_failures_are_rendered(hostile_document: dict[str, Any]) -> None:
    html = render_html(hostile_document, title="nightly run")
    assert "<title>nightly run</title>" in html
    assert 'data-field="scheduled">1<' in html
    assert 'data-field="unschedulable">1<' in html
    assert "Insufficient &lt;b&gt;cpu&lt;/b&gt; &amp;" in html
    assert "default/plain" in html


@pytest.mark.parametrize(
    "name",
    [
        "vendor/tabulator/tabulator.min.js",
        "vendor/uplot/uPlot.iife.min.js",
        "common.js",
        "charts.js",
        "simulation.js",
        "replay.js",
        "comparison.js",
    ],
)
def test_every_script_can_be_inlined(name: str) -> None:
    assert inline_script(name)


@pytest.mark.parametrize(
    "name",
    ["vendor/tabulator/tabulator_simple.min.css", "vendor/uplot/uPlot.min.css", "report.css"],
)
def test_every_style_can_be_inlined(name: str) -> None:
    assert inline_style(name)


def test_an_unsupported_document_is_refused_before_rendering() -> None:
    from kubesched.errors import InputError

    with pytest.raises(InputError, match=r"kind is 'Sweep'; supported: SimulationResult"):
        render_html({"apiVersion": "kubesched.io/v1alpha1", "kind": "Sweep"})
