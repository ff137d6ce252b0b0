"""`--feature-gates` through the CLI: bad values are usage errors that change nothing,
`config feature-gates` lists the gates, and the gates kubesched honours change outcomes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from kubesched.cli.main import main

REPO = Path(__file__).resolve().parents[3]
EXAMPLES = REPO / "examples" / "feature-gates"
POD_LEVEL = str(EXAMPLES / "pod-level-resources.yaml")
SLA = str(EXAMPLES / "sla-tolerations.yaml")
CONFIG = str(REPO / "examples" / "config" / "multipoint.yaml")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    return int(code or 0), out, err


def results(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    code, out, err = run(capsys, "simulate", *argv, "-o", "json")
    assert code == 0, err
    return {r["pod"]: r for r in json.loads(out)["results"]}


def test_unknown_gate_is_a_usage_error_naming_it_and_nothing_runs(tmp_path: Path) -> None:
    metrics = tmp_path / "metrics.txt"
    done = subprocess.run(
        [sys.executable, "-c", "from kubesched.cli.main import main; main()",
         "simulate", POD_LEVEL, "--metrics", str(metrics),
         "--feature-gates", "PodLevelResources=false,NoSuchGate=true"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == (
        "error: Invalid value for '--feature-gates': unrecognized feature gate: NoSuchGate "
        "(see: kubesched simulate --help)\n"
    )
    assert not metrics.exists()


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", POD_LEVEL],
        ["config", "defaults"],
        ["config", "validate", CONFIG],
        ["config", "show", CONFIG],
        ["config", "feature-gates"],
        ["run", "--config", CONFIG, "--kubeconfig", "/nonexistent"],
    ],
)
def test_every_command_refuses_a_locked_gate(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    code, out, err = run(capsys, *argv, "--feature-gates", "DynamicResourceAllocation=false")
    assert (code, out) == (2, "")
    assert (
        "cannot set feature gate DynamicResourceAllocation to false, feature is locked to true"
        in err
    )


def test_missing_and_invalid_values(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "config", "defaults", "--feature-gates", "PodLevelResources")
    assert code == 2 and "missing bool value for PodLevelResources" in err
    code, _, err = run(capsys, "config", "defaults", "--feature-gates", "PodLevelResources=on")
    assert code == 2
    assert 'invalid value of PodLevelResources=on, err: strconv.ParseBool: parsing "on"' in err


def test_config_commands_accept_gates(capsys: pytest.CaptureFixture[str]) -> None:
    gates = "PodLevelResources=false,TaintTolerationComparisonOperators=true"
    code, out, _ = run(capsys, "config", "validate", CONFIG, "--feature-gates", gates)
    assert code == 0 and "OK" in out
    code, with_gates, _ = run(capsys, "config", "defaults", "--feature-gates", gates)
    _, without, _ = run(capsys, "config", "defaults")
    assert code == 0 and with_gates == without  # no gate changes v1.35's default profile


def test_feature_gate_list_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "config", "feature-gates", "--implemented",
        "--feature-gates", "TaintTolerationComparisonOperators=true",
    )  # fmt: skip
    assert code == 0
    assert out.splitlines() == [
        "NAME                                DEFAULT  STAGE  LOCKED  ENABLED  KUBESCHED",
        "DRAAdminAccess                      true     Beta   -       true     yes",
        "DRAConsumableCapacity               false    Alpha  -       false    yes",
        "DRADeviceBindingConditions          false    Alpha  -       false    yes",
        "DRADeviceTaints                     false    Alpha  -       false    yes",
        "DRAPartitionableDevices             false    Alpha  -       false    yes",
        "DRAPrioritizedList                  true     Beta   -       true     yes",
        "DRASchedulerFilterTimeout           true     Beta   -       true     yes",
        "PodLevelResources                   true     Beta   -       true     yes",
        "TaintTolerationComparisonOperators  false    Alpha  -       true     yes",
    ]
    code, out, _ = run(capsys, "config", "feature-gates")
    lines = out.splitlines()
    assert len(lines) == 218
    assert lines[0].split() == ["NAME", "DEFAULT", "STAGE", "LOCKED", "ENABLED", "KUBESCHED"]
    assert ["DynamicResourceAllocation", "true", "GA", "yes", "true", "-"] in [
        line.split() for line in lines
    ]


def test_feature_gate_list_document(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "config", "feature-gates", "-o", "json", "--feature-gates", "AllBeta=false"
    )
    assert code == 0
    document = json.loads(out)
    assert (document["apiVersion"], document["kind"], document["release"]) == (
        "kubesched.io/v1alpha1",
        "FeatureGateList",
        "v1.35",
    )
    gates = {g["name"]: g for g in document["featureGates"]}
    assert gates["PodLevelResources"]["enabled"] is False
    assert gates["PodLevelResources"]["default"] is True
    assert gates["PodLevelResources"]["kubesched"].startswith("pod-level spec.resources")
    assert gates["SchedulerAsyncPreemption"] == {
        "name": "SchedulerAsyncPreemption",
        "default": True,
        "stage": "Beta",
        "lockToDefault": False,
        "enabled": False,
        "kubesched": None,
    }


def test_pod_level_resources_off_changes_where_the_pod_goes(
    capsys: pytest.CaptureFixture[str],
) -> None:
    on = results(capsys, POD_LEVEL)["default/batch"]
    assert on["node"] is None
    assert on["message"].startswith("0/1 nodes are available: 1 Insufficient cpu.")
    off = results(capsys, POD_LEVEL, "--feature-gates", "PodLevelResources=false")
    assert off["default/batch"]["node"] == "small"


def test_pod_level_resources_off_shows_container_requests_in_the_node_summary(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(
        capsys, "simulate", POD_LEVEL, "-o", "json", "--feature-gates", "PodLevelResources=false"
    )
    nodes = {n["name"]: n for n in json.loads(out)["summary"]["nodes"]}
    assert code == 0 and nodes["small"]["cpu"]["requestedMillicores"] == 1000


def test_gt_tolerations_need_their_gate(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "simulate", SLA)
    assert (code, out) == (2, "")
    assert err == (
        f"error: {SLA}: document 1: Pod default/critical: field spec.tolerations[0].operator: "
        'Unsupported value: "Gt": supported values: "Equal", "Exists"\n'
    )
    on = results(capsys, SLA, "--feature-gates", "TaintTolerationComparisonOperators=true")
    assert on["default/critical"]["node"] == "premium"
