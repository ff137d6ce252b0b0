"""GpuClusteringScore: keep pods of one GPU class together.

A pod's class is "share-gpu" (part of one GPU) or "<k>-gpu" (k whole GPUs).
A node's classes are those of the GPU pods on it. With u = 25 x (8000 - GPU
milli free on the node) // 8000 (fuller nodes score higher in a tier):

- the node hosts only the pod's class: 75 + u
- it hosts the pod's class among others: 50 + u
- it hosts no GPU pod: 25 + u
- it hosts only other classes: u

A pod asking no GPU scores 0 everywhere. Devices: GpuShare's "best" pick.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from kubesched import hookimpl
from kubesched.api import Pod
from kubesched.framework import CycleState, NodeInfo, NodeTable, Status
from kubesched_gpushare.devices import total_free
from kubesched_gpushare.resources import GpuRequest, GpuRequestError, gpu_request
from kubesched_gpushare.scoring import (
    MAX_SPEC_GPU,
    node_view,
    read_request,
    request_or_raise,
)


def gpu_class(request: GpuRequest) -> str:
    """The pod's GPU class: "" (no GPU), "share-gpu" or "<k>-gpu"."""
    if request.count == 0:
        return ""
    return "share-gpu" if request.shares else f"{request.count}-gpu"


def node_classes(node_info: NodeInfo) -> frozenset[str]:
    classes = set()
    for pod_info in node_info.pods:
        try:
            tag = gpu_class(gpu_request(pod_info.pod))
        except GpuRequestError:
            continue
        if tag:
            classes.add(tag)
    return frozenset(classes)


def clustering_score(tag: str, classes: frozenset[str], gpu_free: int) -> int:
    used = 25 * (MAX_SPEC_GPU - gpu_free) // MAX_SPEC_GPU
    if tag in classes:
        return used + (75 if len(classes) == 1 else 50)
    return used + (25 if not classes else 0)


class GpuClusteringScore:
    """Pods of the same GPU class on the same nodes."""

    name = "GpuClusteringScore"

    def __init__(self, args: object = None, handle: object = None) -> None:
        """No args."""

    @hookimpl
    def score(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> int | Status:
        request = read_request(state, pod)
        if isinstance(request, Status):
            return request
        tag = gpu_class(request)
        if not tag:
            return 0
        return clustering_score(tag, node_classes(node_info), node_view(node_info).gpu_free)

    @hookimpl
    def score_batch(
        self, state: CycleState, pod: Pod, table: NodeTable, rows: NDArray[np.intp]
    ) -> NDArray[np.int64]:
        tag = gpu_class(request_or_raise(state, pod))
        if not tag:
            return np.zeros(len(rows), dtype=np.int64)
        classes = table.column("GpuClusteringScore/classes", node_classes)[rows]
        free = total_free(table)[rows]
        return np.array(
            [clustering_score(tag, c, int(f)) for c, f in zip(classes, free, strict=True)],
            dtype=np.int64,
        )
