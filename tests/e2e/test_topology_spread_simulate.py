"""`kubesched simulate examples/topology-spread`: DoNotSchedule zone constraints send the
web replicas to the emptier zone, the hostname constraint spreads them over its nodes,
and a pod whose only allowed zone is too full stays pending with upstream's reasons."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kubesched.cli.main import main

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "topology-spread"
ZONE_B = {"zone-b-1", "zone-b-2"}
SPREAD = "node(s) didn't match pod topology spread constraints"


def simulate_json(capsys: pytest.CaptureFixture[str], *extra: str) -> dict[str, Any]:
    main(["simulate", str(EXAMPLE), "--output", "json", *extra])
    document: dict[str, Any] = json.loads(capsys.readouterr().out)
    return document


def test_web_replicas_spread_over_zones_and_nodes(capsys: pytest.CaptureFixture[str]) -> None:
    results = {r["pod"]: r for r in simulate_json(capsys)["results"]}
    web3, web4, web5 = (results[f"shop/web-{i}"]["node"] for i in (3, 4, 5))
    assert {web3, web4} == ZONE_B
    assert web5 in {"zone-a-1", "zone-a-2", *ZONE_B}


def test_db_stays_pending_with_upstreams_message(capsys: pytest.CaptureFixture[str]) -> None:
    results = {r["pod"]: r for r in simulate_json(capsys)["results"]}
    db = results["shop/db-2"]
    assert (db["status"], db["node"]) == ("Unschedulable", None)
    assert db["message"].startswith(
        f"0/5 nodes are available: 2 {SPREAD}, 3 node(s) didn't match Pod's node affinity/selector."
    )


def test_explain_names_the_plugin_and_its_reasons(capsys: pytest.CaptureFixture[str]) -> None:
    first = simulate_json(capsys, "--explain", "--explain-nodes", "all")["results"][0]
    assert first["pod"] == "shop/web-3"
    nodes = first["nodes"]
    assert nodes["zone-a-1"]["filter"] == {
        "code": "Unschedulable",
        "plugin": "PodTopologySpread",
        "reasons": [SPREAD],
    }
    assert nodes["edge-1"]["filter"] == {
        "code": "UnschedulableAndUnresolvable",
        "plugin": "PodTopologySpread",
        "reasons": [f"{SPREAD} (missing required label)"],
    }
    assert "PodTopologySpread" in nodes["zone-b-1"]["scores"]
