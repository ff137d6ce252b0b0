# ruff: noqa: E501  (a table of cases reads best one case a line)
"""Bad input, as careless or hostile users give it, through the CLI: exit code 2 (input) or
1 (configuration), one line on stderr naming the file, the object and the field, nothing on
stdout, and never a hang, a crash or a flood."""

from __future__ import annotations

import io
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from kubesched.cli.main import main

NODE = (
    "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n"
    "status: {allocatable: {cpu: '4', memory: 8Gi, pods: '110'}}\n"
)


def pod(extra: str = "", name: str = "p", head: str = "apiVersion: v1\nkind: Pod\n") -> str:
    return (
        head
        + f"metadata: {{name: {name}, namespace: default}}\n"
        + (extra or "spec: {containers: [{name: c}]}\n")
    )


def billion_laughs(levels: int = 12) -> str:
    lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, levels):
        refs = ",".join([f"*a{i - 1}"] * 10)
        lines.append(f"a{i}: &a{i} [{refs}]")
    return "\n".join(lines) + "\n"


MANIFESTS: list[tuple[str, str, str]] = [
    # (id, manifest text, what stderr must say after "error: <file>: ")
    ("billion-laughs", NODE + "---\n" + billion_laughs(), "document 1: YAML aliases expand"),
    ("deep-flow-yaml", "a: " + "[" * 50_000 + "]" * 50_000 + "\n",
     "nested deeper than 100 levels"),
    ("negative-request", NODE + "---\n" + pod("spec: {containers: [{name: c, resources: {requests: {cpu: '-4'}}}]}\n"),
     'Pod default/p: field spec.containers[0].resources.requests[cpu]: Invalid value: "-4": '
     "must be greater than or equal to 0"),
    ("negative-allocatable", NODE.replace("cpu: '4'", "cpu: '-4'"),
     'Node n1: field status.allocatable[cpu]: Invalid value: "-4": must be greater than or equal to 0'),
    ("quantity-over-int64", NODE.replace("pods: '110'", "pods: '99999999999999999999'"),
     'Node n1: field status.allocatable[pods]: Invalid value: "99999999999999999999": must be at most'),
    ("pod-under-apps-v1", pod(head="apiVersion: apps/v1\nkind: Pod\n"),
     'Pod default/p: field apiVersion: Invalid value: "apps/v1": no matches for kind "Pod" in '
     'version "apps/v1"'),
    ("missing-api-version", pod(head="kind: Pod\n"),
     'Pod default/p: field apiVersion: Required value: "v1" for kind Pod'),
    ("no-containers", pod("spec: {containers: []}\n"),
     "Pod default/p: field spec.containers: Required value"),
    ("boolean-quantity", NODE.replace("cpu: '4'", "cpu: true"),
     "Node n1: field status.allocatable.cpu: invalid quantity true: expected a string or a "
     "number"),
    ("null-label", "apiVersion: v1\nkind: Pod\nmetadata: {name: p, labels: {a: null}}\n"
     "spec: {containers: [{name: c}]}\n",
     "Pod default/p: field metadata.labels.a: expected a string, got null"),
    ("object-priority", pod("spec: {priority: {a: 1}, containers: [{name: c}]}\n"),
     'Pod default/p: field spec.priority: expected an integer, got an object ({"a": 1})'),
    ("duplicate-key", "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nmetadata: {name: q}\n",
     "document 0: field metadata: duplicate field (line 4)"),
    ("invalid-name", pod(name="Web_1"),
     'Pod default/Web_1: field metadata.name: Invalid value: "Web_1": a lowercase RFC 1123 subdomain'),
    ("name-not-a-string", pod(name="123"),
     "Pod at the top level: field metadata.name: must be a string, got 123"),
    ("pdb-bad-percent",
     "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: b}\nspec: {minAvailable: abc%}\n",
     'PodDisruptionBudget default/b: field spec.minAvailable: Invalid value: "abc%": a valid percent'),
    ("pdb-negative",
     "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: b}\nspec: {maxUnavailable: -3}\n",
     "PodDisruptionBudget default/b: field spec.maxUnavailable: Invalid value: -3: must be greater"),
    ("pdb-selector-operator",
     "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: b}\nspec:\n"
     "  selector: {matchExpressions: [{key: a, operator: Near, values: [x]}]}\n",
     'PodDisruptionBudget default/b: field spec.selector.matchExpressions[0].operator: Invalid '
     'value: "Near": not a valid selector operator'),
    ("unknown-priority-class", NODE + "---\n" + pod("spec: {priorityClassName: gold, containers: [{name: c}]}\n"),
     "Pod default/p: field spec.priorityClassName: no PriorityClass with name gold was found"),
]  # fmt: skip


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str, float]:
    started = time.monotonic()
    try:
        result = main(list(argv))
        code = result if isinstance(result, int) else 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err, time.monotonic() - started


