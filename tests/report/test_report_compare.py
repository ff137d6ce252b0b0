"""The comparison report in a real browser: metrics side by side with their differences,
the pods placed differently, and each configuration's view of the chosen nodes."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from kubesched.report import render_html

REPO = Path(__file__).parents[2]
SCHEMA = REPO / "docs" / "reference" / "schemas" / "comparison-result.schema.json"
SCREENSHOT = REPO / "docs" / "guide" / "img" / "report-compare.png"
HOSTILE = '<img src=x onerror="alert(1)">'
DASH = "\u2013"


def spread(mean: float, low: float, high: float) -> dict[str, float]:
    return {"mean": mean, "min": low, "max": high}


def metrics(scheduled: list[int], cpu: list[float], reasons: dict[str, int]) -> dict[str, Any]:
    per_seed = [
        {
            "seed": seed,
            "pods": 10,
            "scheduled": s,
            "unschedulable": 10 - s,
            "errors": 0,
            "preempted": 0,
            "otherSchedulers": 0,
            "unschedulableByReason": reasons,
            "utilisation": {"cpu": c},
            "fragmentation": {"cpu": round(1 - c, 6)},
            "simulatedSeconds": 0.0,
            "cycles": 10,
        }
        for seed, (s, c) in enumerate(zip(scheduled, cpu, strict=True))
    ]
    mean = sum(scheduled) / len(scheduled)
    cpu_mean = sum(cpu) / len(cpu)
    return {
        "perSeed": per_seed,
        "spread": {
            "scheduled": spread(mean, min(scheduled), max(scheduled)),
            "unschedulable": spread(10 - mean, 10 - max(scheduled), 10 - min(scheduled)),
            "errors": spread(0, 0, 0),
            "preempted": spread(0, 0, 0),
            "unschedulableByReason": {k: spread(v, v, v) for k, v in reasons.items()},
            "utilisation": {"cpu": spread(cpu_mean, min(cpu), max(cpu))},
            "fragmentation": {"cpu": spread(1 - cpu_mean, 1 - max(cpu), 1 - min(cpu))},
        },
    }


def placement(node: str | None) -> dict[str, Any]:
    if node is None:
        return {
            "status": "Unschedulable",
            "node": None,
            "message": "0/2 nodes are available: 2 Insufficient cpu.",
        }
    return {"status": "Scheduled", "node": node, "message": ""}


def seen(total: int | None, fit: int, rejected: bool = False) -> dict[str, Any]:
    if rejected:
        return {"evaluated": True, "filter": {"code": "Unschedulable", "plugin": "NodeResourcesFit",
                "reasons": ["Insufficient cpu"]}, "scores": {}, "total": None}  # fmt: skip
    return {"evaluated": True, "filter": None, "total": total, "scores": {
        "NodeResourcesFit": {"normalized": fit, "weighted": fit},
        "TaintToleration": {"normalized": 100, "weighted": 300}}}  # fmt: skip


def comparison_document() -> dict[str, Any]:
    odd = f"ns/{HOSTILE}"
    least = {"default/web": placement("n1"), odd: placement("n2")}
    most = {"default/web": placement("n2"), odd: placement(None)}
    configs = [
        {
            "name": "least-allocated",
            "source": "least.yaml",
            "hash": "0123456789abcdef",
            "metrics": metrics([8, 8], [0.6, 0.6], {"Insufficient cpu": 2}),
            "placements": [{"seed": 0, "pods": least}],
        },
        {
            "name": "most-allocated",
            "source": "most.yaml",
            "hash": "fedcba9876543210",
            "metrics": metrics([9, 10], [0.7, 0.75], {}),
            "placements": [{"seed": 0, "pods": most}],
        },
    ]
    differences = [
        {
            "pod": "default/web",
            "kind": "placedDifferently",
            "placements": {"least-allocated": placement("n1"), "most-allocated": placement("n2")},
            "explanations": {
                "least-allocated": {"n1": seen(371, 71), "n2": seen(329, 29)},
                "most-allocated": {"n1": seen(329, 29), "n2": seen(371, 71)},
            },
        },
        {
            "pod": f"ns/{HOSTILE}",
            "kind": "placedBySome",
            "placements": {"least-allocated": placement("n2"), "most-allocated": placement(None)},
            "explanations": {
                "least-allocated": {"n2": seen(350, 50)},
                "most-allocated": {"n2": seen(None, 0, rejected=True)},
            },
        },
    ]
    return {
        "apiVersion": "kubesched.io/v1alpha1",
        "kind": "ComparisonResult",
        "input": {
            "kind": "cluster",
            "path": "examples/quickstart",
            "name": "quickstart",
            "hash": "00112233445566ff",
        },
        "seeds": [0, 1],
        "explainedSeed": 0,
        "configs": configs,
        "differences": differences,
    }


@pytest.mark.skipif(not SCHEMA.exists(), reason="the ComparisonResult schema comes with compare")
def test_the_test_document_is_a_valid_comparison_result() -> None:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    Draft202012Validator(schema).validate(comparison_document())


METRIC_ROW = """
name => [...document.querySelector(`tr[data-metric="${name}"]`).cells].map(c => c.innerText.trim())
"""


def test_metrics_differences_and_views_match_the_document(
    page: Any, tmp_path: Path, open_row: Callable[[Any, str, str], None]
) -> None:
    document = comparison_document()
    path = tmp_path / "compare.html"
    path.write_text(render_html(document), encoding="utf-8")
    page.goto(path.as_uri())
    page.wait_for_selector("#difference-table .tabulator-row")

    scheduled = page.evaluate(METRIC_ROW, "scheduled.scheduled")
    assert scheduled[0] == "scheduled"
    assert scheduled[1].split() == ["8", "8", DASH, "8"]  # mean, then the range over seeds
    assert scheduled[2].split() == ["9.5", "+1.5", "9", DASH, "10"]
    cpu = page.evaluate(METRIC_ROW, "utilisation.cpu")
    assert cpu[2].split()[:3] == ["72.5%", "+12.5", "pp"]
    assert page.get_attribute('tr[data-metric="utilisation.cpu"] .delta', "class") == "delta better"
    assert page.get_attribute('tr[data-metric="unschedulable.unschedulable"] .delta', "class") == (
        "delta better"  # fewer unschedulable pods
    )
    assert page.get_attribute('tr[data-metric="fragmentation.cpu"] .delta', "class") == (
        "delta better"  # less fragmented
    )

    page.check("#only-differing")
    assert not page.is_visible('tr[data-metric="errors.errors"]')
    assert page.is_visible('tr[data-metric="scheduled.scheduled"]')

    cells = page.eval_on_selector_all(
        "#difference-table .tabulator-row",
        "rows => rows.map(r => [...r.querySelectorAll('.tabulator-cell')].map(c => c.textContent))",
    )
    assert cells == [
        ["default/web", "placed differently", "n1", "n2"],
        [f"ns/{HOSTILE}", "placed by some", "n2", "Unschedulable"],
    ]
    page.fill("#pod-search", "web")
    page.wait_for_function("document.getElementById('pod-count').textContent === '1 of 2 pods'")
    open_row(page, "#difference-table .tabulator-row >> nth=0", "#difference-detail .view")
    for config, nodes in document["differences"][0]["explanations"].items():
        for node, entry in nodes.items():
            row = f'#difference-detail .view[data-config="{config}"] tr[data-node="{node}"]'
            assert page.text_content(f"{row} .total") == str(entry["total"])
            for plugin, score in entry["scores"].items():
                shown = page.text_content(f'{row} .score[data-plugin="{plugin}"] .weighted')
                assert shown == str(score["weighted"])
        chosen = document["differences"][0]["placements"][config]["node"]
        assert (
            page.get_attribute(
                f'#difference-detail .view[data-config="{config}"] tr.chosen', "data-node"
            )
            == chosen
        )
    assert page.evaluate("document.querySelectorAll('img').length") == 0

    page.mouse.move(0, 0)
    shot = tmp_path / "compare.png"
    page.screenshot(path=str(shot), full_page=True)
    if os.environ.get("KUBESCHED_UPDATE_SCREENSHOTS") == "1":
        SCREENSHOT.write_bytes(shot.read_bytes())


def replay_metrics(latency: float, cpu: float) -> dict[str, Any]:
    values = {
        "events": 7, "simulated_seconds": 36000.0, "created": 16, "bound": 12,
        "latency_p99": latency, "pending_at_end": 4, "utilisation_mean.cpu": cpu,
        "state.Running": 8,
    }  # fmt: skip
    return {
        "perSeed": [{"seed": 1, "replay": values}],
        "spread": {"replay": {k: spread(v, v, v) for k, v in values.items()}},
    }


def series(pending: list[int]) -> list[dict[str, Any]]:
    return [
        {"time": 600.0 * i, "running": 8, "pending": p, "cpu_allocation": 0.1 * i,
         "latency_p99": None if i == 0 else 30.0 * i}
        for i, p in enumerate(pending)
    ]  # fmt: skip


def scenario_comparison() -> dict[str, Any]:
    ended = {"status": "Finished", "node": "worker-a2", "message": ""}
    waiting = {"status": "Pending", "node": None, "message": ""}
    configs = [
        {"name": "spread", "source": "spread.yaml", "hash": "0123456789abcdef",
         "metrics": replay_metrics(0.0, 0.546), "placements": [{"seed": 1, "pods": {}}],
         "series": series([0, 2, 4, 4])},
        {"name": "pack", "source": "pack.yaml", "hash": "fedcba9876543210",
         "metrics": replay_metrics(3600.0, 0.528), "placements": [{"seed": 1, "pods": {}}],
         "series": series([0, 1, 3, 4, 4])},
    ]  # fmt: skip
    return {
        "apiVersion": "kubesched.io/v1alpha1",
        "kind": "ComparisonResult",
        "input": {
            "kind": "scenario",
            "path": "day.yaml",
            "name": "day",
            "hash": "00112233445566ff",
        },
        "seeds": [1],
        "explainedSeed": 1,
        "configs": configs,
        "differences": [
            {
                "pod": "shop/checkout",
                "kind": "placedBySome",
                "placements": {"spread": ended, "pack": waiting},
                "explanations": {},
            },
        ],
    }


@pytest.mark.skipif(not SCHEMA.exists(), reason="the ComparisonResult schema comes with compare")
def test_the_scenario_test_document_is_a_valid_comparison_result() -> None:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    Draft202012Validator(schema).validate(scenario_comparison())


def test_a_comparison_of_replays_shows_their_metrics_and_series(
    page: Any, tmp_path: Path, open_row: Callable[[Any, str, str], None]
) -> None:
    path = tmp_path / "compare-replays.html"
    path.write_text(render_html(scenario_comparison()), encoding="utf-8")
    page.goto(path.as_uri())
    page.wait_for_selector("#difference-table .tabulator-row")
    latency = page.evaluate(METRIC_ROW, "replay.latency_p99")
    assert latency[0] == "latency_p99"
    assert latency[2].split() == ["3600", "+3600"]
    assert page.get_attribute('tr[data-metric="replay.latency_p99"] .delta', "class") == (
        "delta worse"
    )
    assert page.evaluate(METRIC_ROW, "replay.utilisation_mean.cpu")[2].split() == [
        "52.8%", "-1.8", "pp",
    ]  # fmt: skip
    assert page.get_attribute('tr[data-metric="replay.events"] .delta', "class") == "delta same"
    charts = ["chart-cpu_allocation", "chart-pending", "chart-running", "chart-latency_p99"]
    for chart in charts:
        assert page.evaluate(LEGENDS, chart) == ["time", "spread", "pack"]
    cells = page.eval_on_selector_all(
        "#difference-table .tabulator-row .tabulator-cell",
        "cells => cells.map(c => c.textContent)",
    )
    assert cells == ["shop/checkout", "placed by some", "worker-a2", "Pending"]
    open_row(page, "#difference-table .tabulator-row >> nth=0", "#difference-detail .view")
    assert "replays do not record one" in page.text_content("#difference-detail")


LEGENDS = """
id => [...document.querySelectorAll(`#${id} .u-legend .u-label`)].map(l => l.textContent)
"""


@pytest.mark.parametrize("on", ["quickstart", "compare/day.yaml"])
def test_compare_html_of_a_real_comparison(
    page: Any,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    on: str,
    open_row: Callable[[Any, str, str], None],
) -> None:
    from kubesched.cli.main import main

    monkeypatch.chdir(REPO)  # the page shows the paths as given: relative ones, as a user's
    html = tmp_path / "compare.html"
    configs = ["examples/compare/spread.yaml", "examples/compare/pack.yaml"]
    argv = ["compare", *configs, "--on", f"examples/{on}", "--seeds", "1-2", "-o", "json"]
    try:
        main([*argv, "--html", str(html)])
    except SystemExit as exc:
        assert exc.code in (0, None)
    document = json.loads(capsys.readouterr().out)
    assert document["differences"]  # the example configs do place pods differently
    page.goto(html.as_uri())
    page.wait_for_selector("#difference-table .tabulator-row")
    shown = page.eval_on_selector_all(
        "#difference-table .tabulator-row [tabulator-field=pod]", "cs => cs.map(c => c.textContent)"
    )
    assert shown == [d["pod"] for d in document["differences"]][: len(shown)]
    first = document["differences"][0]
    cells = page.eval_on_selector_all(
        "#difference-table .tabulator-row >> nth=0 >> .tabulator-cell",
        "cs => cs.map(c => c.textContent)",
    )
    names = [c["name"] for c in document["configs"]]
    expected = [
        (p["node"] or p["status"]) if p else "not served"
        for p in (first["placements"][n] for n in names)
    ]
    assert cells[2:] == expected
    open_row(page, "#difference-table .tabulator-row >> nth=0", "#difference-detail .view")
    for name in names:
        for node, entry in first["explanations"].get(name, {}).items():
            if entry["evaluated"] and entry["total"] is not None:
                row = f'#difference-detail .view[data-config="{name}"] tr[data-node="{node}"]'
                assert page.text_content(f"{row} .total") == str(entry["total"])
    if "series" in document["configs"][0]:
        assert page.locator("#compare-charts .uplot").count() >= 3
    page.mouse.move(0, 0)
    shot = tmp_path / "compare.png"
    page.screenshot(path=str(shot), full_page=True)
    if on == "quickstart" and os.environ.get("KUBESCHED_UPDATE_SCREENSHOTS") == "1":
        SCREENSHOT.write_bytes(shot.read_bytes())
