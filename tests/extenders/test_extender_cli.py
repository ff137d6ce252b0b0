"""`kubesched simulate` with extenders: the JSON contract's extender fields (additive) and
the explanation table's extender column, against the Flask extender."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from jsonschema import Draft202012Validator

from kubesched.cli.main import main

CLUSTER = """
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Node
  metadata: {name: n1, labels: {rack/score: "2"}}
  status: {allocatable: {cpu: "4", memory: 8Gi, pods: "32"}}
- apiVersion: v1
  kind: Node
  metadata: {name: n2, labels: {rack/state: drain}}
  status: {allocatable: {cpu: "4", memory: 8Gi, pods: "32"}}
- apiVersion: v1
  kind: Node
  metadata: {name: n3, labels: {rack/score: "9"}}
  status: {allocatable: {cpu: "4", memory: 8Gi, pods: "32"}}
- apiVersion: v1
  kind: Pod
  metadata: {name: web, namespace: apps}
  spec:
    containers:
    - name: web
      image: nginx
      resources: {requests: {cpu: "1"}}
"""


def write_inputs(tmp_path: Path, url: str) -> tuple[Path, Path]:
    cluster = tmp_path / "cluster.yaml"
    cluster.write_text(CLUSTER)
    config = tmp_path / "config.yaml"
    config.write_text(
        yaml.safe_dump(
            {
                "apiVersion": "kubescheduler.config.k8s.io/v1",
                "kind": "KubeSchedulerConfiguration",
                "extenders": [
                    {
                        "urlPrefix": url,
                        "filterVerb": "filter",
                        "prioritizeVerb": "prioritize",
                        "weight": 2,
                    }
                ],
            }
        )
    )
    return cluster, config


def test_explain_json_shows_the_extenders_verdicts_and_scores(
    gpu_extender: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cluster, config = write_inputs(tmp_path, gpu_extender.url)
    main(
        [
            "simulate",
            str(cluster),
            "--config",
            str(config),
            "--output",
            "json",
            "--explain",
            "--explain-nodes",
            "all",
        ]
    )
    document = json.loads(capsys.readouterr().out)
    schema = Path(__file__).parents[2] / "docs/reference/schemas/simulation-result.schema.json"
    validator = Draft202012Validator(json.loads(schema.read_text()))
    assert [e.message for e in validator.iter_errors(document)] == []
    (result,) = document["results"]
    assert result["node"] == "n3"
    url = gpu_extender.url
    n2, n3 = result["nodes"]["n2"], result["nodes"]["n3"]
    # the plugin-facing fields keep their shape; the extender's verdict sits beside them
    assert n2["filter"] == {
        "code": "Unschedulable",
        "plugin": None,
        "reasons": ["rack is draining"],
    }
    assert n2["extenders"] == {
        url: {
            "filter": "Unschedulable",
            "reasons": ["rack is draining"],
            "score": None,
            "weighted": None,
        }
    }
    assert n2["total"] is None
    assert n3["extenders"] == {
        url: {"filter": "Success", "reasons": [], "score": 9, "weighted": 180}
    }
    assert n3["total"] == sum(s["weighted"] for s in n3["scores"].values()) + 180


def test_explain_table_has_a_column_per_prioritizing_extender(
    gpu_extender: Any, tmp_path: Path
) -> None:
    cluster, config = write_inputs(tmp_path, gpu_extender.url)
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from kubesched.cli import main; sys.exit(main())",
            "simulate",
            str(cluster),
            "--config",
            str(config),
            "--explain",
            "--explain-nodes",
            "all",
        ],
        capture_output=True,
        text=True,
        check=True,
        env={"COLUMNS": "250", "PATH": "/usr/bin:/bin"},
    ).stdout
    assert gpu_extender.url in out
    n2 = next(line for line in out.splitlines() if line.strip().startswith("│ n2"))
    assert f"{gpu_extender.url}: rack is draining" in n2
    n3 = next(line for line in out.splitlines() if line.strip().startswith("│ n3"))
    assert "180" in n3
