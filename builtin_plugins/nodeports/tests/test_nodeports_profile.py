"""NodePorts in the default profile, through `kubesched.testing.simulate` and the CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import yaml

from kubesched.framework import default_registry
from kubesched.testing import make_node, make_pod, simulate

CPU = {"cpu": "4", "memory": "8Gi"}


def test_second_pod_on_the_same_host_port_waits() -> None:
    nodes = [make_node("n1").capacity(CPU).obj()]
    pods = [
        make_pod("web-1").namespace("default").host_port(80).obj(),
        make_pod("web-2").namespace("default").host_port(80).obj(),
        make_pod("dns").namespace("default").host_port(80, "UDP").obj(),
    ]
    run = simulate(nodes, pods)
    assert run.placements == {"default/web-1": "n1", "default/web-2": None, "default/dns": "n1"}
    assert run.outcome("default/web-2").message == (
        "0/1 nodes are available: 1 node(s) didn't have free ports for the requested pod ports. "
        "preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod."
    )


def test_pods_spread_over_nodes_by_host_port() -> None:
    nodes = [make_node(f"n{i}").capacity(CPU).obj() for i in range(3)]
    pods = [make_pod(f"agent-{i}").namespace("default").host_port(9100).obj() for i in range(4)]
    run = simulate(nodes, pods)
    placed = [node for node in run.placements.values() if node is not None]
    assert sorted(placed) == ["n0", "n1", "n2"]
    assert run.placements["default/agent-3"] is None


def test_entry_point_and_cli(tmp_path: Path) -> None:
    assert "NodePorts" in default_registry()
    docs = [
        {
            "apiVersion": "v1",
            "kind": "Node",
            "metadata": {"name": "n1"},
            "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"}},
        },
        *(
            {
                "apiVersion": "v1",
                "kind": "Pod",
                "metadata": {"name": f"web-{i}", "namespace": "default"},
                "spec": {
                    "containers": [
                        {
                            "name": "c",
                            "image": "nginx",
                            "ports": [{"containerPort": 80, "hostPort": 8080}],
                        }
                    ]
                },
            }
            for i in (1, 2)
        ),
    ]
    cluster = tmp_path / "cluster.yaml"
    cluster.write_text(yaml.safe_dump_all(docs))
    out = subprocess.run(
        [
            str(Path(sys.executable).with_name("kubesched")),
            "simulate",
            str(cluster),
            "--output",
            "json",
            "--explain",
            "--explain-nodes",
            "all",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    web2 = json.loads(out.stdout)["results"][1]
    assert web2["pod"] == "default/web-2"
    assert web2["node"] is None
    assert web2["nodes"]["n1"]["filter"] == {
        "code": "Unschedulable",
        "plugin": "NodePorts",
        "reasons": ["node(s) didn't have free ports for the requested pod ports"],
    }
