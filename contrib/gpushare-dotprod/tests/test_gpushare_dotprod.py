"""DotProductScore: scores from the formula, by hand; the batch form equals the per-node
one."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from kubesched.testing import PluginHarness
from kubesched_gpushare.resources import GpuRequest
from kubesched_gpushare.testing import (
    assert_batch_agrees_on_random_cluster,
    assert_listed_out_of_tree,
    gpu_node,
    gpu_pod,
)
from kubesched_gpushare_dotprod import DotProductScore, dot_product_score, gpu_room


def test_dot_product() -> None:
    # (16000/128000)(64000/128000) + (500/8000)(4000/8000) = 0.0625 + 0.03125; / 2 = 0.046875
    assert dot_product_score(16000, 64000, 500, 4000) == 95
    assert dot_product_score(128000, 128000, 8000, 8000) == 0


def test_the_gpu_room_is_the_studys_share_dimension() -> None:
    free = (1000, 300, 600, 1000)
    # A share goes against the tightest partly used device with room for it...
    assert gpu_room(free, GpuRequest(1, 500)) == 600
    assert gpu_room(free, GpuRequest(1, 200)) == 300
    # ...else against the fully free devices together.
    assert gpu_room(free, GpuRequest(1, 700)) == 2000
    # Whole GPUs only ever see the fully free devices: the 900 milli left on devices 1
    # and 2 are not room for them (the summed free milli, 2900, is what it was before).
    assert gpu_room(free, GpuRequest(1, 1000)) == 2000
    assert gpu_room(free, GpuRequest(2, 1000)) == 2000
    assert gpu_room(free, GpuRequest()) == 0


def test_whole_gpus_go_where_no_partly_used_device_inflates_the_room() -> None:
    # Both nodes have two fully free GPUs; "scraps" also has two half-used ones. Counted
    # as free milli those would make it look roomier; for two whole GPUs they are not.
    nodes = [gpu_node("clean", 2), gpu_node("scraps", 4)]
    running = [
        gpu_pod("a", 1, 500, node="scraps", index="0"),
        gpu_pod("b", 1, 500, node="scraps", index="1"),
    ]
    scores = PluginHarness(DotProductScore, nodes=nodes, pods=running).score(
        gpu_pod("p", 2, 1000), normalize=False
    )
    assert scores["clean"] == scores["scraps"]


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
