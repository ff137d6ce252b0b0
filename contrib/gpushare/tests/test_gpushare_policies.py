"""The six policies: hand-computed scores from their formulas, and batch forms equal to
the per-node ones on random clusters."""

from __future__ import annotations

import random

import pytest
from gpushare_testlib import gpu_node, gpu_pod
from hypothesis import given, settings
from hypothesis import strategies as st
from test_gpushare_filter import _cluster, random_gpu_pod

from kubesched.testing import PluginHarness, assert_batch_agrees
from kubesched_gpushare import (
    BestFitScore,
    DotProductScore,
    FGDScore,
    GpuClusteringScore,
    GpuPackingScore,
    GpuRequest,
    RandomScore,
    TypicalPod,
)
from kubesched_gpushare.policies.bestfit import best_fit_score
from kubesched_gpushare.policies.clustering import clustering_score
from kubesched_gpushare.policies.dotprod import dot_product_score
from kubesched_gpushare.policies.fgd_kernel import frag_score, score_node
from kubesched_gpushare.policies.packing import packing_score
from kubesched_gpushare.state import DEVICE_CHOICE_KEY, DeviceChoice


def test_best_fit() -> None:
    # 1 - (0.5 x 64000/128000 + 0.5 x 2000/8000) = 0.625
    assert best_fit_score(64000, 2000) == 62
    assert best_fit_score(0, 0) == 100
    assert best_fit_score(128000, 8000) == 0


def test_dot_product() -> None:
    # (16000/128000)(64000/128000) + (500/8000)(4000/8000) = 0.0625 + 0.03125; / 2 = 0.046875
    assert dot_product_score(16000, 64000, 500, 4000) == 95
    assert dot_product_score(128000, 128000, 8000, 8000) == 0


@pytest.mark.parametrize(
    ("classes", "gpu_free", "expected"),
    [
        ({"share-gpu"}, 4000, 75 + 12),
        ({"share-gpu", "1-gpu"}, 4000, 50 + 12),
        (set(), 8000, 25),
        ({"8-gpu"}, 0, 25),
    ],
)
def test_gpu_clustering(classes: set[str], gpu_free: int, expected: int) -> None:
    assert clustering_score("share-gpu", frozenset(classes), gpu_free) == expected


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


def test_fgd_score_is_the_sigmoid_of_the_fragmentation_drop() -> None:
    assert frag_score(1000.0, 1000.0) == 50
    assert frag_score(0.0, 1000.0) == 26  # 100 / (1 + e) = 26.89
    assert frag_score(2000.0, 0.0) == 88  # 100 / (1 + e^-2) = 88.08
    assert frag_score(0.0, 10_000_000.0) == 0


def test_fgd_puts_a_share_where_it_strands_the_least() -> None:
    """Workload: only 500-milli shares. On (1000, 600), a 400 share on device 1 leaves
    (1000, 200): 200 stranded; on device 0 it leaves (600, 600): nothing stranded."""
    workload = [TypicalPod(0, GpuRequest(1, 500), 1.0)]
    score, device = score_node((1000, 600), 8000, "A", 0, GpuRequest(1, 400), workload)
    assert device == 0
    assert score == frag_score(0.0, 0.0)


def test_fgd_records_its_device_choice_for_reserve() -> None:
    nodes = [gpu_node("n", 2)]
    running = [gpu_pod("r", 1, 400, node="n", index="1")]
    args = {"typicalPods": [{"cpuMilli": 0, "weight": 1.0, "gpuCount": 1, "gpuMilli": 500}]}
    harness = PluginHarness(FGDScore, args, nodes=nodes, pods=running)
    pod = gpu_pod("p", 1, 400)
    harness.score(pod, normalize=False)
    assert harness.state.read_as(DEVICE_CHOICE_KEY, DeviceChoice).by_node == {"n": (0,)}


def test_fgd_args_are_validated() -> None:
    from kubesched_gpushare import FGDScoreArgs

    args = FGDScoreArgs(coverage=0)
    assert args.validate("p") == ["p.coverage: Invalid value: 0: must be in (0, 100]"]


def test_random_gives_one_feasible_node_the_maximum() -> None:
    nodes = [gpu_node(f"n{i}", 2) for i in range(5)]
    scores = PluginHarness(RandomScore, nodes=nodes).score(gpu_pod("p"), normalize=False)
    assert sorted(scores.values()) == [0, 0, 0, 0, 100]


POLICIES = [
    RandomScore,
    DotProductScore,
    GpuClusteringScore,
    GpuPackingScore,
    BestFitScore,
    FGDScore,
]


@pytest.mark.parametrize("policy", POLICIES, ids=lambda p: p.name)
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_score_batch_agrees_with_score(policy: type, seed: int) -> None:
    rng = random.Random(seed)
    nodes, running = _cluster(rng)
    assert_batch_agrees(policy, random_gpu_pod(rng), nodes, pods=running)
