"""Every JSON document the CLI prints validates against its published JSON Schema
(docs/reference/schemas/), so the schemas and the documents cannot drift apart."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from kubesched.cli.main import main

REPO = Path(__file__).resolve().parents[2]
SCHEMAS = REPO / "docs" / "reference" / "schemas"
EXAMPLES = REPO / "examples"


def schema(name: str) -> Draft202012Validator:
    document = json.loads((SCHEMAS / f"{name}.schema.json").read_text())
    Draft202012Validator.check_schema(document)
    return Draft202012Validator(document)


def printed(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    with contextlib.suppress(SystemExit):
        main(list(argv))
    document: dict[str, Any] = json.loads(capsys.readouterr().out)
    return document


def assert_valid(validator: Draft202012Validator, document: dict[str, Any]) -> None:
    problems = [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(document)]
    assert problems == []


@pytest.mark.parametrize(
    "argv",
    [
        ["examples/quickstart", "--explain"],
        ["examples/preemption/cluster.yaml", "--explain"],
        [
            "examples/coscheduling/cluster.yaml",
            "--config",
            "examples/coscheduling/scheduler-config.yaml",
        ],
        ["examples/kubectl-get-nodes-pods.yaml", "--only-failed"],
    ],
)
def test_simulation_results(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    paths = [str(REPO / a) if a.startswith("examples/") else a for a in argv]
    document = printed(capsys, "simulate", *paths, "-o", "json")
    assert document["results"]
    assert_valid(schema("simulation-result"), document)


def test_plugin_list(capsys: pytest.CaptureFixture[str]) -> None:
    assert_valid(schema("plugin-list"), printed(capsys, "plugins", "-o", "json"))


@pytest.mark.parametrize("config", sorted((EXAMPLES / "config").glob("*.yaml")), ids=str)
def test_validation_results_and_effective_configurations(
    capsys: pytest.CaptureFixture[str], config: Path, tmp_path: Path
) -> None:
    valid = printed(capsys, "config", "validate", str(config), "-o", "json")
    assert valid["valid"] is True
    assert_valid(schema("validation-result"), valid)
    assert_valid(
        schema("effective-configuration"),
        printed(capsys, "config", "show", str(config), "-o", "json"),
    )
    broken = tmp_path / "broken.yaml"
    broken.write_text(config.read_text() + "\nparallelism: -1\n")
    invalid = printed(capsys, "config", "validate", str(broken), "-o", "json")
    assert invalid["valid"] is False
    assert_valid(schema("validation-result"), invalid)


def test_a_document_with_an_undocumented_field_fails(capsys: pytest.CaptureFixture[str]) -> None:
    document = printed(capsys, "plugins", "-o", "json")
    document["plugins"][0]["surprise"] = 1
    assert list(schema("plugin-list").iter_errors(document))


@pytest.mark.parametrize(
    "argv", [[], ["--implemented"], ["--feature-gates", "AllAlpha=true,PodLevelResources=false"]]
)
def test_feature_gate_list(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    document = printed(capsys, "config", "feature-gates", "-o", "json", *argv)
    assert document["featureGates"]
    assert_valid(schema("feature-gate-list"), document)
