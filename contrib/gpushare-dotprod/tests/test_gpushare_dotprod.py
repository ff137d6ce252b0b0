"""DotProductScore: scores from the formula, by hand; the batch form equals the per-node
one."""

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
from kubesched_gpushare_dotprod import DotProductScore, dot_product_score


def test_dot_product() -> None:
    # (16000/128000)(64000/128000) + (500/8000)(4000/8000) = 0.0625 + 0.03125; / 2 = 0.046875
    assert dot_product_score(16000, 64000, 500, 4000) == 95
    assert dot_product_score(128000, 128000, 8000, 8000) == 0


def test_less_room_along_the_demand_scores_higher() -> None:
    nodes = [gpu_node("roomy", 8), gpu_node("tight", 1)]
    scores = PluginHarness(DotProductScore, nodes=nodes).score(gpu_pod("p"), normalize=False)
    assert scores["tight"] > scores["roomy"]


def test_listed_as_its_own_out_of_tree_distribution() -> None:
    assert_listed_out_of_tree("DotProductScore", "kubesched-gpushare-dotprod", ["Score"])


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_score_batch_agrees_with_score(seed: int) -> None:
    assert_batch_agrees_on_random_cluster(DotProductScore, seed)
