"""`kubesched simulate` on a cluster dump with a Deployment's ReplicaSet: the system
default constraints spread its replicas over the zones, as kube-scheduler does; without
the ReplicaSet (or a Service) in the input nothing selects them, and they pile onto the
emptiest node."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kubesched.cli.main import main

HASH = "6d4cf56db6"


def node(name: str, zone: str, cpu: int) -> str:
    return f"""\
- apiVersion: v1
  kind: Node
  metadata:
    name: {name}
    labels: {{kubernetes.io/hostname: {name}, topology.kubernetes.io/zone: {zone}}}
  status:
    allocatable: {{cpu: "{cpu}", memory: {cpu * 4}Gi, pods: "110"}}
"""


def replica(i: int) -> str:
    return f"""\
- apiVersion: v1
  kind: Pod
  metadata:
    name: web-{HASH}-{i}
    namespace: shop
    labels: {{app: web, pod-template-hash: "{HASH}"}}
    ownerReferences:
    - {{apiVersion: apps/v1, kind: ReplicaSet, name: web-{HASH}, uid: rs-1, controller: true}}
  spec:
    containers:
    - name: web
      image: nginx
      resources: {{requests: {{cpu: 500m, memory: 1Gi}}}}
"""


DEPLOYMENT = """\
- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: web, namespace: shop}
  spec:
    replicas: 3
    selector: {matchLabels: {app: web}}
"""
REPLICA_SET = f"""\
- apiVersion: apps/v1
  kind: ReplicaSet
  metadata:
    name: web-{HASH}
    namespace: shop
    ownerReferences:
    - {{apiVersion: apps/v1, kind: Deployment, name: web, uid: d-1, controller: true}}
  spec:
    replicas: 3
    selector: {{matchLabels: {{app: web, pod-template-hash: "{HASH}"}}}}
"""
SERVICE = """\
- apiVersion: v1
  kind: Service
  metadata: {name: web, namespace: shop}
  spec: {selector: {app: web}, ports: [{port: 80}]}
"""
NODES = node("big-a", "zone-a", 32) + node("small-b", "zone-b", 8) + node("small-c", "zone-c", 8)
REPLICAS = "".join(replica(i) for i in range(3))


def placements(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], *workloads: str
) -> list[str | None]:
    cluster = tmp_path / "cluster.yaml"
    cluster.write_text(
        "apiVersion: v1\nkind: List\nitems:\n" + NODES + "".join(workloads) + REPLICAS
    )
    main(["simulate", str(cluster), "--output", "json"])
    document: dict[str, Any] = json.loads(capsys.readouterr().out)
    by_pod = {r["pod"]: r["node"] for r in document["results"]}
    return [by_pod[f"shop/web-{HASH}-{i}"] for i in range(3)]


@pytest.mark.parametrize("owner", [REPLICA_SET, SERVICE], ids=["replicaset", "service"])
def test_replicas_spread_over_the_zones(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], owner: str
) -> None:
    placed = placements(tmp_path, capsys, DEPLOYMENT, owner)
    assert sorted(placed, key=str) == ["big-a", "small-b", "small-c"]


def test_nothing_selects_the_replicas_without_their_workload_objects(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The Deployment alone does not select pods (upstream reads its ReplicaSet), so the
    least allocated node takes every replica."""
    assert placements(tmp_path, capsys, DEPLOYMENT) == ["big-a", "big-a", "big-a"]
