"""BestFitScore: scores from the formula, by hand; the batch form equals the per-node one."""

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
from kubesched_gpushare_bestfit import BestFitScore, best_fit_score


def test_best_fit() -> None:
    # 1 - (0.5 x 64000/128000 + 0.5 x 2000/8000) = 0.625
    assert best_fit_score(64000, 2000) == 62
    assert best_fit_score(0, 0) == 100
    assert best_fit_score(128000, 8000) == 0


def test_the_tightest_node_scores_highest() -> None:
    nodes = [gpu_node("roomy", 8), gpu_node("tight", 2, cpu="8")]
    scores = PluginHarness(BestFitScore, nodes=nodes).score(gpu_pod("p", 1, 500), normalize=False)
    # roomy: 1 - (0.5 x 95000/128000 + 0.5 x 7500/8000) = 0.160
    # tight: 1 - (0.5 x 7000/128000 + 0.5 x 1500/8000) = 0.879
    assert scores == {"roomy": 16, "tight": 87}


def test_listed_as_its_own_out_of_tree_distribution() -> None:
    assert_listed_out_of_tree("BestFitScore", "kubesched-gpushare-bestfit", ["Score"])


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_score_batch_agrees_with_score(seed: int) -> None:
    assert_batch_agrees_on_random_cluster(BestFitScore, seed)
