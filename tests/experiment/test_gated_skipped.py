"""`gated` and `skipped`: pending pods a PreEnqueue plugin holds back (scheduling gates) and
pods being deleted, counted in compare's metrics and in a sweep's columns."""

from __future__ import annotations

import csv
import json
import textwrap
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from kubesched.cli.main import main

REPO = Path(__file__).resolve().parents[2]
SPREAD = REPO / "examples/compare/spread.yaml"
SCHEMA = REPO / "docs/reference/schemas/comparison-result.schema.json"
CLUSTER = """\
apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "10"}}
---
apiVersion: v1
kind: Pod
metadata: {name: plain, namespace: default}
spec: {containers: [{name: c, resources: {requests: {cpu: "1"}}}]}
---
apiVersion: v1
kind: Pod
metadata: {name: held, namespace: default}
spec:
  schedulingGates: [{name: example.com/wait}]
  containers: [{name: c, resources: {requests: {cpu: "1"}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: going, namespace: default, deletionTimestamp: "2024-01-01T00:00:00Z"}
spec: {containers: [{name: c, resources: {requests: {cpu: "1"}}}]}
---
apiVersion: v1
kind: Pod
metadata: {name: going-too, namespace: default, deletionTimestamp: "2024-01-01T00:00:00Z"}
spec: {containers: [{name: c, resources: {requests: {cpu: "1"}}}]}
"""


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code: Any = 0
    try:
        main(list(argv))
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    return int(code or 0), out, err


@pytest.fixture
def cluster(tmp_path: Path) -> Path:
    path = tmp_path / "cluster.yaml"
    path.write_text(CLUSTER)
    return path


def test_compare_counts_gated_and_skipped_pods(
    capsys: pytest.CaptureFixture[str], cluster: Path
) -> None:
    code, out, err = run(
        capsys, "compare", str(SPREAD), str(SPREAD), "--on", str(cluster), "-o", "json"
    )
    assert code == 0, err
    document = json.loads(out)
    schema = json.loads(SCHEMA.read_text())
    assert [e.message for e in Draft202012Validator(schema).iter_errors(document)] == []
    metrics = document["configs"][0]["metrics"]
    run_ = metrics["perSeed"][0]
    assert (run_["scheduled"], run_["gated"], run_["skipped"]) == (1, 1, 2)
    assert metrics["spread"]["gated"] == {"mean": 1, "min": 1, "max": 1}
    assert metrics["spread"]["skipped"] == {"mean": 2, "min": 2, "max": 2}
    code, out, _ = run(capsys, "compare", str(SPREAD), str(SPREAD), "--on", str(cluster))
    gated = next(line for line in out.splitlines() if "│ gated " in line)
    assert [cell.strip() for cell in gated.split("│")[2:4]] == ["1", "1"]


def test_a_sweep_has_gated_and_skipped_columns(
    capsys: pytest.CaptureFixture[str], cluster: Path, tmp_path: Path
) -> None:
    grid = tmp_path / "grid.yaml"
    grid.write_text(
        textwrap.dedent(
            f"""\
            apiVersion: kubesched.io/v1alpha1
            kind: Sweep
            configs: [{{file: {SPREAD}}}]
            inputs: [{{cluster: {cluster}}}]
            seeds: [1]
            """
        )
    )
    code, _, err = run(capsys, "sweep", str(grid), "--out", str(tmp_path / "out"), "-j", "1")
    assert code == 0, err
    with (tmp_path / "out" / "table.csv").open() as handle:
        reader = csv.DictReader(handle)
        columns = list(reader.fieldnames or [])
        rows = list(reader)
    assert columns.index("gated") == columns.index("other_schedulers") + 1
    assert (rows[0]["scheduled"], rows[0]["gated"], rows[0]["skipped"]) == ("1", "1", "2")
