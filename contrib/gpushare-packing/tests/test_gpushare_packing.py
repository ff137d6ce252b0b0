"""GpuPackingScore: the tiers by hand; the batch form equals the per-node one."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kubesched.testing import PluginHarness
from kubesched_gpushare import GpuRequest
from kubesched_gpushare.testing import (
    assert_batch_agrees_on_random_cluster,
    assert_listed_out_of_tree,
    gpu_node,
    gpu_pod,
)
from kubesched_gpushare_packing import GpuPackingScore, packing_score


@pytest.mark.parametrize(
    ("free", "asked", "expected"),
    [
        ((1000, 1000), GpuRequest(1, 500), 31),  # idle node of 2 GPUs: max(33 - 2, 2)
        ((1000,) * 8, GpuRequest(1, 500), 25),
        ((1000, 600), GpuRequest(1, 500), 94),  # shared GPU with 60% free: 100 - 60 // 10
        ((1000, 200), GpuRequest(1, 500), 49),  # a fully free GPU on a used node: 50 - 1
        ((1000, 1000, 1000, 0), GpuRequest(2, 1000), 48),
        ((0, 200), GpuRequest(1, 500), None),
    ],
)
def test_gpu_packing(free: tuple[int, ...], asked: GpuRequest, expected: int | None) -> None:
    assert packing_score(free, asked) == expected


def test_a_cpu_only_pod_scores_zero_everywhere() -> None:
    nodes = [gpu_node("a", 2), gpu_node("b", 8)]
    scores = PluginHarness(GpuPackingScore, nodes=nodes).score(gpu_pod("p", 0), normalize=False)
    assert scores == {"a": 0, "b": 0}


def test_listed_as_its_own_out_of_tree_distribution() -> None:
    assert_listed_out_of_tree("GpuPackingScore", "kubesched-gpushare-packing", ["Score"])


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_score_batch_agrees_with_score(seed: int) -> None:
    assert_batch_agrees_on_random_cluster(GpuPackingScore, seed)
