"""The replay report in a real browser: the series as charts, the pods' timeline, checked
against the document (a ReplayResult as `kubesched replay --output json` writes it)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
import yaml
from jsonschema import Draft202012Validator

from kubesched.cli.main import main
from kubesched.report import render_html

REPO = Path(__file__).parents[2]
SCHEMA = REPO / "docs" / "reference" / "schemas" / "replay-result.schema.json"
SCREENSHOT = REPO / "docs" / "guide" / "img" / "report-replay.png"
HOSTILE_REASON = '<img src=x onerror="alert(1)">'
SPAN = 3600.0
STATES = ("Running", "Finished", "Pending", "Preempted", "Deleted")


def pod_record(i: int) -> dict[str, Any]:
    created = float(i * 10)
    state = STATES[i % len(STATES)]
    bound = None if state == "Pending" else created + (i % 7) * 3.0
    left = created + 600.0 if state in ("Finished", "Preempted", "Deleted") else None
    return {
        "pod": f"day/job-{i}",
        "created": created,
        "bound": bound,
        "node": None if bound is None else f"node-{i % 8}",
        "latency": None if bound is None else bound - created,
        "attempts": 1 + i % 3,
        "state": state,
        "left": left,
        "preempted_by": "day/urgent-1" if state == "Preempted" else None,
        "duration": 600.0 if left is not None else None,
    }


def sample(t: float) -> dict[str, Any]:
    k = t / SPAN
    return {
        "time": t, "nodes": 8, "running": int(40 * k), "pending": int(10 * (1 - k)),
        "latency_p50": 1.5 + k, "latency_p90": 4.0 + 2 * k, "latency_p99": None if t == 0 else 9.0,
        "created": int(300 * k), "bound": int(280 * k), "finished": 0, "deleted": 0,
        "attempts": int(320 * k), "preemptions": 0, "evictions": 0, "dropped": 0,
        "cpu_allocated": int(32000 * k), "cpu_requested": int(36000 * k),
        "cpu_allocatable": 64000, "cpu_allocation": round(k / 2, 6),
        "cpu_request": round(36000 * k / 64000, 6),
        "memory_allocated": 0, "memory_requested": 0, "memory_allocatable": 1 << 37,
        "memory_allocation": round(k / 3, 6), "memory_request": round(k / 2.5, 6),
        "pending_NodeResourcesFit": int(6 * (1 - k)), "pending_Queued": int(4 * (1 - k)),
        f"pending_{HOSTILE_REASON}": 1,
    }  # fmt: skip


def replay_document() -> dict[str, Any]:
    pods = [pod_record(i) for i in range(300)]
    states: dict[str, int] = {}
    for p in pods:
        states[p["state"]] = states.get(p["state"], 0) + 1
    summary = {
        "events": 612, "simulatedSeconds": SPAN, "created": 300, "bound": 240,
        "finished": 60, "deleted": 60, "attempts": 410, "preemptions": 2, "evictions": 0,
        "dropped": 0, "latencyP50": 1.8, "latencyP90": 5.2, "latencyP99": 9.0,
        "states": states,
    }  # fmt: skip
    return {
        "apiVersion": "kubesched.io/v1alpha1",
        "kind": "ReplayResult",
        "scenario": "a day of <b>churn</b>",
        "seed": 7,
        "ties": "random",
        "dropUnschedulable": False,
        "sampleInterval": 72.0,
        "bindLatency": 0.0,
        "summary": summary,
        "observers": {"fragmentation": {"meanFreeGpuShare": 0.25, "note": "<i>x</i>"}},
        "series": [sample(t * 72.0) for t in range(51)],
        "pods": pods,
    }


LEGENDS = """
id => [...document.querySelectorAll(`#${id} .u-legend .u-label`)].map(l => l.textContent)
"""


def test_the_test_document_is_a_valid_replay_result() -> None:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    Draft202012Validator(schema).validate(replay_document())


def test_charts_and_timeline_match_the_document(page: Any, tmp_path: Path) -> None:
    document = replay_document()
    path = tmp_path / "replay.html"
    path.write_text(render_html(document), encoding="utf-8")
    page.goto(path.as_uri())
    page.wait_for_selector("#pod-table .tabulator-row")
    assert page.locator(".uplot").count() == 4
    assert page.evaluate(LEGENDS, "chart-utilisation") == [
        "time", "cpu allocated", "cpu requested", "memory allocated", "memory requested",
    ]  # fmt: skip
    assert page.evaluate(LEGENDS, "chart-pending") == [
        "time",
        "NodeResourcesFit",
        "Queued",
        HOSTILE_REASON,
    ]  # fmt: skip  (the document's column order)
    assert page.evaluate(LEGENDS, "chart-latency") == ["time", "p50", "p90", "p99"]
    for field in ("created", "bound", "attempts", "events"):
        assert page.text_content(f'[data-field="{field}"]') == str(document["summary"][field])

    page.fill("#pod-search", "job-299")
    page.wait_for_function("document.getElementById('pod-count').textContent === '1 of 300 pods'")
    record = document["pods"][299]
    segments = page.eval_on_selector_all(
        "#pod-table .tabulator-row .timeline span",
        "spans => spans.map(s => [s.className, parseFloat(s.style.left), "
        "parseFloat(s.style.width)])",
    )
    assert segments == [
        ["waiting", pytest.approx(100 * record["created"] / SPAN),
         pytest.approx(100 * (record["bound"] - record["created"]) / SPAN)],
        ["running", pytest.approx(100 * record["bound"] / SPAN),
         pytest.approx(100 * (record["left"] - record["bound"]) / SPAN)],
    ]  # fmt: skip
    assert page.text_content("#pod-table .tabulator-row [tabulator-field=state]") == record["state"]
    assert page.evaluate("document.querySelectorAll('img, b, i').length") == 0

    page.fill("#pod-search", "")
    page.wait_for_function("document.getElementById('pod-count').textContent === '300 pods'")


CLUSTER = "".join(
    f"""---
