"""GpuShare's Filter (reasons, batch form) and Reserve/Unreserve (devices recorded)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kubesched.api import Pod
from kubesched.framework import Code, PreFilterResult
from kubesched.testing import PluginHarness, assert_batch_agrees
from kubesched_gpushare import GPU_INDEX, GpuShare
from kubesched_gpushare.plugin import (
    REASON_MODEL,
    REASON_NO_GPU,
    REASON_NO_ROOM,
    REASON_TOO_FEW,
)
from kubesched_gpushare.testing import gpu_node, gpu_pod, random_cluster, random_gpu_pod

NODES = [gpu_node("g2", 2, "G2"), gpu_node("t4", 2, "T4"), gpu_node("cpu", 0, "")]
RUNNING = [gpu_pod("r1", 1, 700, node="g2", index="0"), gpu_pod("r2", 1, 200, node="g2", index="1")]


@pytest.mark.parametrize(
    ("pod", "expected"),
    [
        (gpu_pod("p", 0), {"g2": None, "t4": None, "cpu": None}),
        (
            gpu_pod("p", 1, 900),
            {
                "g2": (Code.UNSCHEDULABLE, REASON_NO_ROOM),
                "t4": None,
                "cpu": (Code.UNSCHEDULABLE_AND_UNRESOLVABLE, REASON_NO_GPU),
            },
        ),
        (
            gpu_pod("p", 1, 300),
            {"g2": None, "t4": None, "cpu": (Code.UNSCHEDULABLE_AND_UNRESOLVABLE, REASON_NO_GPU)},
        ),
        (
            gpu_pod("p", 1, 300, models="T4|A10"),
            {
                "g2": (Code.UNSCHEDULABLE_AND_UNRESOLVABLE, REASON_MODEL),
                "t4": None,
                "cpu": (Code.UNSCHEDULABLE_AND_UNRESOLVABLE, REASON_NO_GPU),
            },
        ),
        (
            gpu_pod("p", 4, 1000),
            {
                "g2": (Code.UNSCHEDULABLE_AND_UNRESOLVABLE, REASON_TOO_FEW),
                "t4": (Code.UNSCHEDULABLE_AND_UNRESOLVABLE, REASON_TOO_FEW),
                "cpu": (Code.UNSCHEDULABLE_AND_UNRESOLVABLE, REASON_NO_GPU),
            },
        ),
        (
            gpu_pod("p", 2, 1000),
            {
                "g2": (Code.UNSCHEDULABLE, REASON_NO_ROOM),
                "t4": None,
                "cpu": (Code.UNSCHEDULABLE_AND_UNRESOLVABLE, REASON_NO_GPU),
            },
        ),
    ],
)
def test_filter(pod: Pod, expected: dict[str, tuple[Code, str] | None]) -> None:
    harness = PluginHarness(GpuShare, nodes=NODES, pods=RUNNING)
    assert harness.pre_filter(pod) is None
    got = {
        name: None if status is None else (status.code, status.message)
        for name, status in harness.filter(pod).items()
    }
    assert got == expected
    assert_batch_agrees(GpuShare, pod, NODES, pods=RUNNING)


def test_unreadable_annotations_make_the_pod_unschedulable_at_pre_filter() -> None:
    pod = gpu_pod("p", 2, 500)
    status = PluginHarness(GpuShare, nodes=NODES).pre_filter(pod)
    assert status is not None and not isinstance(status, PreFilterResult)
    assert status.code == Code.UNSCHEDULABLE_AND_UNRESOLVABLE
    assert "alibabacloud.com/gpu-milli: Invalid value: 500" in status.message


def test_narrow_nodes_names_the_nodes_with_room() -> None:
    harness = PluginHarness(GpuShare, {"narrowNodes": True}, nodes=NODES, pods=RUNNING)
    assert harness.pre_filter(gpu_pod("p", 1, 300)) == PreFilterResult(frozenset({"g2", "t4"}))
    harness.new_cycle()
    assert harness.pre_filter(gpu_pod("q", 0)) is None


def test_reserve_records_the_best_device_and_the_next_pod_sees_it() -> None:
    harness = PluginHarness(GpuShare, nodes=NODES, pods=RUNNING)
    first = gpu_pod("a", 1, 300)
    assert harness.pre_filter(first) is None
    assert harness.reserve(first, "t4") is None
    assert first.metadata.annotations[GPU_INDEX] == "0"
    harness.new_cycle()
    second = gpu_pod("b", 1, 700)
    harness.pre_filter(second)
    assert harness.reserve(second, "t4") is None
    assert second.metadata.annotations[GPU_INDEX] == "0"  # 700 free on 0: the least that fits
    harness.new_cycle()
    third = gpu_pod("c", 2, 1000)
    harness.pre_filter(third)
    assert harness.filter(third)["t4"] is not None
    harness.unreserve(second, "t4")
    assert GPU_INDEX not in second.metadata.annotations
    harness.new_cycle()
    whole = gpu_pod("d", 1, 1000)
    harness.pre_filter(whole)
    assert harness.reserve(whole, "t4") is None
    assert whole.metadata.annotations[GPU_INDEX] == "1"


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32))
def test_filter_batch_agrees_with_filter(seed: int) -> None:
    rng = random.Random(seed)
    nodes, running = random_cluster(rng)
    assert_batch_agrees(GpuShare, random_gpu_pod(rng), nodes, pods=running)
