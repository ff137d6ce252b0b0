"""The GPU-sharing resource model in Kubernetes terms (Open-Gpu-Share's annotations).

A node offers `alibabacloud.com/gpu-count` GPUs (its allocatable), each a
device of 1000 milli, all of the model in its label
`alibabacloud.com/gpu-card-model`. A pod asks, in annotations, for
`alibabacloud.com/gpu-count` GPUs with `alibabacloud.com/gpu-milli` of each
(below 1000 only for one shared GPU), optionally restricted to the models in
`alibabacloud.com/gpu-card-model` ("A|B": any of A, B). Reserve records the
devices a pod got in its annotation `alibabacloud.com/gpu-index` ("0", "2-3").
"""

from __future__ import annotations

from collections.abc import Iterable

from attrs import frozen

from kubesched.api import Node, Pod
from kubesched.framework import NodeInfo

GPU_COUNT = "alibabacloud.com/gpu-count"
GPU_MILLI = "alibabacloud.com/gpu-milli"
GPU_MODEL = "alibabacloud.com/gpu-card-model"
GPU_INDEX = "alibabacloud.com/gpu-index"
MILLI = 1000
"""Milli of one whole GPU device."""


class GpuRequestError(ValueError):
    """A pod's GPU annotations cannot be read; the message names the pod and annotation."""


@frozen
class GpuRequest:
    """What a pod asks of GPUs: `count` devices with `milli` free each, of one of `models`
    (empty: any model)."""

    count: int = 0
    milli: int = 0
    models: frozenset[str] = frozenset()

    @property
    def total_milli(self) -> int:
        return self.count * self.milli

    @property
    def shares(self) -> bool:
        """One GPU shared with other pods (less than a whole device)."""
        return self.count == 1 and self.milli < MILLI

    def accepts(self, model: str) -> bool:
        return not self.models or model in self.models


NO_GPU = GpuRequest()


def _annotation_int(pod: Pod, key: str) -> int:
    raw = pod.metadata.annotations.get(key, "")
    if not raw:
        return 0
    try:
        value = int(raw)
    except ValueError:
        raise GpuRequestError(
            f"pod {pod.key}: annotation {key}: Invalid value: {raw!r}: must be an integer"
        ) from None
    if value < 0:
        raise GpuRequestError(
            f"pod {pod.key}: annotation {key}: Invalid value: {raw!r}: must not be negative"
        )
    return value


def gpu_request(pod: Pod) -> GpuRequest:
    """The pod's GPU request; milli is clamped to 1000 and a whole-GPU count without milli
    means whole devices. GpuRequestError for unreadable annotations."""
    count = _annotation_int(pod, GPU_COUNT)
    milli = min(_annotation_int(pod, GPU_MILLI), MILLI)
    if count == 0 or milli == 0:
        if count == 0 and milli > 0:
            count = 1
        elif count > 0:
            milli = MILLI
        else:
            return NO_GPU
    if count > 1 and milli < MILLI:
        raise GpuRequestError(
            f"pod {pod.key}: annotation {GPU_MILLI}: Invalid value: {milli}: "
            f"must be {MILLI} when {GPU_COUNT} is {count}"
        )
    raw_models = pod.metadata.annotations.get(GPU_MODEL, "")
    models = frozenset(m for m in raw_models.split("|") if m)
    return GpuRequest(count, milli, models)


def node_gpu_count(node: Node) -> int:
    """The node's GPU devices: its allocatable `alibabacloud.com/gpu-count`."""
    return int(node.status.allocatable.get(GPU_COUNT, 0))


def node_gpu_model(node: Node) -> str:
    return node.metadata.labels.get(GPU_MODEL, "")


def recorded_indices(pod: Pod, count: int) -> tuple[int, ...] | None:
    """The devices Reserve recorded on the pod, if valid for a node of `count` GPUs."""
    raw = pod.metadata.annotations.get(GPU_INDEX, "")
    if not raw:
        return None
    try:
        indices = tuple(int(part) for part in raw.split("-"))
    except ValueError:
        return None
    if any(not 0 <= i < count for i in indices) or len(set(indices)) != len(indices):
        return None
    return indices


def format_indices(indices: Iterable[int]) -> str:
    return "-".join(str(i) for i in indices)


def free_milli(node_info: NodeInfo) -> tuple[int, ...]:
    """Free milli of each of the node's GPUs, after the pods on it.

    A pod's devices are those recorded on it; a GPU pod without a valid record
    (bound before this plugin saw it) is placed as Reserve would place it, in
    the order the pods are on the node. Unreadable annotations count as no GPU.
    """
    node = node_info.node
    if node is None:
        return ()
    count = node_gpu_count(node)
    free = [MILLI] * count
    unrecorded = []
    for pod_info in node_info.pods:
        request = _request_or_none(pod_info.pod)
        if request is None or request.count == 0:
            continue
        indices = recorded_indices(pod_info.pod, count)
        if indices is None or len(indices) != request.count:
            unrecorded.append(request)
            continue
        for i in indices:
            free[i] -= request.milli
    for request in unrecorded:
        picked = best_devices(free, request)
        for i in picked or ():
            free[i] -= request.milli
    return tuple(free)


def _request_or_none(pod: Pod) -> GpuRequest | None:
    try:
        return gpu_request(pod)
    except GpuRequestError:
        return None


def fitting(free: Iterable[int], request: GpuRequest) -> list[int]:
    """Indices of devices with at least the request's milli free."""
    return [i for i, f in enumerate(free) if f >= request.milli]


def best_devices(free: list[int] | tuple[int, ...], request: GpuRequest) -> tuple[int, ...] | None:
    """Open-Gpu-Share's "best" pick: a shared GPU goes to the device with the least free
    milli that still fits (lowest index on ties); whole GPUs take the lowest-numbered fully
    free devices. None when the devices do not fit."""
    candidates = fitting(free, request)
    if len(candidates) < request.count:
        return None
    if request.shares:
        return (min(candidates, key=lambda i: (free[i], i)),)
    return tuple(candidates[: request.count])
