"""The simulate report in a real browser: search a pod, open its explanation, and check
what the page shows against the JSON it was rendered from."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from kubesched.cli.main import main
from kubesched.report import render_html

ROOT = Path(__file__).parents[2]
EXAMPLES = ROOT / "examples"
SCREENSHOT = ROOT / "docs" / "guide" / "img" / "report-simulate.png"
UPDATE_SCREENSHOTS = "KUBESCHED_UPDATE_SCREENSHOTS"
"""Set to 1 to copy the screenshot this test takes into the docs."""

HOSTILE_POD = "default/<script>alert(\"pod\")</script>'quoted'"
HOSTILE_NODE = 'node-<img src=x onerror="alert(1)">'


def simulate(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, cluster: Path
) -> tuple[dict[str, Any], Path]:
    """Run `kubesched simulate --explain -o json --html` and return the document and page."""
    page = tmp_path / "report.html"
    try:
        main(["simulate", str(cluster), "--explain", "-o", "json", "--html", str(page)])
    except SystemExit as exc:
        assert exc.code in (0, None)
    document: dict[str, Any] = json.loads(capsys.readouterr().out)
    return document, page


def open_report(page: Any, path: Path) -> None:
    page.goto(path.as_uri())
    page.wait_for_selector("#pod-table .tabulator-row")


def search(page: Any, text: str, expect_rows: int, total: int) -> None:
    page.fill("#pod-search", text)
    page.wait_for_function(
        "([n, t]) => document.getElementById('pod-count').textContent === `${n} of ${t} pods`",
        arg=[expect_rows, total],
    )


EXPLAIN_ROWS = """
() => {
  const table = document.querySelector('#explain-table');
  const titles = {};
  table.querySelectorAll('.tabulator-col').forEach(c => {
    titles[c.getAttribute('tabulator-field')] = c.querySelector('.tabulator-col-title').textContent;
  });
  return [...table.querySelectorAll('.tabulator-row')].map(row => {
    const cell = f => row.querySelector(`[tabulator-field="${f}"]`);
    const text = f => cell(f).textContent.replace(/\u00a0/g, '');  // an empty cell holds &nbsp;
    const scores = {};
    Object.keys(titles).filter(f => /^s\\d+$/.test(f)).forEach(f => {
      const w = cell(f).querySelector('.weighted');
      if (w) scores[titles[f]] = {
        weighted: Number(w.textContent),
        normalized: Number(cell(f).querySelector('.normalized').textContent.replace(/[()]/g, '')),
      };
    });
    return {
      node: text('node'), code: text('code'), plugin: text('plugin'), reasons: text('reasons'),
      total: text('total'), scores: scores,
      chosen: row.classList.contains('chosen'),
    };
  });
}
"""


def test_search_a_pod_and_its_explanation_matches_the_json(
    page: Any,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    open_row: Callable[[Any, str, str], None],
) -> None:
    document, path = simulate(capsys, tmp_path, EXAMPLES / "quickstart")
    result = next(r for r in document["results"] if r["pod"] == "shop/web-1")
    open_report(page, path)
    total = len(document["results"])
    search(page, "web-1", 1, total)
    open_row(page, "#pod-table .tabulator-row >> nth=0", "#explain-table .tabulator-row")
    assert page.get_attribute("#pod-detail", "data-pod") == "shop/web-1"
    assert page.text_content("#pod-detail .chosen-node") == result["node"]

    rows = page.evaluate(EXPLAIN_ROWS)
    grouped = [row for row in rows if row["node"] not in result["nodes"]]
    rows = [row for row in rows if row["node"] in result["nodes"]]
    assert {row["node"] for row in rows} == set(result["nodes"])
    assert [(row["node"], row["plugin"], row["reasons"]) for row in grouped] == [
        (
            f"{g['count']} other node(s): {', '.join(g['examples'])}",
            g["filter"]["plugin"],
            "; ".join(g["filter"]["reasons"]),
        )
        for g in result["nodesNotShown"]
    ]
    assert grouped  # the two tainted nodes
    assert page.text_content("#pod-detail .request") == "pods 1, cpu 500m, memory 512 MiB"
    for row in rows:
        entry = result["nodes"][row["node"]]
        assert row["code"] == entry["filter"]["code"]
        assert row["plugin"] == (entry["filter"]["plugin"] or "")
        assert row["reasons"] == "; ".join(entry["filter"]["reasons"])
        assert row["total"] == ("" if entry["total"] is None else str(entry["total"]))
        assert row["scores"] == entry["scores"]
        assert row["chosen"] == (row["node"] == result["node"])
    scored = [row for row in rows if row["total"]]
    assert len(scored) >= 2  # the test means something: several nodes were scored
    assert rows[0]["node"] == result["node"]  # sorted by total, the winner first

    page.mouse.move(0, 0)  # no row highlighted by the pointer
    page.locator("#pods").scroll_into_view_if_needed()
    shot = tmp_path / "report-simulate.png"
    page.locator("#pods").screenshot(path=str(shot))
    assert shot.read_bytes().startswith(b"\x89PNG")
    if os.environ.get(UPDATE_SCREENSHOTS) == "1":
        SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(shot, SCREENSHOT)
        page.screenshot(path=str(SCREENSHOT.with_name("report-simulate-page.png")), full_page=True)


def test_summary_failures_and_node_bars_match_the_json(
    page: Any, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    document, path = simulate(capsys, tmp_path, EXAMPLES / "quickstart")
    open_report(page, path)
    summary = document["summary"]
    for field in ("scheduled", "unschedulable", "errors", "preempted"):
        assert page.text_content(f'[data-field="{field}"]') == str(summary[field])

    failed = [r for r in document["results"] if r["status"] == "Unschedulable"]
    page.click("text=Insufficient cpu")
    with_cpu = [r for r in failed if "Insufficient cpu" in r["message"]]
    page.wait_for_function(
        "n => document.getElementById('pod-count').textContent.startsWith(n + ' of ')",
        arg=len(with_cpu),
    )
    shown = page.eval_on_selector_all(
        "#pod-table .tabulator-row [tabulator-field=pod]", "cells => cells.map(c => c.textContent)"
    )
    assert shown == [r["pod"] for r in with_cpu]

    bars = page.eval_on_selector_all(
        "#node-table .tabulator-row",
        """rows => rows.map(r => [
            r.querySelector('[tabulator-field=name]').textContent,
            r.querySelector('[tabulator-field=cpu] .bar').getAttribute('title'),
            r.querySelector('[tabulator-field=pods] .bar').getAttribute('title')])""",
    )
    assert [name for name, _, _ in bars] == [n["name"] for n in summary["nodes"]]
    for (_, cpu, pods), node in zip(bars, summary["nodes"], strict=True):
        share = node["cpu"]["requestedMillicores"] / node["cpu"]["allocatableMillicores"]
        assert cpu.endswith(f"({round(100 * share)}%)")
        assert pods == (
            f"{node['pods']['count']} / {node['pods']['allocatable']} "
            f"({round(100 * node['pods']['count'] / node['pods']['allocatable'])}%)"
        )


def test_preemption_candidates_and_victims_are_shown(
    page: Any, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    document, path = simulate(capsys, tmp_path, EXAMPLES / "preemption")
    result = next(r for r in document["results"] if r.get("preemption"))
    page.goto(f"{path.as_uri()}#pod={result['pod']}")
    page.wait_for_selector("#pod-detail .candidates")
    assert page.text_content("#pod-detail .preemption-chosen") == result["preemption"]["chosen"]
    rows = page.eval_on_selector_all(
        "#pod-detail .candidates tbody tr",
        "rows => rows.map(r => [...r.cells].map(c => c.textContent).concat([r.className]))",
    )
    assert rows == [
        [c["node"], ", ".join(c["victims"]), str(c["pdbViolations"]),
         "chosen" if c["node"] == result["preemption"]["chosen"] else ""]
        for c in result["preemption"]["candidates"]
    ]  # fmt: skip
    assert page.text_content("#pod-detail .victims") == ", ".join(result["victims"])


def test_names_with_markup_show_as_text_and_run_nothing(
    page: Any, tmp_path: Path, open_row: Callable[[Any, str, str], None]
) -> None:
    nodes = {
        HOSTILE_NODE: {
            "filter": {"code": "Success", "plugin": None, "reasons": []},
            "scores": {"<b>Plugin</b>": {"normalized": 50, "weighted": 100}},
            "total": 100,
            "extenders": {},
        },
        "plain": {
            "filter": {"code": "Unschedulable", "plugin": "P", "reasons": ["<b>bold</b> & co"]},
            "scores": {},
            "total": None,
            "extenders": {},
        },
    }
    node = {
        "name": HOSTILE_NODE,
        "cpu": {"requestedMillicores": 100, "allocatableMillicores": 1000},
        "memory": {"requestedBytes": 0, "allocatableBytes": 1},
        "pods": {"count": 1, "allocatable": 10},
        "extendedResources": {"<i>gpu</i>": {"requested": 1, "allocatable": 1}},
    }
    result = {
        "pod": HOSTILE_POD, "profile": "<u>p</u>", "node": HOSTILE_NODE, "status": "Scheduled",
        "message": "", "attempts": 1, "nominatedNode": None, "victims": ["x/</script>"],
        "preemptedBy": None, "stoppedTrying": None, "volumes": {}, "nodes": nodes,
        "preemption": None,
    }  # fmt: skip
    summary = {
        "scheduled": 1, "unschedulable": 0, "errors": 0, "preempted": 0, "deleted": 0,
        "otherSchedulers": 0, "simulatedSeconds": 0.0, "nodes": [node],
    }  # fmt: skip
    document = {
        "apiVersion": "kubesched.io/v1alpha1",
        "kind": "SimulationResult",
        "results": [result],
        "summary": summary,
        "warnings": ["<script>alert('warning')</script>"],
    }
    path = tmp_path / "hostile.html"
    path.write_text(render_html(document), encoding="utf-8")
    open_report(page, path)
    search(page, "<script>", 1, 1)
    open_row(page, "#pod-table .tabulator-row >> nth=0", "#explain-table .tabulator-row")
    assert page.text_content("#pod-table .tabulator-row [tabulator-field=pod]") == HOSTILE_POD
    assert page.text_content("#explain-table .tabulator-row [tabulator-field=node]") == HOSTILE_NODE
    assert page.text_content("#node-table .tabulator-row [tabulator-field=name]") == HOSTILE_NODE
    assert page.text_content("#pod-detail .victims") == "x/</script>"
    page.hover("#explain-table .tabulator-row >> nth=1 >> [tabulator-field=reasons]")
    page.wait_for_selector(".tabulator-tooltip")
    assert page.text_content(".tabulator-tooltip") == "<b>bold</b> & co"
    assert page.evaluate("document.querySelectorAll('img, b, i, u').length") == 0
    assert page.evaluate("document.scripts.length") == 4
