"""The dump generator writes what it claims: the same objects as YAML and as JSON, the same
dump from the same seed, and a cluster kubesched reads (finished pods left out, pending
pods unbound, every bound pod on a node of the dump)."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).parents[2] / "benchmarks"))

import dump_gen

from kubesched.api._manifests import load_manifests


def _text(nodes: int, seed: int, form: str) -> tuple[str, int]:
    stream = io.StringIO()
    count = dump_gen.write(nodes, seed, form, stream)
    return stream.getvalue(), count


def test_yaml_and_json_forms_hold_the_same_list() -> None:
    yaml_text, yaml_count = _text(20, 3, "yaml")
    json_text, json_count = _text(20, 3, "json")
    as_yaml = yaml.load(yaml_text, Loader=yaml.SafeLoader)
    assert as_yaml == json.loads(json_text)
    assert as_yaml["kind"] == "List"
    assert yaml_count == json_count == len(as_yaml["items"])


def test_a_seed_gives_the_same_dump_and_another_seed_another() -> None:
    assert _text(10, 7, "yaml") == _text(10, 7, "yaml")
    assert _text(10, 7, "yaml")[0] != _text(10, 8, "yaml")[0]


def test_the_dump_carries_what_real_ones_carry() -> None:
    items = list(dump_gen.items(20, 1))
    kinds = {item["kind"] for item in items}
    assert {"Node", "Pod", "ReplicaSet", "PersistentVolumeClaim", "Service"} <= kinds
    pods = [item for item in items if item["kind"] == "Pod"]
    assert all(pod["metadata"]["managedFields"] for pod in pods)
    owners = {pod["metadata"]["ownerReferences"][0]["kind"] for pod in pods}
    assert owners == {"DaemonSet", "ReplicaSet"}
    phases = {pod["status"]["phase"] for pod in pods}
    assert {"Running", "Pending"} <= phases and phases & {"Succeeded", "Failed"}


def test_kubesched_reads_the_dump(tmp_path: Path) -> None:
    path, count = dump_gen.ensure(50, 1, "yaml", tmp_path)
    objects = load_manifests(path)
    items = list(dump_gen.items(50, 1))
    assert count == len(items)
    finished = [i for i in items if i["kind"] == "Pod" and i["status"]["phase"] != "Running"]
    finished = [i for i in finished if i["status"]["phase"] != "Pending"]
    pods = [i for i in items if i["kind"] == "Pod"]
    assert len(objects.nodes) == 50
    assert len(objects.pods) == len(pods) - len(finished)
    names = {node.metadata.name for node in objects.nodes}
    assert all(pod.spec.node_name in names for pod in objects.pods if pod.spec.node_name)
    assert any("finished pod" in warning for warning in objects.warnings)
