"""API defaulting of a pod on the host's network: every container port (init containers
too) without a hostPort gets its containerPort as hostPort, so two such pods conflict in
NodePorts as they would on a live cluster."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kubesched.api import Pod, structure
from kubesched.api._defaults import default_pod
from kubesched.cli.main import main


def pod(host_network: bool, *ports: dict[str, Any], init: bool = False) -> Pod:
    container = {"name": "c", "ports": list(ports)}
    key = "initContainers" if init else "containers"
    spec = {key: [container], "hostNetwork": host_network}
    if init:
        spec["containers"] = [{"name": "main"}]
    return default_pod(structure({"metadata": {"name": "p"}, "spec": spec}, Pod))


def host_ports(p: Pod, init: bool = False) -> list[int]:
    containers = p.spec.init_containers if init else p.spec.containers
    return [port.host_port for c in containers for port in c.ports]


@pytest.mark.parametrize("init", [False, True], ids=["containers", "init containers"])
def test_host_network_ports_default_to_the_container_port(init: bool) -> None:
    got = pod(True, {"containerPort": 8080}, {"containerPort": 53, "hostPort": 5353}, init=init)
    assert host_ports(got, init) == [8080, 5353]  # an explicit hostPort is kept


def test_without_host_network_ports_are_left_alone() -> None:
    assert host_ports(pod(False, {"containerPort": 8080})) == [0]


NODE = """
apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
"""


def host_network_pod(name: str, node: str = "") -> str:
    bound = f"\n  nodeName: {node}" if node else ""
    return f"""
apiVersion: v1
kind: Pod
metadata: {{name: {name}, namespace: default}}
spec:{bound}
  hostNetwork: true
  containers: [{{name: c, ports: [{{containerPort: 8080}}]}}]
"""


def test_two_host_network_pods_with_the_same_port_conflict(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cluster = tmp_path / "cluster.yaml"
    cluster.write_text(
        "---".join([NODE, host_network_pod("running", "n1"), host_network_pod("new")])
    )
    main(["simulate", str(cluster), "-o", "json"])
    document = json.loads(capsys.readouterr().out)
    (result,) = document["results"]
    assert result["pod"] == "default/new"
    assert result["status"] == "Unschedulable"
    assert result["message"] == (
        "0/1 nodes are available: 1 node(s) didn't have free ports for the requested pod "
        "ports. preemption: 0/1 nodes are available: 1 No preemption victims found for "
        "incoming pod."
    )
