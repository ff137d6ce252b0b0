"""`simulate` keeps gated pods and pods being deleted apart from the unschedulable ones:
status `Gated` or `Skipped`, their own counts in the summary line and in the JSON summary,
which still validates against the published schema."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

REPO = Path(__file__).resolve().parents[2]
SCHEMA = REPO / "docs" / "reference" / "schemas" / "simulation-result.schema.json"
CLUSTER = """
apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: v1
kind: Pod
metadata: {name: gated, namespace: default}
spec:
  schedulingGates: [{name: example.com/quota}]
  containers: [{name: c}]
---
apiVersion: v1
kind: Pod
metadata: {name: leaving, namespace: default, deletionTimestamp: "2024-05-01T10:00:00Z"}
spec:
  containers: [{name: c}]
---
apiVersion: v1
kind: Pod
metadata: {name: huge, namespace: default}
spec:
  containers: [{name: c, resources: {requests: {cpu: "64"}}}]
"""


@pytest.fixture
def cluster(manifest: Callable[[str], str]) -> str:
    return manifest(CLUSTER)


def test_json_reports_gated_and_skipped_apart(
    cluster: str, simulate_json: Callable[..., dict[str, Any]]
) -> None:
    document = simulate_json(cluster)
    Draft202012Validator(json.loads(SCHEMA.read_text())).validate(document)
    by_pod = {r["pod"]: (r["status"], r["message"]) for r in document["results"]}
    assert by_pod["default/gated"] == ("Gated", "waiting for scheduling gates: [example.com/quota]")
    assert by_pod["default/leaving"] == ("Skipped", "skip schedule deleting pod: default/leaving")
    assert by_pod["default/huge"][0] == "Unschedulable"
    summary = document["summary"]
    assert (summary["unschedulable"], summary["gated"], summary["skipped"]) == (1, 1, 1)


def test_table_summary_counts_them_apart(cluster: str, simulate: Callable[..., str]) -> None:
    first = simulate(cluster).splitlines()[0]
    assert first.startswith(
        "Scheduled: 0   Unschedulable: 1   Errors: 0   Gated: 1   Skipped (being deleted): 1   "
    )
