"""`kubesched run` follows ReplicaSets: the system default constraints spread a
Deployment's replicas over the zones, as on the in-memory cluster."""

from __future__ import annotations

from collections.abc import Callable

from kubesched.testing import make_node, make_pod
from kubesched.testing.apiserver import FakeApiServer

from .conftest import SCHEDULER, Running
from .test_run_binds import node_of

ZONE = "topology.kubernetes.io/zone"
HOSTNAME = "kubernetes.io/hostname"
LABELS = {"app": "web", "pod-template-hash": "6d4cf56db6"}


def test_replicas_of_a_followed_replica_set_spread_over_zones(
    apiserver: FakeApiServer, start_scheduler: Callable[..., Running]
) -> None:
    for name, zone, cpu in (("big-a", "a", "32"), ("small-b", "b", "8"), ("small-c", "c", "8")):
        node = make_node(name).label(ZONE, zone).label(HOSTNAME, name)
        apiserver.create(node.capacity(cpu=cpu, memory="32Gi").obj())
    apiserver.create(
        {
            "apiVersion": "apps/v1",
            "kind": "ReplicaSet",
            "metadata": {"name": "web-6d4cf56db6", "namespace": "default"},
            "spec": {"replicas": 3, "selector": {"matchLabels": LABELS}},
        },
        ("apps/v1", "replicasets"),
    )
    running = start_scheduler()
    for i in range(3):
        pod = make_pod(f"web-{i}").namespace("default").scheduler_name(SCHEDULER)
        for key, value in LABELS.items():
            pod = pod.label(key, value)
        apiserver.create(pod.owner_reference("ReplicaSet", "web-6d4cf56db6").req(cpu="500m").obj())
        apiserver.wait_for(lambda i=i: node_of(apiserver, f"web-{i}"))
    placed = sorted(str(node_of(apiserver, f"web-{i}")) for i in range(3))
    assert placed == ["big-a", "small-b", "small-c"]
    assert running.stop() == 0
