"""`kubesched replay` through the CLI: outputs, tables, the JSON document against its
schema, and bad input (one line naming the file, event and field; exit 2; nothing
written)."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from jsonschema import Draft202012Validator

from kubesched.cli.main import main

REPO = Path(__file__).resolve().parents[3]
SCHEMAS = REPO / "docs" / "reference" / "schemas"

CLUSTER = """\
apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: v1
kind: Node
metadata: {name: n2}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
"""


def pod(name: str, cpu: str = "2") -> dict[str, Any]:
    container = {"name": "c", "image": "app", "resources": {"requests": {"cpu": cpu}}}
    return {"metadata": {"name": name}, "spec": {"containers": [container]}}


EVENTS: list[dict[str, Any]] = [
    {"at": 0, "kind": "PodCreated", "pod": pod("a"), "duration": "10m"},
    {"at": "30s", "kind": "PodCreated", "pod": pod("b")},
    {"at": "1m", "kind": "NodeCordoned", "node": "n2"},
    {"at": "2m", "kind": "PodCreated", "pod": pod("c", "4"), "duration": 300},
    {"at": "3m", "kind": "NodeLabelled", "node": "n1", "labels": {"tier": "web"}},
    {
        "at": "4m",
        "kind": "NodeTainted",
        "node": "n1",
        "taints": [{"key": "k", "effect": "NoSchedule"}],
    },
    {"at": "5m", "kind": "NodeUntainted", "node": "n1", "keys": ["k"]},
    {"at": "6m", "kind": "NodeUncordoned", "node": "n2"},
    {"at": "7m", "kind": "PodDeleted", "pod": "b"},
    {
        "at": "8m",
        "kind": "NodeAdded",
        "node": {"metadata": {"name": "n3"}, "status": {"allocatable": {"cpu": "8", "pods": "10"}}},
    },
    {"at": "9m", "kind": "NodeRemoved", "node": "n3"},
]


def scenario(tmp_path: Path, events: list[Any] | None = None, **top: Any) -> Path:
    (tmp_path / "cluster.yaml").write_text(CLUSTER)
    document = {
        "apiVersion": "kubesched.io/v1alpha1",
        "kind": "Scenario",
        "metadata": {"name": "mix"},
        "cluster": "cluster.yaml",
        "events": EVENTS if events is None else events,
        **top,
    }
    path = tmp_path / "scenario.yaml"
    path.write_text(yaml.safe_dump(document, sort_keys=False))
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    return int(code or 0), out, err


def validator(name: str) -> Draft202012Validator:
    document = json.loads((SCHEMAS / f"{name}.schema.json").read_text())
    Draft202012Validator.check_schema(document)
    return Draft202012Validator(document)


def test_the_json_document_follows_its_schema(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, err = run(capsys, "replay", str(scenario(tmp_path)), "-o", "json")
    assert code == 0, err
    document = json.loads(out)
    problems = [
        f"{list(e.absolute_path)}: {e.message}"
        for e in validator("replay-result").iter_errors(document)
    ]
    assert problems == []
    pods = {p["pod"]: p for p in document["pods"]}
    assert pods["default/a"]["state"] == "Finished" and pods["default/a"]["left"] == 600
    assert pods["default/b"]["state"] == "Deleted" and pods["default/b"]["left"] == 420
    assert pods["default/c"]["bound"] == 420  # n1 full, n2 cordoned: room once b is gone
    assert document["summary"]["created"] == 3


def test_the_scenario_file_follows_its_schema(tmp_path: Path) -> None:
    document = yaml.safe_load(scenario(tmp_path).read_text())
    assert list(validator("scenario").iter_errors(document)) == []


def test_json_and_yaml_scenarios_give_the_same_result(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = scenario(tmp_path)
    as_json = tmp_path / "scenario.json"
    as_json.write_text(json.dumps(yaml.safe_load(path.read_text())))
    _, from_yaml, _ = run(capsys, "replay", str(path), "-o", "json")
    _, from_json, _ = run(capsys, "replay", str(as_json), "-o", "json")
    assert json.loads(from_yaml) == json.loads(from_json)


def test_series_and_pods_tables_are_written(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    series, pods = tmp_path / "series.csv", tmp_path / "pods.csv"
    argv = ["replay", str(scenario(tmp_path)), "--sample-interval", "2m"]
    code, out, err = run(capsys, *argv, "--series", str(series), "--pods", str(pods))
    assert code == 0, err
    assert "Created" in out
    rows = list(csv.DictReader(series.open()))
    assert [float(r["time"]) for r in rows] == [
        0,
        120,
        240,
        360,
        480,
        600,
        720,
    ]  # c finishes at 720
    assert rows[0]["cpu_allocatable"] == "8000"
    assert [r["pod"] for r in csv.DictReader(pods.open())] == [
        "default/a",
        "default/b",
        "default/c",
    ]


def test_the_first_tie_rule_from_the_command_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = scenario(tmp_path, [{"at": 0, "kind": "PodCreated", "pod": pod("p", "1")}])
    nodes = set()
    for seed in range(6):
        code, out, err = run(
            capsys, "replay", str(path), "--ties", "first", "--seed", str(seed), "-o", "json"
        )
        assert code == 0, err
        document = json.loads(out)
        assert document["ties"] == "first"
        nodes.add(document["pods"][0]["node"])
    assert nodes == {"n1", "n2"}


BAD = [
    (
        [
            {"at": 10, "kind": "PodCreated", "pod": pod("a")},
            {"at": 5, "kind": "PodCreated", "pod": pod("b")},
        ],
        "event 1: field at: events out of order: at 5s comes after an event at 10s",
    ),
    (
        [{"at": 0, "kind": "PodExploded", "pod": "a"}],
        "event 0: field kind: unknown kind 'PodExploded'",
    ),
    (
        [{"at": 0, "kind": "PodDeleted", "pod": "ghost"}],
        "event 0: field pod: deletes pod default/ghost, which does not exist",
    ),
    (
        [{"at": 0, "kind": "PodCreated", "pod": pod("a"), "duration": "-5s"}],
        "event 0: field duration: negative or infinite: '-5s'",
    ),
    (
        [{"at": -1, "kind": "PodCreated", "pod": pod("a")}],
        "event 0: field at: negative or infinite: -1",
    ),
    (
        [{"at": 0, "kind": "NodeCordoned", "node": "n9"}],
        "event 0: field node: node n9 does not exist",
    ),
    ([{"at": 0, "kind": "PodCreated"}], "event 0: field pod: missing field"),
    (
        [{"at": 0, "kind": "PodCreated", "pod": pod("a"), "colour": 1}],
        "event 0: field colour: unknown field for PodCreated",
    ),
    (
        [{"at": 0, "kind": "PodCreated", "pod": pod("a", "lots")}],
        "event 0: field pod.spec.containers[0].resources.requests.cpu: invalid quantity",
    ),
    (
        [{"at": "soon", "kind": "PodCreated", "pod": pod("a")}],
        "event 0: field at: not a duration: 'soon'",
    ),
    (
        [
            {"at": 0, "kind": "PodCreated", "pod": pod("a")},
            {"at": 1, "kind": "PodCreated", "pod": pod("a")},
        ],
        "event 1: field pod: pod default/a already exists",
    ),
    (
        [
            {
                "at": 0,
                "kind": "NodeTainted",
                "node": "n1",
                "taints": [{"key": "k", "effect": "Maybe"}],
            }
        ],
        "event 0: field taints[0].effect: expected one of",
    ),
]


@pytest.mark.parametrize(
    ("events", "message"), BAD, ids=[m.split(": ", 2)[-1][:40] for _, m in BAD]
)
def test_bad_events_are_one_line_exit_2_and_nothing_written(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, events: list[Any], message: str
) -> None:
    path = scenario(tmp_path, events)
    series = tmp_path / "series.csv"
    code, out, err = run(capsys, "replay", str(path), "--series", str(series), "-o", "json")
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(f"error: {path}: {message}")
    assert not series.exists()


@pytest.mark.parametrize(
    ("top", "message"),
    [
        ({"apiVersion": "v9"}, "field apiVersion: expected kubesched.io/v1alpha1, got 'v9'"),
        ({"kind": "Scenery"}, "field kind: expected Scenario, got 'Scenery'"),
        ({"cluster": "missing.yaml"}, "field cluster: no such file or directory"),
        ({"events": {"at": 0}}, "field events: expected a list of events"),
        ({"surprise": True}, "field surprise: unknown field"),
    ],
)
def test_bad_scenario_files_are_one_line_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, top: dict[str, Any], message: str
) -> None:
    path = scenario(tmp_path, **top)
    code, out, err = run(capsys, "replay", str(path))
    assert (code, out) == (2, "")
    assert err.startswith(f"error: {path}: {message}"), err
    assert err.count("\n") == 1


def test_a_missing_scenario_and_a_bad_table_suffix_are_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, _, err = run(capsys, "replay", str(tmp_path / "none.yaml"))
    assert code == 2 and "none.yaml: no such file" in err
    code, _, err = run(capsys, "replay", str(scenario(tmp_path)), "--pods", str(tmp_path / "p.txt"))
    assert code == 2 and "p.txt: --pods: a table is written as .csv" in err
