"""The resource model: reading requests, free milli per device, the "best" pick."""

from __future__ import annotations

import pytest

from kubesched.framework import NodeInfo
from kubesched.testing import make_pod
from kubesched_gpushare import GPU_COUNT, GPU_MILLI, GpuRequest, GpuRequestError, gpu_request
from kubesched_gpushare.resources import best_devices, free_milli
from kubesched_gpushare.testing import gpu_node, gpu_pod


@pytest.mark.parametrize(
    ("annotations", "expected"),
    [
        ({}, GpuRequest()),
        ({GPU_COUNT: "1", GPU_MILLI: "460"}, GpuRequest(1, 460)),
        ({GPU_COUNT: "2", GPU_MILLI: "1000"}, GpuRequest(2, 1000)),
        ({GPU_COUNT: "2"}, GpuRequest(2, 1000)),
        ({GPU_MILLI: "300"}, GpuRequest(1, 300)),
        ({GPU_COUNT: "1", GPU_MILLI: "1500"}, GpuRequest(1, 1000)),
        ({GPU_COUNT: "0", GPU_MILLI: "0"}, GpuRequest()),
    ],
)
def test_gpu_request(annotations: dict[str, str], expected: GpuRequest) -> None:
    builder = make_pod("p")
    for key, value in annotations.items():
        builder = builder.annotation(key, value)
    assert gpu_request(builder.obj()) == expected


def test_card_models_are_a_bar_separated_list() -> None:
    request = gpu_request(gpu_pod("p", 1, 500, models="V100M16|V100M32"))
    assert request.models == {"V100M16", "V100M32"}
    assert request.accepts("V100M32") and not request.accepts("T4")
    assert GpuRequest(1, 500).accepts("anything")


@pytest.mark.parametrize(
    ("annotations", "message"),
    [
        (
            {GPU_COUNT: "two"},
            "pod .*p: annotation alibabacloud.com/gpu-count: Invalid value: "
            "'two': must be an integer",
        ),
        (
            {GPU_MILLI: "-5"},
            "annotation alibabacloud.com/gpu-milli: Invalid value: '-5': must not be negative",
        ),
        ({GPU_COUNT: "2", GPU_MILLI: "500"}, "must be 1000 when alibabacloud.com/gpu-count is 2"),
    ],
)
def test_bad_annotations_name_the_pod_and_annotation(
    annotations: dict[str, str], message: str
) -> None:
    builder = make_pod("p")
    for key, value in annotations.items():
        builder = builder.annotation(key, value)
    with pytest.raises(GpuRequestError, match=message.replace("|", r"\|")):
        gpu_request(builder.obj())


def test_free_milli_follows_recorded_devices() -> None:
    node = gpu_node("n", 4)
    pods = [
        gpu_pod("a", 1, 300, node="n", index="2"),
        gpu_pod("b", 1, 500, node="n", index="2"),
        gpu_pod("c", 2, 1000, node="n", index="0-3"),
    ]
    info = NodeInfo(node)
    for pod in pods:
        info.add_pod(pod)
    assert free_milli(info) == (0, 1000, 200, 0)


def test_unrecorded_pods_are_placed_as_reserve_would() -> None:
    """A bound pod without (or with an invalid) record takes the best devices."""
    info = NodeInfo(gpu_node("n", 2))
    info.add_pod(gpu_pod("a", 1, 600, node="n", index="1"))
    info.add_pod(gpu_pod("b", 1, 300, node="n"))
    info.add_pod(gpu_pod("c", 1, 100, node="n", index="7"))
    # b goes to device 1 (400 free, the least that fits), then c to device 1 (100 free).
    assert free_milli(info) == (1000, 0)


def test_cpu_only_pods_and_nodes_without_gpus() -> None:
    info = NodeInfo(gpu_node("n", 0))
    info.add_pod(gpu_pod("cpu-only", 0, node="n"))
    assert free_milli(info) == ()


@pytest.mark.parametrize(
    ("free", "asked", "expected"),
    [
        ((1000, 400, 700), GpuRequest(1, 300), (1,)),
        ((1000, 400, 700), GpuRequest(1, 500), (2,)),
        ((1000, 400, 400), GpuRequest(1, 300), (1,)),
        ((1000, 400, 1000, 1000), GpuRequest(2, 1000), (0, 2)),
        ((1000, 400), GpuRequest(2, 1000), None),
        ((200, 100), GpuRequest(1, 300), None),
    ],
)
def test_best_devices(
    free: tuple[int, ...], asked: GpuRequest, expected: tuple[int, ...] | None
) -> None:
    assert best_devices(free, asked) == expected
