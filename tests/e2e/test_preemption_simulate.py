"""`kubesched simulate examples/preemption`: the critical pod preempts a batch pod and is
bound where it made room; with `preemptionPolicy: Never` it stays pending and nothing
is evicted."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kubesched.cli.main import main

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "preemption"
FULL = {"node-a": 2, "node-b": 2, "node-c": 2}


def simulate_json(capsys: pytest.CaptureFixture[str], cluster: Path) -> dict[str, Any]:
    main(["simulate", str(cluster), "--output", "json"])
    document: dict[str, Any] = json.loads(capsys.readouterr().out)
    return document


def pods_per_node(document: dict[str, Any]) -> dict[str, int]:
    return {n["name"]: n["pods"]["count"] for n in document["summary"]["nodes"]}


def test_table_shows_the_victim_and_where_the_pod_landed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    main(["simulate", str(EXAMPLE)])
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if "apps/checkout" in line)
    assert "Scheduled" in row
    assert "node-c (preempted apps/batch-c)" in row


def test_json_carries_the_nominated_node_and_the_victims(
    capsys: pytest.CaptureFixture[str],
) -> None:
    document = simulate_json(capsys, EXAMPLE)
    assert document["results"] == [
        {
            "pod": "apps/checkout",
            "profile": "default-scheduler",
            "node": "node-c",
            "status": "Scheduled",
            "message": "",
            "attempts": 2,
            "nominatedNode": "node-c",
            "victims": ["apps/batch-c"],
            "preemptedBy": None,
            "stoppedTrying": None,
            "volumes": {},
        }
    ]
    # batch-c left node-c and checkout took its place
    assert pods_per_node(document) == FULL
    assert document["summary"]["scheduled"] == 1


def test_preemption_policy_never_evicts_nothing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    manifests = (EXAMPLE / "cluster.yaml").read_text()
    pending = "metadata: {name: checkout, namespace: apps, labels: {app: checkout}}\nspec:\n"
    assert pending in manifests
    never = manifests.replace(pending, pending + "  preemptionPolicy: Never\n")
    (tmp_path / "cluster.yaml").write_text(never)

    document = simulate_json(capsys, tmp_path)
    [result] = document["results"]
    del result["attempts"]  # retries of an unschedulable pod are the scheduler's business
    assert result == {
        "pod": "apps/checkout",
        "profile": "default-scheduler",
        "node": None,
        "status": "Unschedulable",
        "message": "0/3 nodes are available: 3 Insufficient cpu. "
        "preemption: not eligible due to preemptionPolicy=Never.",
        "nominatedNode": None,
        "victims": [],
        "preemptedBy": None,
        "stoppedTrying": None,
        "volumes": {},
    }
    assert pods_per_node(document) == FULL
