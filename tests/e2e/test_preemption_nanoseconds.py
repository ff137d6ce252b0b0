"""`kubesched simulate` on manifests whose start times differ by nanoseconds: which
victim is evicted and which node is chosen follow upstream's metav1.Time order, in
either arrangement (where times cut to microseconds would tie and the first one found
would win)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

KUBESCHED = Path(sys.executable).with_name("kubesched")
T = "2024-05-01T10:00:00"


def node(name: str, cpu: str) -> str:
    return f"""apiVersion: v1
kind: Node
metadata: {{name: {name}}}
status:
  capacity: {{cpu: "{cpu}", memory: 8Gi, pods: "10"}}
  allocatable: {{cpu: "{cpu}", memory: 8Gi, pods: "10"}}
"""


def pod(name: str, priority: int, node_name: str = "", start: str = "") -> str:
    bound = f"  nodeName: {node_name}\n" if node_name else ""
    status = f'status: {{phase: Running, startTime: "{start}"}}\n' if start else ""
    return f"""apiVersion: v1
kind: Pod
metadata: {{name: {name}, namespace: apps}}
spec:
  priority: {priority}
{bound}  containers:
  - name: c
    resources: {{requests: {{cpu: "1", memory: 512Mi}}}}
{status}"""


def simulate(tmp_path: Path, documents: list[str]) -> dict[str, Any]:
    manifest = tmp_path / "cluster.yaml"
    manifest.write_text("---\n".join(documents))
    done = subprocess.run(
        [str(KUBESCHED), "simulate", str(manifest), "--output", "json"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    document: dict[str, Any] = json.loads(done.stdout)
    return document


def only_result(document: dict[str, Any]) -> dict[str, Any]:
    (result,) = document["results"]
    assert result["pod"] == "apps/critical" and result["status"] == "Scheduled"
    return result


@pytest.mark.parametrize("early_first", [True, False])
def test_the_pod_started_500ns_later_is_the_victim(tmp_path: Path, early_first: bool) -> None:
    """One node, two equal-priority pods, room to keep one: the earlier-started one is more
    important (util.MoreImportantPod) and stays."""
    early = pod("early", 100, "node-a", f"{T}.000000000Z")
    late = pod("late", 100, "node-a", f"{T}.000000500Z")
    running = [early, late] if early_first else [late, early]
    result = only_result(simulate(tmp_path, [node("node-a", "2"), *running, pod("critical", 1000)]))
    assert (result["node"], result["victims"]) == ("node-a", ["apps/late"])


@pytest.mark.parametrize("later_on", ["node-a", "node-b"])
def test_the_node_whose_victim_started_later_is_chosen(tmp_path: Path, later_on: str) -> None:
    """Two full nodes, one equal-priority pod each: pickOneNodeForPreemption's last
    criterion (latest start, by UnixNano) picks the node whose pod started 500 ns later,
    whichever node that is. The later start is written with a +02:00 offset."""
    earlier_on = "node-b" if later_on == "node-a" else "node-a"
    nodes = [node("node-a", "1"), node("node-b", "1")]
    earlier = pod("earlier", 100, earlier_on, f"{T}.000000000Z")
    later = pod("later", 100, later_on, "2024-05-01T12:00:00.000000500+02:00")
    result = only_result(simulate(tmp_path, [*nodes, earlier, later, pod("critical", 1000)]))
    assert (result["node"], result["victims"]) == (later_on, ["apps/later"])


def test_a_bad_start_time_names_the_file_object_and_field(tmp_path: Path) -> None:
    manifest = tmp_path / "cluster.yaml"
    manifest.write_text(pod("bad", 100, "node-a", f"{T}.000000500z"))  # Go wants "Z"
    done = subprocess.run(
        [str(KUBESCHED), "simulate", str(manifest), "--output", "json"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode != 0
    assert "status.startTime" in done.stderr and "apps/bad" in done.stderr
    assert "expected an RFC 3339 time like 2024-05-01T10:00:00Z" in done.stderr
