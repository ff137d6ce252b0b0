"""The scenarios in examples/scenarios: valid files, and the day's file is what its
generator writes."""

from __future__ import annotations

import importlib.util
import json
import random
from pathlib import Path

import yaml
from jsonschema import Draft202012Validator

from kubesched.replay import load_scenario

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "scenarios"
SCHEMA = Path(__file__).resolve().parents[3] / "docs" / "reference" / "schemas"


def validator() -> Draft202012Validator:
    return Draft202012Validator(json.loads((SCHEMA / "scenario.schema.json").read_text()))


def test_the_quickstart_follows_the_schema_and_loads() -> None:
    path = EXAMPLES / "quickstart" / "scenario.yaml"
    assert list(validator().iter_errors(yaml.safe_load(path.read_text()))) == []
    scenario = load_scenario(path)
    assert [n.name for n in scenario.cluster.nodes] == ["worker-1", "worker-2"]
    assert len(list(scenario.iter_events())) == 8


def test_the_day_is_what_its_generator_writes_and_follows_the_schema() -> None:
    spec = importlib.util.spec_from_file_location(
        "generate_day", EXAMPLES / "web-batch-day" / "generate.py"
    )
    assert spec is not None and spec.loader is not None
    generate = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(generate)
    document = json.loads((EXAMPLES / "web-batch-day" / "scenario.json").read_text())
    assert document["events"] == generate.events(random.Random(generate.SEED))
    assert list(validator().iter_errors(document)) == []
    cluster = yaml.safe_load((EXAMPLES / "web-batch-day" / "cluster.yaml").read_text())
    assert len(cluster["items"]) == 300