def one_line(err: str) -> str:
    lines = err.splitlines()
    assert len(lines) == 1, err[:2000]
    assert len(lines[0]) < 1000, "no value is shown whole"
    return lines[0]


@pytest.mark.parametrize(
    ("text", "says"), [c[1:] for c in MANIFESTS], ids=[c[0] for c in MANIFESTS]
)
def test_a_bad_manifest_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, says: str
) -> None:
    manifest = tmp_path / "cluster.yaml"
    manifest.write_text(text)
    code, out, err, seconds = run(capsys, "simulate", str(manifest), "-o", "json")
    assert (code, out) == (2, "")
    assert one_line(err).startswith(f"error: {manifest}: ")
    assert says in err
    assert seconds < 20


def test_a_deep_json_array_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    manifest = tmp_path / "cluster.json"
    manifest.write_text("[" * 1000 + "]" * 1000)
    code, out, err, _ = run(capsys, "simulate", str(manifest))
    assert (code, out) == (2, "")
    assert one_line(err) == f"error: {manifest}: document 0: nested deeper than 100 levels"


def test_a_huge_value_is_cut_in_the_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    manifest = tmp_path / "cluster.json"
    labels = "[" + ",".join(["1"] * 500_000) + "]"
    manifest.write_text(
        '{"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n1", "labels": ' + labels + "}}"
    )
    code, out, err, _ = run(capsys, "simulate", str(manifest))
    assert (code, out) == (2, "")
    assert one_line(err).startswith(
        f"error: {manifest}: document 0: Node n1: field metadata.labels"
    )


def test_non_utf8_standard_input_is_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"kind: Node\nname: \xff\xfe\n")))
    code, out, err, _ = run(capsys, "simulate", "-")
    assert (code, out) == (2, "")
    assert one_line(err) == (
        "error: <stdin>: cannot read: not UTF-8 text (invalid start byte at byte 17)"
    )


@pytest.mark.parametrize(
    ("where", "says"),
    [
        ("missing/metrics.prom", "its directory does not exist"),
        (".", "it is a directory"),
    ],
)
def test_an_unwritable_metrics_file_fails_before_the_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str, says: str
) -> None:
    manifest = tmp_path / "cluster.yaml"
    manifest.write_text(NODE + "---\n" + pod())
    target = tmp_path / where
    code, out, err, _ = run(capsys, "simulate", str(manifest), "--metrics", str(target))
    assert (code, out) == (2, "")
    assert one_line(err) == f"error: {target}: cannot write the metrics file: {says}"


HEADER = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"


def indented(text: str) -> str:
    return "".join(f"  {line}\n" for line in text.splitlines())


CONFIGS: list[tuple[str, Callable[[], str], str]] = [
    ("config-billion-laughs", lambda: HEADER + "x:\n" + indented(billion_laughs()),
     "YAML aliases expand the document beyond 10 times its size"),
    ("config-deep", lambda: HEADER + "profiles: " + "[" * 2000 + "]" * 2000 + "\n",
     "nested deeper than 100 levels"),
    ("weight-over-int32", lambda: HEADER + "profiles:\n- plugins:\n    score:\n      enabled: "
     "[{name: NodeResourcesFit, weight: 2147483648}]\n",
     "profiles[0].plugins.score.enabled[0].weight: Invalid value: 2147483648: must fit in a "
     "32-bit integer"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "says"), [c[1:] for c in CONFIGS], ids=[c[0] for c in CONFIGS])
@pytest.mark.parametrize("command", [("config", "validate"), ("simulate", "-")])
def test_a_bad_config_is_one_line(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    text: Callable[[], str],
    says: str,
    command: tuple[str, str],
) -> None:
    config = tmp_path / "scheduler.yaml"
    config.write_text(text())
    monkeypatch.setattr(sys, "stdin", io.StringIO(NODE))
    if command[0] == "config":
        code, out, err, seconds = run(capsys, *command, str(config))
    else:
        code, out, err, seconds = run(capsys, *command, "--config", str(config))
    assert (code, out) == (1, ""), "a configuration that does not load: exit 1"
    line = one_line(err)
    assert str(config) in line and says in line
    assert seconds < 20


def test_data_is_printed_as_text_never_as_markup(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    manifest = tmp_path / "cluster.yaml"
    gated = pod("spec:\n  schedulingGates: [{name: example.com/wait}]\n  containers: [{name: c}]\n")
    manifest.write_text(NODE + "---\n" + gated)
    code, out, err, _ = run(capsys, "simulate", str(manifest))
    assert (code, err) == (0, "")
    assert "[example.com/wait]" in " ".join(out.split())
