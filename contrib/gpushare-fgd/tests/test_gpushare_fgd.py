"""FGDScore: the sigmoid of the fragmentation drop, the GPU choice, args; the batch form
equals the per-node one."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kubesched.testing import PluginHarness, simulate
from kubesched_gpushare import GPU_INDEX, GpuRequest, TypicalPod
from kubesched_gpushare.replay.profiles import policy_config
from kubesched_gpushare.state import DEVICE_CHOICE_KEY, DeviceChoice
from kubesched_gpushare.testing import (
    assert_batch_agrees_on_random_cluster,
    assert_listed_out_of_tree,
    gpu_node,
    gpu_pod,
)
from kubesched_gpushare_fgd import FGDScore, FGDScoreArgs, frag_score, score_node


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


def test_fgd_ranks_nodes_by_fragmentation_growth() -> None:
    """Workload: one whole GPU. A GPU half used is a 500-milli fragment: a 500 share that
    fills it removes the fragment; on an idle node the share makes a new one."""
    nodes = [gpu_node("used", 2), gpu_node("idle", 2)]
    running = [gpu_pod("r", 1, 500, node="used", index="0")]
    args = {"typicalPods": [{"cpuMilli": 0, "weight": 1.0, "gpuCount": 1, "gpuMilli": 1000}]}
    harness = PluginHarness(FGDScore, args, nodes=nodes, pods=running)
    scores = harness.score(gpu_pod("p", 1, 500), normalize=False)
    # used: F 500 -> 0 (the share fills the half GPU): sigmoid(0.5) = 0.62
    # idle: F 0 -> 500: sigmoid(-0.5) = 0.377
    assert scores == {"used": 62, "idle": 37}


def test_fgd_args_are_validated() -> None:
    args = FGDScoreArgs(coverage=0)
    assert args.validate("p") == ["p.coverage: Invalid value: 0: must be in (0, 100]"]


def test_listed_as_its_own_out_of_tree_distribution() -> None:
    assert_listed_out_of_tree("FGDScore", "kubesched-gpushare-fgd", ["Score"])


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_score_batch_agrees_with_score(seed: int) -> None:
    assert_batch_agrees_on_random_cluster(FGDScore, seed)


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_the_scheduler_with_the_study_weight_follows_the_fragmentation_drop(seed: int) -> None:
    """Through the real scheduler, with the study's profile (FGDScore alone, weight 1000):
    the framework's weighting scales every node alike, so the pod goes to the node (and the
    device) where it removes a fragment, whatever the seed."""
    workload = [TypicalPod(0, GpuRequest(1, 1000), 1.0)]
    nodes = [gpu_node("used", 2), *(gpu_node(f"idle{i}", 2) for i in range(4))]
    running = [gpu_pod("r", 1, 500, node="used", index="1")]
    run = simulate(
        nodes, [*running, gpu_pod("p", 1, 500)], policy_config("fgd", workload), seed=seed
    )
    assert run.placements["default/p"] == "used"
    [pod] = [p for p in run.cluster.pods() if p.metadata.name == "p"]
    assert pod.metadata.annotations[GPU_INDEX] == "1"
