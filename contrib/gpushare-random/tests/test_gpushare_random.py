"""RandomScore: one feasible node gets the maximum; the batch form equals the per-node one."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from kubesched.testing import PluginHarness
from kubesched_gpushare.testing import (
    assert_batch_agrees_on_random_cluster,
    assert_listed_out_of_tree,
    gpu_node,
    gpu_pod,
)
from kubesched_gpushare_random import RandomScore


def test_random_gives_one_feasible_node_the_maximum() -> None:
    nodes = [gpu_node(f"n{i}", 2) for i in range(5)]
    scores = PluginHarness(RandomScore, nodes=nodes).score(gpu_pod("p"), normalize=False)
    assert sorted(scores.values()) == [0, 0, 0, 0, 100]


def test_every_node_gets_drawn_over_many_cycles() -> None:
    nodes = [gpu_node(f"n{i}", 2) for i in range(4)]
    harness = PluginHarness(RandomScore, nodes=nodes)
    winners = set()
    for _ in range(60):
        harness.new_cycle()
        scores = harness.score(gpu_pod("p"), normalize=False)
        winners.add(max(scores, key=lambda n: scores[n]))
    assert winners == {"n0", "n1", "n2", "n3"}


def test_listed_as_its_own_out_of_tree_distribution() -> None:
    assert_listed_out_of_tree("RandomScore", "kubesched-gpushare-random", ["PreScore", "Score"])


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_score_batch_agrees_with_score(seed: int) -> None:
    assert_batch_agrees_on_random_cluster(RandomScore, seed)
