"""`kubesched simulate examples/pod-affinity`: required anti-affinity keeps replicas on
separate nodes and leaves the one too many pending, preferred affinity (through a
namespaceSelector over the cluster's Namespaces) draws a replica into the cache's zone, and
`--explain` shows InterPodAffinity's reasons and scores."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kubesched.cli.main import main

CLUSTER = str(Path(__file__).resolve().parents[2] / "examples" / "pod-affinity" / "cluster.yaml")


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    assert main([*args, "--output", "json"]) in (0, None)
    document: dict[str, Any] = json.loads(capsys.readouterr().out)
    return document


def test_the_plugin_is_listed_in_tree(capsys: pytest.CaptureFixture[str]) -> None:
    document = run_json(capsys, "plugins")
    [plugin] = [p for p in document["plugins"] if p["name"] == "InterPodAffinity"]
    assert (plugin["distribution"], plugin["source"]) == ("kubesched-interpodaffinity", "in-tree")
    assert plugin["extensionPoints"][:4] == ["PreFilter", "Filter", "PreScore", "Score"]


def test_anti_affinity_decides_where_replicas_go(capsys: pytest.CaptureFixture[str]) -> None:
    results = run_json(capsys, "simulate", CLUSTER, "--explain", "--explain-nodes", "all")[
        "results"
    ]
    by_pod = {r["pod"]: r for r in results}
    assert {pod: r["node"] for pod, r in by_pod.items()} == {
        "shop/web-1": "node-a",
        "shop/web-2": "node-c",
        "shop/web-3": None,
    }
    assert by_pod["shop/web-3"]["message"].startswith(
        "0/3 nodes are available: 3 node(s) didn't match pod anti-affinity rules."
    )
    nodes = by_pod["shop/web-1"]["nodes"]
    assert nodes["node-b"]["filter"] == {
        "code": "Unschedulable",
        "plugin": "InterPodAffinity",
        "reasons": ["node(s) didn't match pod anti-affinity rules"],
    }
    assert nodes["node-a"]["scores"]["InterPodAffinity"] == {"normalized": 100, "weighted": 200}
    assert nodes["node-c"]["scores"]["InterPodAffinity"] == {"normalized": 0, "weighted": 0}
