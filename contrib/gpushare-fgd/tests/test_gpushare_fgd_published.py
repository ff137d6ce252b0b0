"""FGDScore without `typicalPods` measures against the target workload a Namespace publishes
(as the OpenB trace formats do), before falling back to the cluster's pods."""

from __future__ import annotations

import pytest

from kubesched.api import Namespace, ObjectMeta
from kubesched.errors import PluginError
from kubesched.testing import PluginHarness
from kubesched_gpushare import GpuRequest, TypicalPod
from kubesched_gpushare.published import TARGET_WORKLOAD, publishing_namespace
from kubesched_gpushare.testing import gpu_node, gpu_pod
from kubesched_gpushare_fgd import FGDScore

# The "used" node has half a GPU free. Against whole GPUs that half is a fragment a 500 share
# removes (used wins); against 500-milli shares it is no fragment at all, and the idle
# node's second GPU stays whole either way: the workload decides the ranking.
NODES = [gpu_node("used", 2), gpu_node("idle", 2)]
RUNNING = [gpu_pod("r", 1, 500, node="used", index="0")]
WHOLE = [TypicalPod(0, GpuRequest(1, 1000), 1.0)]


def test_the_published_workload_is_used_when_the_args_name_none() -> None:
    harness = PluginHarness(
        FGDScore, {}, nodes=NODES, pods=RUNNING, namespaces=[publishing_namespace(WHOLE)]
    )
    assert harness.score(gpu_pod("p", 1, 500), normalize=False) == {"used": 62, "idle": 37}
    assert harness.plugin.workload == WHOLE


def test_typical_pods_in_the_args_win_over_the_published_workload() -> None:
    args = {"typicalPods": [{"cpuMilli": 0, "weight": 1.0, "gpuCount": 1, "gpuMilli": 250}]}
    harness = PluginHarness(
        FGDScore, args, nodes=NODES, pods=RUNNING, namespaces=[publishing_namespace(WHOLE)]
    )
    harness.score(gpu_pod("p", 1, 500), normalize=False)
    assert harness.plugin.workload == [TypicalPod(0, GpuRequest(1, 250), 1.0)]


def test_without_a_published_workload_the_cluster_pods_are_the_target() -> None:
    harness = PluginHarness(FGDScore, {}, nodes=NODES, pods=RUNNING)
    harness.score(gpu_pod("p", 1, 500), normalize=False)
    assert harness.plugin.workload == [TypicalPod(1000, GpuRequest(1, 500), 1.0)]


def test_an_unreadable_annotation_is_an_error_naming_the_namespace() -> None:
    bad = Namespace(ObjectMeta(name="team-a", annotations={TARGET_WORKLOAD: "[{}]"}))
    harness = PluginHarness(FGDScore, {}, nodes=NODES, pods=RUNNING, namespaces=[bad])
    with pytest.raises(PluginError, match=f"Namespace team-a: annotation {TARGET_WORKLOAD}"):
        harness.score(gpu_pod("p", 1, 500), normalize=False)
