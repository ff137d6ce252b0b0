"""GpuShare and the policies through the real scheduler (`kubesched.testing.simulate`):
devices recorded on the bound pods, never more than 1000 milli on a GPU, card models held."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kubesched.testing import SimulationRun, simulate
from kubesched_gpushare import GPU_INDEX, GPU_MODEL, gpu_request
from kubesched_gpushare.testing import gpu_node, gpu_pod, profile

POLICY_NAMES = [
    "RandomScore",
    "DotProductScore",
    "GpuClusteringScore",
    "GpuPackingScore",
    "BestFitScore",
    "FGDScore",
]


def gpu_use(run: SimulationRun) -> dict[str, list[int]]:
    """Node -> used milli per GPU, from the devices recorded on the bound pods."""
    nodes = {n.name: n for n in run.cluster.nodes()}
    used = {
        name: [0] * int(node.status.allocatable.get("alibabacloud.com/gpu-count", 0))
        for name, node in nodes.items()
    }
    for pod in run.cluster.pods():
        request = gpu_request(pod)
        if not pod.spec.node_name or not request.count:
            continue
        node = nodes[pod.spec.node_name]
        assert request.accepts(node.metadata.labels[GPU_MODEL]), pod.key
        indices = [int(i) for i in pod.metadata.annotations[GPU_INDEX].split("-")]
        assert len(set(indices)) == len(indices) == request.count, pod.key
        for i in indices:
            used[pod.spec.node_name][i] += request.milli
    return used


def test_shares_fill_one_gpu_before_the_next_with_packing() -> None:
    nodes = [gpu_node("n0", 2), gpu_node("n1", 2)]
    pods = [gpu_pod(f"p{i}", 1, 300) for i in range(6)]
    run = simulate(nodes, pods, profile("GpuPackingScore"))
    assert all(run.placements.values())
    used = gpu_use(run)
    assert sorted(u for gpus in used.values() for u in gpus) == [0, 0, 900, 900]


def test_a_pod_without_room_is_unschedulable_with_gpushare_reasons() -> None:
    nodes = [gpu_node("n0", 1, "T4"), gpu_node("n1", 2, "G2")]
    pods = [gpu_pod("big", 2, 1000, models="T4")]
    run = simulate(nodes, pods, profile("BestFitScore"))
    assert run.placements == {"default/big": None}
    assert run.outcome("default/big").message == (
        "0/2 nodes are available: 1 node(s) had fewer GPUs than requested, "
        "1 node(s) had no GPU of the requested card model."
    )


@pytest.mark.parametrize("policy", POLICY_NAMES)
@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_no_gpu_is_ever_over_1000_milli(policy: str, seed: int) -> None:
    rng = random.Random(seed)
    nodes = [
        gpu_node(f"n{i}", rng.choice([1, 2, 4, 8]), rng.choice(["G2", "T4"]), cpu="16")
        for i in range(rng.randrange(1, 5))
    ]
    pods = []
    for i in range(rng.randrange(1, 16)):
        count = rng.choice([0, 1, 1, 1, 2, 4])
        milli = rng.choice([100, 250, 500, 750, 1000]) if count == 1 else 1000
        pods.append(gpu_pod(f"p{i}", count, milli, cpu="2", models=rng.choice(["", "", "T4"])))
    run = simulate(nodes, pods, profile(policy), seed=seed)
    for node, used in gpu_use(run).items():
        assert all(0 <= u <= 1000 for u in used), (node, used)
    for pod in run.cluster.pods():
        if not pod.spec.node_name and gpu_request(pod).count:
            assert GPU_INDEX not in pod.metadata.annotations
