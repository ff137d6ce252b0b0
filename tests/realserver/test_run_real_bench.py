"""benchmarks/run_real.py: its objects are SchedulingBasic's, and without binaries it says why
it did nothing."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[2] / "benchmarks"))

import run_real
import scheduling_basic

from kubesched.api import Node, Pod, structure


def test_the_objects_are_scheduling_basics() -> None:
    node = structure(run_real.node(7), Node)
    assert node.metadata.name == scheduling_basic.make_node(7).metadata.name
    assert node.status.allocatable == scheduling_basic.make_node(7).status.allocatable
    pod = structure(run_real.pod(3), Pod)
    reference = scheduling_basic.make_pod("pod", 3)
    assert pod.metadata.name == reference.metadata.name
    assert pod.spec.containers[0].resources == reference.spec.containers[0].resources
    assert pod.spec.node_name == ""


def test_without_binaries_it_is_skipped_and_writes_nothing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    for var in ("KUBESCHED_REAL_APISERVER", "KUBESCHED_REAL_ETCD", "KUBESCHED_REAL_SCHEDULER"):
        monkeypatch.delenv(var, raising=False)
    report = run_real.main(["--output", str(tmp_path / "out.json")])
    assert report["skipped"].startswith("no real control plane: set KUBESCHED_REAL_APISERVER")
    assert not (tmp_path / "out.json").exists()


def test_medians_per_shape_and_scheduler() -> None:
    def run(which: str, seconds: float, src: str = "", finished: bool = True) -> dict[str, object]:
        pods = 100
        return {
            "scheduler": which,
            "kubeschedSrc": src,
            "nodes": 10,
            "pods": pods,
            "finished": finished,
            "seconds": seconds,
            "podsPerSecond": round(pods / seconds, 1),
            "cpuSeconds": seconds / 2,
        }

    runs = [
        run("kube-scheduler", 2.0),
        run("kubesched", 5.0),
        run("kubesched", 9.0, src="other"),
        run("kube-scheduler", 4.0),
        run("kubesched", 1.0),
        run("kubesched", 3.0, finished=False),
    ]
    found = {(m["scheduler"], m["kubeschedSrc"]): m for m in run_real.medians(runs)}
    assert found[("kube-scheduler", "")]["seconds"] == 3.0
    assert found[("kube-scheduler", "")]["runs"] == 2
    assert found[("kubesched", "")]["seconds"] == 3.0  # median of 5, 1 and 3
    assert found[("kubesched", "")]["cpuSeconds"] == 1.5
    assert found[("kubesched", "")]["allFinished"] is False
    assert found[("kubesched", "other")]["podsPerSecond"] == 11.1
