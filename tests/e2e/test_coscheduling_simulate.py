"""`kubesched simulate examples/coscheduling/cluster.yaml`: without Coscheduling a gang is
partly placed; with examples/coscheduling/scheduler-config.yaml every gang is placed whole or
not at all, and nothing stays reserved."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kubesched.cli.main import main

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "coscheduling"
CLUSTER = str(EXAMPLE / "cluster.yaml")
CONFIG = str(EXAMPLE / "scheduler-config.yaml")
TRAINING = [f"ml/training-{i}" for i in range(4)]
INFERENCE = [f"ml/inference-{i}" for i in range(3)]


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    assert main([*args, "--output", "json"]) in (0, None)
    document: dict[str, Any] = json.loads(capsys.readouterr().out)
    return document


def placed(document: dict[str, Any]) -> dict[str, str | None]:
    return {result["pod"]: result["node"] for result in document["results"]}


def test_the_plugin_is_listed_out_of_tree(capsys: pytest.CaptureFixture[str]) -> None:
    document = run_json(capsys, "plugins")
    [plugin] = [p for p in document["plugins"] if p["name"] == "Coscheduling"]
    assert (plugin["distribution"], plugin["source"]) == ("kubesched-coscheduling", "out-of-tree")
    assert plugin["extensionPoints"] == [
        "QueueSort",
        "PreFilter",
        "PostFilter",
        "Reserve",
        "Permit",
        "EnqueueExtensions",
    ]


def test_without_coscheduling_a_gang_is_partly_placed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    placements = placed(run_json(capsys, "simulate", CLUSTER))
    assert all(placements[pod] for pod in TRAINING)
    assert sum(1 for pod in INFERENCE if placements[pod]) == 2


def test_with_coscheduling_gangs_are_placed_whole_or_not_at_all(
    capsys: pytest.CaptureFixture[str],
) -> None:
    document = run_json(capsys, "simulate", CLUSTER, "--config", CONFIG)
    placements = placed(document)
    assert all(placements[pod] for pod in TRAINING)
    assert [placements[pod] for pod in INFERENCE] == [None, None, None]
    messages = {r["pod"]: r["message"] for r in document["results"]}
    for pod in INFERENCE:
        assert messages[pod].startswith(
            "0/3 nodes are available: podGroup ml/inference was rejected (Pod inference-2 "
            "was unschedulable) and nothing has changed since."
        )
    # the inference pods that waited at Permit released their CPUs: 8 of 12 are used
    used = sum(node["cpu"]["requestedMillicores"] for node in document["summary"]["nodes"])
    assert used == 8000
    assert document["summary"]["scheduled"] == 4
