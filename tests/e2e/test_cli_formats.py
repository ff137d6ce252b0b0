"""One meaning of `-o` across commands, YAML wherever JSON is offered, configs from stdin,
and `config validate` warnings that do not fail."""

from __future__ import annotations

import io
import json
import sys
from typing import Any

import pytest
import yaml

from kubesched.cli.main import main

CONFIG = """apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  pluginConfig:
  - name: NotInstalledAnywhere
    args: {}
"""


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv)) or 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def stdin(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode())))


def test_validate_reads_standard_input_and_warns_without_failing(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    stdin(monkeypatch, CONFIG)
    code, out, err = run(capsys, "config", "validate", "-")
    assert code == 0
    assert out == "<stdin>: OK (1 profile: default-scheduler)\n"
    assert err == (
        "warning: <stdin>: profiles[0].pluginConfig[0]: args for "
        '"NotInstalledAnywhere" are ignored: no such plugin\n'
    )


@pytest.mark.parametrize("output", ["json", "yaml"])
def test_validation_result_as_json_or_yaml(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, output: str
) -> None:
    stdin(monkeypatch, CONFIG)
    code, out, _ = run(capsys, "config", "validate", "-", "-o", output)
    document: dict[str, Any] = json.loads(out) if output == "json" else yaml.safe_load(out)
    assert code == 0
    assert document["kind"] == "ValidationResult" and document["valid"] is True
    assert document["file"] == "<stdin>" and document["errors"] == []
    assert len(document["warnings"]) == 1
    stdin(monkeypatch, CONFIG.replace("profiles:", "percentageOfNodesToScore: 150\nprofiles:"))
    code, out, _ = run(capsys, "config", "validate", "-", "-o", output)
    document = json.loads(out) if output == "json" else yaml.safe_load(out)
    assert code == 1 and document["valid"] is False and len(document["errors"]) == 1


def test_config_show_reads_standard_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    stdin(monkeypatch, CONFIG)
    code, out, _ = run(capsys, "config", "show", "-", "-o", "json")
    assert code == 0 and json.loads(out)["kind"] == "EffectiveConfiguration"


def test_plugins_as_yaml_equals_plugins_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    _, as_json, _ = run(capsys, "plugins", "-o", "json")
    _, as_yaml, _ = run(capsys, "plugins", "-o", "yaml")
    assert yaml.safe_load(as_yaml) == json.loads(as_json)
    assert any(p["name"] == "DefaultBinder" for p in json.loads(as_json)["plugins"])


def test_plugin_names_are_not_cut_when_piped(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "plugins")
    assert "DefaultBinder " in out and "kubesched-defaultpreemption" in out and "…" not in out


def test_show_prints_an_invalid_config_defaulted_then_its_problems(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    stdin(monkeypatch, CONFIG.replace("profiles:", "parallelism: -1\nprofiles:"))
    code, out, err = run(capsys, "config", "show", "-")
    assert code == 1
    defaulted = yaml.safe_load(out)
    assert defaulted["kind"] == "KubeSchedulerConfiguration" and defaulted["parallelism"] == -1
    assert defaulted["podMaxBackoffSeconds"] == 10  # defaulting ran
    [profile] = defaulted["profiles"]
    assert {"name": "DefaultBinder"} in profile["plugins"]["multiPoint"]["enabled"]
    assert err == (
        "<stdin>: parallelism: Invalid value: -1: should be an integer value greater than zero\n"
    )


def test_show_prints_nothing_for_a_config_that_does_not_read(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    stdin(monkeypatch, "kind: Nope\n")
    code, out, err = run(capsys, "config", "show", "-")
    assert (code, out) == (1, "") and err.startswith("<stdin>: ")