apiVersion: v1
kind: Node
metadata: {{name: node-{i}}}
status: {{allocatable: {{cpu: "8", memory: 32Gi, pods: "110"}}}}
"""
    for i in range(6)
)


def arrivals(count: int) -> list[dict[str, Any]]:
    """Pods arriving every 20 s, each running 10 to 30 minutes; the cluster fills up."""
    events = []
    for i in range(count):
        requests = {"cpu": f"{500 + 250 * (i % 5)}m", "memory": f"{1 + i % 4}Gi"}
        pod = {
            "metadata": {"name": f"job-{i}", "namespace": "batch"},
            "spec": {
                "containers": [{"name": "c", "image": "app", "resources": {"requests": requests}}]
            },
        }
        events.append(
            {"at": 20 * i, "kind": "PodCreated", "pod": pod, "duration": 600 + 60 * (i % 21)}
        )
    return events


def test_replay_html_of_a_real_run(
    page: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "cluster.yaml").write_text(CLUSTER)
    scenario = tmp_path / "day.yaml"
    scenario.write_text(
        yaml.safe_dump(
            {
                "apiVersion": "kubesched.io/v1alpha1",
                "kind": "Scenario",
                "metadata": {"name": "an hour of batch jobs"},
                "cluster": "cluster.yaml",
                "events": arrivals(180),
            }
        )
    )
    html = tmp_path / "replay.html"
    try:
        main(
            ["replay", str(scenario), "-o", "json", "--sample-interval", "30s", "--html", str(html)]
        )
    except SystemExit as exc:
        assert exc.code in (0, None)
    document = json.loads(capsys.readouterr().out)
    assert document["summary"]["latencyP99"] is not None  # pods waited: the charts have lines
    page.goto(html.as_uri())
    page.wait_for_selector("#pod-table .tabulator-row")
    assert page.locator(".uplot").count() == 4
    legends = page.evaluate(LEGENDS, "chart-utilisation")
    resources = sorted(
        k[: -len("_allocation")] for k in document["series"][0] if k.endswith("_allocation")
    )
    assert legends[1::2] == [f"{r} allocated" for r in resources]
    assert page.text_content("#pod-count") == f"{len(document['pods'])} pods"
    assert page.text_content('[data-field="bound"]') == str(document["summary"]["bound"])
    page.mouse.move(0, 0)
    shot = tmp_path / "replay.png"
    page.locator("#charts").screenshot(path=str(shot))
    assert shot.read_bytes().startswith(b"\x89PNG")
    if os.environ.get("KUBESCHED_UPDATE_SCREENSHOTS") == "1":
        SCREENSHOT.write_bytes(shot.read_bytes())
