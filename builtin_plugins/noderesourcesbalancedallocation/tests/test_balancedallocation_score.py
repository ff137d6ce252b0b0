"""PreScore and Score, re-expressing upstream's TestNodeResourcesBalancedAllocation (every
case that does not need dynamic resource allocation)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from kubesched.api import Node, Pod
from kubesched.framework import Code, CycleState, NodeInfo, PodInfo, Status
from kubesched.testing import PluginHarness, make_node, make_pod
from kubesched_noderesourcesbalancedallocation import NodeResourcesBalancedAllocation

NAME = "NodeResourcesBalancedAllocation"
GPU = "nvidia.com/gpu"
DEFAULT = None
WITH_GPU = {
    "resources": [
        {"name": "cpu", "weight": 1},
        {"name": "memory", "weight": 1},
        {"name": GPU, "weight": 1},
    ]
}


def node(name: str, milli_cpu: int, memory: int, gpus: int = 0) -> Node:
    resources: dict[str, str | int] = {"cpu": f"{milli_cpu}m", "memory": memory}
    if gpus:
        resources[GPU] = gpus
    return make_node(name).capacity(resources).obj()


def cpu_only(name: str = "cpu-only", node_name: str = "") -> Pod:
    return (
        make_pod(name)
        .node(node_name)
        .req(cpu="1000m", memory="0")
        .req(cpu="2000m", memory="0")
        .obj()
    )


def cpu_and_memory(name: str = "cpu-and-memory", node_name: str = "") -> Pod:
    return (
        make_pod(name)
        .node(node_name)
        .req(cpu="1000m", memory="2000")
        .req(cpu="2000m", memory="3000")
        .obj()
    )


def cpu_memory_gpu(name: str, node_name: str) -> Pod:
    return (
        make_pod(name)
        .node(node_name)
        .req(cpu="1000m", memory="2000")
        .req({"cpu": "2000m", "memory": "3000", GPU: 3})
        .obj()
    )


RUNNING = [cpu_only("running-1", "node1"), cpu_and_memory("running-2", "node2")]

# (name, pod, running pods, nodes, args, expected scores)
CASES: list[tuple[str, Pod, list[Pod], list[Node], Mapping[str, object] | None, dict[str, int]]] = [
    (
        "nothing scheduled, resources requested, differently sized nodes",
        cpu_and_memory(),
        [],
        [node("node1", 4000, 10000), node("node2", 6000, 10000)],
        DEFAULT,
        {"node1": 87, "node2": 100},
    ),
    (
        "resources requested, pods scheduled with resources",
        cpu_and_memory(),
        RUNNING,
        [node("node1", 10000, 20000), node("node2", 10000, 20000)],
        DEFAULT,
        {"node1": 82, "node2": 95},
    ),
    (
        "resources requested, pods scheduled with resources, differently sized nodes",
        cpu_and_memory(),
        RUNNING,
        [node("node1", 10000, 20000), node("node2", 10000, 50000)],
        DEFAULT,
        {"node1": 82, "node2": 80},
    ),
    (
        "requested resources at node capacity",
        cpu_only(),
        RUNNING,
        [node("node1", 6000, 10000), node("node2", 6000, 10000)],
        DEFAULT,
        {"node1": 50, "node2": 75},
    ),
    (
        "include scalar resource on a node for balanced resource allocation",
        make_pod("gpu").req({"memory": "0", GPU: 1}).obj(),
        [cpu_and_memory("running-2", "node2"), cpu_memory_gpu("running-3", "node1")],
        [node("node1", 3500, 40000, gpus=8), node("node2", 3500, 40000, gpus=8)],
        WITH_GPU,
        {"node1": 70, "node2": 65},
    ),
    (
        "node without the scalar resource should skip the scalar resource",
        cpu_and_memory(),
        [],
        [node("node1", 3500, 40000, gpus=8), node("node2", 3500, 40000)],
        WITH_GPU,
        {"node1": 63, "node2": 63},
    ),
]


@pytest.mark.parametrize(
    ("name", "pod", "running", "nodes", "args", "expected"), CASES, ids=[c[0] for c in CASES]
)
def test_score(
    name: str,
    pod: Pod,
    running: list[Pod],
    nodes: list[Node],
    args: Mapping[str, object] | None,
    expected: dict[str, int],
) -> None:
    harness = PluginHarness(NodeResourcesBalancedAllocation, args, nodes=nodes, pods=running)
    assert harness.score(pod, normalize=False) == expected  # the per-node hook
    harness.new_cycle()
    assert harness.score(pod) == expected  # the batch hook, through the framework


def _infos(nodes: Sequence[Node], running: Sequence[Pod]) -> list[NodeInfo]:
    return [
        NodeInfo(n, [PodInfo(p) for p in running if p.spec.node_name == n.metadata.name])
        for n in nodes
    ]


def test_score_without_pre_score_computes_the_requests() -> None:
    plugin = NodeResourcesBalancedAllocation()
    infos = _infos([node("node1", 10000, 20000), node("node2", 10000, 20000)], RUNNING)
    scores = [plugin.score(CycleState(), cpu_and_memory(), ni) for ni in infos]
    assert scores == [82, 95]


def test_best_effort_pod_skips_at_pre_score_and_scores_zero_without_it() -> None:
    plugin = NodeResourcesBalancedAllocation()
    pod = make_pod("best-effort").container("nginx").obj()
    assert plugin.pre_score(CycleState(), pod) == Status(Code.SKIP)
    [info] = _infos([node("node1", 4000, 10000)], [])
    assert plugin.score(CycleState(), pod, info) == 0
    harness = PluginHarness(NodeResourcesBalancedAllocation, nodes=[node("node1", 4000, 10000)])
    assert harness.score(pod) == {}
    assert NAME in harness.state.skip_score_plugins


def test_requests_are_not_defaulted_for_containers_without_them() -> None:
    # A pod asking for cpu only: memory counts as 0, not as the 200Mi scoring default.
    pod = make_pod("cpu").req(cpu="1").obj()
    [info] = _infos([node("node1", 4000, 1024 * 1024 * 1024)], [])
    # cpu 1000/4000 = 0.25, memory 0 -> spread 0.125 -> 87
    assert NodeResourcesBalancedAllocation().score(CycleState(), pod, info) == 87


def test_three_resources_use_the_standard_deviation() -> None:
    # cpu 0.5, memory 0.25, ephemeral-storage 1 (capped): mean 0.5833.., std 0.3118.. -> 68
    pod = make_pod("p").req(cpu="2", memory="250", ephemeral_storage="2000").obj()
    n = make_node("n").capacity(cpu="4", memory="1000", ephemeral_storage="1000").obj()
    args = {
        "resources": [
            {"name": "cpu"},
            {"name": "memory"},
            {"name": "ephemeral-storage"},
        ]
    }
    assert PluginHarness(NodeResourcesBalancedAllocation, args, nodes=[n]).score(pod) == {"n": 68}


def test_a_resource_named_but_not_scalar_is_left_out() -> None:
    # "pods" is neither cpu, memory, ephemeral storage nor a scalar resource: upstream
    # leaves it out, so only cpu and memory count.
    pod = make_pod("p").req(cpu="1", memory="100").obj()
    n = make_node("n").capacity(cpu="4", memory="1000").obj()
    args = {"resources": [{"name": "cpu"}, {"name": "memory"}, {"name": "pods"}]}
    # cpu 0.25, memory 0.1 -> spread 0.075 -> 92
    assert PluginHarness(NodeResourcesBalancedAllocation, args, nodes=[n]).score(pod) == {"n": 92}
