"""`kubesched simulate examples/quickstart`, README command 1: exact outcomes and messages."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from kubesched.cli.main import main

REPO = Path(__file__).resolve().parents[2]
QUICKSTART = str(REPO / "examples" / "quickstart")

TAINTED_AND_FULL = (
    "0/5 nodes are available: 2 node(s) had untolerated taint(s), 3 Insufficient cpu, "
    "3 Insufficient memory. preemption: 0/5 nodes are available: 2 Preemption is not helpful "
    "for scheduling, 3 No preemption victims found for incoming pod."
)
NO_SUCH_ZONE = (
    "0/5 nodes are available: 2 node(s) had untolerated taint(s), 3 node(s) didn't match Pod's "
    "node affinity/selector. preemption: 0/5 nodes are available: 5 Preemption is not helpful "
    "for scheduling."
)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[str, str]:
    main(list(args))
    captured = capsys.readouterr()
    return captured.out, captured.err


def simulate_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    out, _ = run(capsys, "simulate", QUICKSTART, "--output", "json", *args)
    document: dict[str, Any] = json.loads(out)
    return document


def test_every_pending_pod_and_why(capsys: pytest.CaptureFixture[str]) -> None:
    document = simulate_json(capsys)
    assert document["apiVersion"] == "kubesched.io/v1alpha2"
    outcomes = [(r["pod"], r["status"], r["node"], r["message"]) for r in document["results"]]
    assert outcomes == [
        ("shop/web-1", "Scheduled", "worker-a2", ""),
        ("shop/web-2", "Scheduled", "worker-a2", ""),
        ("shop/checkout", "Scheduled", "worker-b1", ""),
        ("ml/recommender-train", "Scheduled", "gpu-b1", ""),
        ("analytics/report-batch", "Unschedulable", None, TAINTED_AND_FULL),
        ("analytics/archive", "Unschedulable", None, NO_SUCH_ZONE),
    ]
    summary = document["summary"]
    assert (summary["scheduled"], summary["unschedulable"], summary["errors"]) == (4, 2, 0)
    assert summary["otherSchedulers"] == 1
    usage = {n["name"]: n for n in summary["nodes"]}
    assert usage["gpu-b1"]["cpu"] == {"requestedMillicores": 4000, "allocatableMillicores": 7900}
    assert usage["worker-a2"]["pods"] == {"count": 3, "allocatable": 110}


def test_yaml_is_the_same_document(capsys: pytest.CaptureFixture[str]) -> None:
    as_json = simulate_json(capsys)
    out, _ = run(capsys, "simulate", QUICKSTART, "-o", "yaml")
    assert yaml.safe_load(out) == as_json


def test_table_lists_pods_messages_and_summary(capsys: pytest.CaptureFixture[str]) -> None:
    out, err = run(capsys, "simulate", QUICKSTART)
    flat = " ".join(out.split())
    assert err == ""
    for text in ("shop/web-1", "worker-a2", "gpu-b1", "Unschedulable", "Insufficient cpu"):
        assert text in flat
    assert "Scheduled: 4 Unschedulable: 2 Errors: 0" in flat
    assert "Pods for other schedulers (left alone): 1" in flat


def test_explain_covers_every_node_of_the_last_attempt(capsys: pytest.CaptureFixture[str]) -> None:
    document = simulate_json(capsys, "--explain", "--explain-nodes", "all")
    results = {r["pod"]: r for r in document["results"]}
    checkout = results["shop/checkout"]["nodes"]
    assert set(checkout) == {"control-plane", "worker-a1", "worker-a2", "worker-b1", "gpu-b1"}
    assert checkout["worker-a1"]["filter"] == {
        "code": "UnschedulableAndUnresolvable",
        "plugin": "NodeAffinity",
        "reasons": ["node(s) didn't match Pod's node affinity/selector"],
    }
    only = checkout["worker-b1"]
    assert only["filter"]["code"] == "Success"
    assert (only["scores"], only["total"]) == ({}, None), "one feasible node is not scored"
    web = results["shop/web-1"]["nodes"]
    chosen = web[results["shop/web-1"]["node"]]
    assert chosen["total"] == sum(s["weighted"] for s in chosen["scores"].values())
    assert chosen["total"] == max(n["total"] or 0 for n in web.values())
    assert {
        p: s["weighted"] // s["normalized"] for p, s in chosen["scores"].items() if s["normalized"]
    } == {
        "TaintToleration": 3,
        "NodeResourcesFit": 1,
        "NodeResourcesBalancedAllocation": 1,
    }
    batch = results["analytics/report-batch"]["nodes"]
    assert batch["worker-a1"]["filter"]["reasons"] == ["Insufficient cpu", "Insufficient memory"]
    assert all(node["total"] is None for node in batch.values())


def test_metrics_file_in_text_exposition_format(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    metrics = tmp_path / "metrics.txt"
    run(capsys, "simulate", QUICKSTART, "-o", "json", "--metrics", str(metrics))
    text = metrics.read_text()
    for line in (
        'scheduler_schedule_attempts_total{profile="default-scheduler",result="scheduled"} 4.0',
        'scheduler_pending_pods{queue="unschedulable"} 2.0',
        "# TYPE scheduler_framework_extension_point_duration_seconds histogram",
        "# TYPE scheduler_scheduling_attempt_duration_seconds histogram",
    ):
        assert line in text.splitlines()


def test_table_explain_shows_each_pods_nodes(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    out, _ = run(capsys, "simulate", QUICKSTART, "--explain")
    flat = " ".join(out.split())
    assert "shop/web-1: last attempt" in flat
    assert "NodeAffinity: node(s) didn't match Pod's node affinity/selector" in flat
    assert "TaintToleration: node(s) had untolerated taint(s)" in flat
