"""`kubesched simulate examples/dra`: GPUs published as ResourceSlices, pods claiming one, two
of one model, or one with at least 40Gi by CEL; `--explain` shows each node's reason, the
result each pod's devices; a broken input is one line naming the object and field."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from kubesched.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = str(ROOT / "examples" / "dra")
"""The obvious command: the folder, which holds this example only (the OpenB model is
examples/dra-openb)."""
SCHEMA = json.loads(
    (ROOT / "docs" / "reference" / "schemas" / "simulation-result.schema.json").read_text()
)


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    assert main([*args, "--output", "json"]) in (0, None)
    document: dict[str, Any] = json.loads(capsys.readouterr().out)
    return document


def test_the_plugin_is_in_the_default_profile_before_default_preemption(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["config", "defaults", "--output", "json"]) in (0, None)
    document = json.loads(capsys.readouterr().out)
    enabled = [p["name"] for p in document["profiles"][0]["plugins"]["multiPoint"]["enabled"]]
    assert len(enabled) == 19
    assert enabled[enabled.index("DynamicResources") + 1] == "DefaultPreemption"


def test_gpus_go_where_the_claims_can_be_allocated(capsys: pytest.CaptureFixture[str]) -> None:
    document = run_json(capsys, "simulate", EXAMPLE, "--explain", "--explain-nodes", "all")
    jsonschema.validate(document, SCHEMA)
    results = {r["pod"]: r for r in document["results"]}
    assert {pod: r["node"] for pod, r in results.items()} == {
        "ml/big-model": "gpu-a100",
        "ml/pair": "gpu-t4",
        "ml/notebook": "gpu-a100",
        "ml/second-big-model": None,
        "ml/third-big-model": None,
    }
    assert "devices" in results["ml/big-model"]
    (devices,) = results["ml/big-model"]["devices"].values()
    assert devices == ["gpu.example.com/gpu-a100/gpu-0"]
    (devices,) = results["ml/pair"]["devices"].values()
    assert devices == ["gpu.example.com/gpu-t4/gpu-0", "gpu.example.com/gpu-t4/gpu-1"]
    waiting = results["ml/second-big-model"]
    assert waiting["message"].startswith("0/3 nodes are available: 3 cannot allocate all claims.")
    assert {n: v["filter"]["reasons"] for n, v in waiting["nodes"].items()} == {
        "gpu-a100": ["cannot allocate all claims"],
        "gpu-t4": ["cannot allocate all claims"],
        "cpu-only": ["cannot allocate all claims"],
    }
    assert {v["filter"]["plugin"] for v in waiting["nodes"].values()} == {"DynamicResources"}
    assert "devices" not in waiting


def _write(tmp_path: Path, text: str, *, first: bool = False) -> str:
    """The example with `text` appended (or, `first`, put before its documents)."""
    source = (ROOT / "examples" / "dra" / "cluster.yaml").read_text()
    path = tmp_path / "cluster.yaml"
    path.write_text(text.removeprefix("---\n") + "---\n" + source if first else source + text)
    return str(path)


BAD_SLICE = """---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: orphan}
spec:
  driver: gpu.example.com
  pool: {name: orphan, resourceSliceCount: 1}
  devices: [{name: gpu-0}]
"""


def test_a_bad_object_is_one_line_naming_file_object_and_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, BAD_SLICE)
    with pytest.raises(SystemExit) as exit_info:
        main(["simulate", path])
    assert exit_info.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1
    assert "ResourceSlice orphan" in lines[0]
    assert lines[0].startswith(f"error: {path}: document 14: ResourceSlice orphan: ")
    assert "spec: Required value: exactly one of `nodeName`, `nodeSelector`" in lines[0]


BROKEN_CLASS = """---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: spare}
spec:
  driver: spare.example.com
  nodeName: cpu-only
  pool: {name: spare, resourceSliceCount: 1}
  devices: [{name: spare-0}]
---
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: broken.example.com}
spec:
  selectors:
    - cel: {expression: 'device.driver =='}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: odd, namespace: ml}
spec:
  devices:
    requests:
      - name: gpu
        exactly: {deviceClassName: broken.example.com}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: classless, namespace: ml}
spec:
  devices:
    requests:
      - name: gpu
        exactly: {deviceClassName: missing.example.com}
---
apiVersion: v1
kind: Pod
metadata: {name: odd, namespace: ml}
spec:
  containers: [{name: main, image: x}]
  resourceClaims: [{name: gpu, resourceClaimName: odd}]
---
apiVersion: v1
kind: Pod
metadata: {name: classless, namespace: ml}
spec:
  containers: [{name: main, image: x}]
  resourceClaims: [{name: gpu, resourceClaimName: classless}]
"""


def test_a_malformed_selector_or_a_missing_class_fails_only_those_pods(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, BROKEN_CLASS, first=True)
    document = run_json(capsys, "simulate", path, "--max-attempts", "3")
    results = {r["pod"]: r for r in document["results"]}
    assert results["ml/big-model"]["node"] == "gpu-a100"
    odd = results["ml/odd"]
    assert odd["node"] is None
    assert (
        "class broken.example.com: selector #0: CEL compile error: compilation failed"
        in odd["message"]
    )
    classless = results["ml/classless"]
    assert classless["status"] == "Unschedulable"
    assert "request gpu: device class missing.example.com does not exist" in classless["message"]


def test_the_openb_gpu_model_with_partitionable_devices(capsys: pytest.CaptureFixture[str]) -> None:
    model = str(ROOT / "examples" / "dra-openb")
    gate = ("--feature-gates", "DRAPartitionableDevices=true")
    document = run_json(capsys, "simulate", model, *gate)
    got = {r["pod"]: (r["node"], r.get("devices")) for r in document["results"]}
    driver = "gpu.openb.example.com"
    assert got["openb/train-2gpu"] == (
        "openb-node-0",
        {"openb/train-2gpu": [f"{driver}/openb-node-0/gpu-0", f"{driver}/openb-node-0/gpu-1"]},
    )
    assert got["openb/infer-half"][1] == {
        "openb/infer-half": [f"{driver}/openb-node-1/gpu-0-half-a"]
    }
    # The T4's counters are used up by the half and the two quarters: no whole T4 is left.
    assert got["openb/train-t4"] == (None, None)


def test_openb_gpus_shared_by_consumable_capacity(capsys: pytest.CaptureFixture[str]) -> None:
    shared = str(ROOT / "examples" / "dra-openb-shared")
    gate = ("--feature-gates", "DRAConsumableCapacity=true")
    document = run_json(capsys, "simulate", shared, *gate)
    jsonschema.validate(document, SCHEMA)
    results = {r["pod"]: r for r in document["results"]}
    assert {pod: r["node"] for pod, r in results.items()} == {
        "openb/train-2gpu": "openb-node-0",
        "openb/infer-a": "openb-node-1",
        "openb/infer-b": "openb-node-1",
        "openb/infer-c": "openb-node-1",
        "openb/infer-d": None,
    }
    for pod in ("openb/infer-a", "openb/infer-b", "openb/infer-c"):
        (devices,) = results[pod]["devices"].values()
        assert devices == ["gpu.openb.example.com/openb-node-1/gpu-0"]
    assert "cannot allocate all claims" in results["openb/infer-d"]["message"]
    off = {r["pod"]: r for r in run_json(capsys, "simulate", shared)["results"]}
    message = off["openb/infer-a"]["message"]
    assert "has capacity requests, but the DRAConsumableCapacity feature is disabled" in message
