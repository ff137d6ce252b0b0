"""GpuClusteringScore: the four tiers by hand; the batch form equals the per-node one."""

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
from kubesched_gpushare_clustering import GpuClusteringScore, clustering_score, gpu_class


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


def test_classes() -> None:
    assert gpu_class(GpuRequest()) == ""
    assert gpu_class(GpuRequest(1, 300)) == "share-gpu"
    assert gpu_class(GpuRequest(4, 1000)) == "4-gpu"


def test_a_share_joins_the_node_of_shares() -> None:
    nodes = [gpu_node("shares", 8), gpu_node("whole", 8), gpu_node("idle", 8)]
    running = [
        gpu_pod("s", 1, 500, node="shares", index="0"),
        gpu_pod("w", 1, 1000, node="whole", index="0"),
    ]
    harness = PluginHarness(GpuClusteringScore, nodes=nodes, pods=running)
    scores = harness.score(gpu_pod("p", 1, 300), normalize=False)
    # u = 25 x 500 // 8000 = 1 on "shares", 25 x 1000 // 8000 = 3 on "whole"
    assert scores == {"shares": 76, "whole": 3, "idle": 25}


def test_listed_as_its_own_out_of_tree_distribution() -> None:
    assert_listed_out_of_tree("GpuClusteringScore", "kubesched-gpushare-clustering", ["Score"])


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_score_batch_agrees_with_score(seed: int) -> None:
    assert_batch_agrees_on_random_cluster(GpuClusteringScore, seed)
