"""With PodLevelResources off the scheduler ignores pod-level `spec.resources`, as
upstream's resource helpers skip them: in Filter, Score, preemption and the node
summary alike."""

from __future__ import annotations

from typing import Any

from kubesched.api import Node, Pod, structure
from kubesched.api._defaults import default_pod
from kubesched.features import parse_feature_gates
from kubesched.scheduler.gated_source import without_pod_level_resources
from kubesched.testing import simulate

OFF = "PodLevelResources=false"


def _node(name: str, cpu: str) -> Node:
    body = {"metadata": {"name": name}, "status": {"allocatable": {"cpu": cpu, "pods": "10"}}}
    return structure(body, Node)


def _pod(name: str, container_cpu: str, pod_cpu: str, **spec: Any) -> Pod:
    body = {
        "metadata": {"name": name, "namespace": "default", "uid": name},
        "spec": {
            "containers": [{"name": "c", "resources": {"requests": {"cpu": container_cpu}}}],
            "resources": {"requests": {"cpu": pod_cpu}},
            **spec,
        },
    }
    return default_pod(structure(body, Pod))


def test_filter_counts_only_the_containers() -> None:
    nodes, pods = [_node("n1", "2")], [_pod("p", "1", "3")]
    [on] = simulate(nodes, pods).result.outcomes
    [off] = simulate(nodes, pods, feature_gates=OFF).result.outcomes
    assert (on.status, off.status, off.node) == ("Unschedulable", "Scheduled", "n1")


def test_score_counts_only_the_containers() -> None:
    """LeastAllocated: a bound pod's pod-level request makes n1 look fuller than n2 only
    while the gate is on."""
    running = _pod("running", "100m", "1500m", nodeName="n1")
    other = _pod("other", "500m", "500m", nodeName="n2")
    pending = _pod("p", "100m", "100m")
    nodes = [_node("n1", "2"), _node("n2", "2")]
    [on] = simulate(nodes, [running, other, pending]).result.outcomes
    [off] = simulate(nodes, [running, other, pending], feature_gates=OFF).result.outcomes
    assert (on.node, off.node) == ("n2", "n1")


def test_preemption_frees_only_the_victims_container_requests() -> None:
    """With the gate on the victim holds its pod-level 2 CPUs and must go for the 2-CPU
    preemptor; off, it holds only its container's 500m and the preemptor fits beside it."""
    victim = _pod("victim", "500m", "2", nodeName="n1", priority=0)
    filler = _pod("filler", "1500m", "1500m", nodeName="n1", priority=100)
    preemptor = _pod("preemptor", "2", "2", priority=10)
    nodes = [_node("n1", "4")]
    [on] = simulate(nodes, [victim, filler, preemptor]).result.outcomes
    [off] = simulate(nodes, [victim, filler, preemptor], feature_gates=OFF).result.outcomes
    assert (off.node, off.victims, off.attempts) == ("n1", [], 1)  # 500m + 1500m leave 2 free
    assert (on.node, on.nominated_node, on.victims) == ("n1", "n1", ["default/victim"])


def test_the_summary_counts_only_the_containers() -> None:
    pods = [_pod("running", "1", "3", nodeName="n1")]
    [on] = simulate([_node("n1", "4")], pods).result.summary.nodes
    [off] = simulate([_node("n1", "4")], pods, feature_gates=OFF).result.summary.nodes
    assert (on.cpu_requested, off.cpu_requested) == (3000, 1000)


def test_the_view_leaves_other_objects_and_plain_pods_alone() -> None:
    plain = default_pod(structure({"metadata": {"name": "p"}, "spec": {"containers": []}}, Pod))
    assert without_pod_level_resources(plain) is plain
    node = _node("n", "1")
    assert without_pod_level_resources(node) is node
    assert without_pod_level_resources(_pod("p", "1", "2")).spec.resources is None
    assert parse_feature_gates(OFF).enabled("PodLevelResources") is False
