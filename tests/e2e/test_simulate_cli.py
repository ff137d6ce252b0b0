"""`kubesched simulate` on small clusters with known outcomes: preemption, profiles, bad input,
stdin, seeds."""

from __future__ import annotations

import io
import json
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from kubesched.cli.main import main

NODE = """
apiVersion: v1
kind: Node
metadata: {{name: {name}, labels: {{zone: {zone}}}}}
status:
  capacity: {{cpu: "{cpu}", memory: 8Gi, pods: "110"}}
  allocatable: {{cpu: "{cpu}", memory: 8Gi, pods: "110"}}
"""
POD = """
apiVersion: v1
kind: Pod
metadata: {{name: {name}, namespace: default}}
spec:
  schedulerName: {scheduler}
  {extra}
  containers: [{{name: c, resources: {{requests: {{cpu: "{cpu}"}}}}}}]
"""


def node(name: str, cpu: str = "4", zone: str = "a") -> str:
    return NODE.format(name=name, cpu=cpu, zone=zone)


def pod(name: str, cpu: str = "1", scheduler: str = "default-scheduler", extra: str = "") -> str:
    return POD.format(name=name, cpu=cpu, scheduler=scheduler, extra=extra)


def write(tmp_path: Path, *documents: str, name: str = "cluster.yaml") -> str:
    path = tmp_path / name
    path.write_text("---".join(documents))
    return str(path)


def simulate(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    main(["simulate", *args, "--output", "json"])
    document: dict[str, Any] = json.loads(capsys.readouterr().out)
    return document


def failing(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exit_info:
        main(["simulate", *args])
    captured = capsys.readouterr()
    return int(exit_info.value.code or 0), captured.out, captured.err


PRIORITY_CLASS = """
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: high}
value: 1000
"""


def test_preemption_evicts_the_victim_and_binds_on_the_nominated_node(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    running = pod("low", cpu="3").replace("spec:\n", "spec:\n  nodeName: n1\n")
    urgent = pod("urgent", cpu="2", extra="priorityClassName: high")
    document = simulate(capsys, write(tmp_path, PRIORITY_CLASS, node("n1"), running, urgent))
    [result] = document["results"]
    assert result == {
        "pod": "default/urgent",
        "profile": "default-scheduler",
        "node": "n1",
        "status": "Scheduled",
        "message": "",
        "attempts": 2,
        "nominatedNode": "n1",
        "victims": ["default/low"],
        "preemptedBy": None,
        "stoppedTrying": None,
        "volumes": {},
    }
    [usage] = document["summary"]["nodes"]
    assert usage["cpu"]["requestedMillicores"] == 2000 and usage["pods"]["count"] == 1


def test_equal_priority_cannot_preempt(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    running = pod("low", cpu="3").replace("spec:\n", "spec:\n  nodeName: n1\n")
    document = simulate(capsys, write(tmp_path, node("n1"), running, pod("p", cpu="2")))
    [result] = document["results"]
    assert result["message"] == (
        "0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: "
        "1 No preemption victims found for incoming pod."
    )
    assert result["victims"] == [] and result["nominatedNode"] is None


CONFIG = """
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
  - schedulerName: default-scheduler
  - schedulerName: no-scoring
    plugins:
      score:
        disabled: [{name: "*"}]
"""


def test_pods_go_to_their_profile_and_others_are_left_alone(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    cluster = write(
        tmp_path,
        node("n1"),
        node("n2"),
        node("n3"),
        pod("a", scheduler="no-scoring"),
        pod("b", scheduler="no-scoring"),
        pod("c", scheduler="no-scoring"),
        pod("mine"),
        pod("theirs", scheduler="other"),
    )
    config = write(tmp_path, CONFIG, name="config.yaml")
    document = simulate(capsys, cluster, "--config", config)
    placements = {r["pod"]: r["node"] for r in document["results"]}
    assert [placements[f"default/{p}"] for p in "abc"] == ["n1", "n2", "n3"]
    assert "default/theirs" not in placements and document["summary"]["otherSchedulers"] == 1


def test_broken_manifest_exits_2_with_one_line_and_writes_nothing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    cluster = write(tmp_path, node("n1"), "kind: Pod\nmetadata: {name: [oops\n")
    metrics = tmp_path / "metrics.txt"
    code, out, err = failing(capsys, cluster, "--metrics", str(metrics))
    assert (code, out) == (2, "")
    assert len(err.splitlines()) == 1 and err.startswith(f"error: {cluster}: ")
    assert "line 10, column 1: invalid YAML: " in err
    assert not metrics.exists()


def test_unknown_priority_class_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    cluster = write(tmp_path, node("n1"), pod("p", extra="priorityClassName: gold"))
    code, out, err = failing(capsys, cluster)
    assert (code, out) == (2, "")
    assert err == (
        f"error: {cluster}: Pod default/p: field spec.priorityClassName: "
        "no PriorityClass with name gold was found\n"
    )


def test_config_error_exits_1_with_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    cluster = write(tmp_path, node("n1"))
    config = write(tmp_path, CONFIG.replace("no-scoring", "default-scheduler"), name="bad.yaml")
    code, out, err = failing(capsys, cluster, "--config", config)
    assert (code, out) == (1, ""), "a configuration that does not validate: exit 1"
    assert len(err.splitlines()) == 1
    assert err.startswith(f"error: {config}: ") and "Duplicate value" in err


def test_cluster_from_stdin(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    text = "---".join([node("n1"), pod("p")])
    monkeypatch.setattr(sys, "stdin", io.StringIO(textwrap.dedent(text)))
    document = simulate(capsys, "-")
    assert [(r["pod"], r["node"]) for r in document["results"]] == [("default/p", "n1")]


def test_same_seed_same_placements_and_seeds_break_ties_differently(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    cluster = write(tmp_path, *[node(f"n{i}") for i in range(6)], *[pod(f"p{i}") for i in range(8)])

    def placements(seed: int) -> list[str]:
        document = simulate(capsys, cluster, "--seed", str(seed))
        return [r["node"] for r in document["results"]]

    runs = [placements(seed) for seed in range(4)]
    assert placements(2) == runs[2]
    assert len({tuple(r) for r in runs}) > 1
