"""DotProductScore: Tetris-style alignment of the pod's demand with the node's free room.

With CPU and GPU milli (summed over devices) each divided by the largest
node shape (128 cores, 8000 milli):

score = int(100 x (1 - (cpu asked x cpu free + gpu asked x gpu free) / 2))

so a node with less room along the pod's demand (a tighter fit) wins.
Devices: GpuShare's "best" pick.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from kubesched import hookimpl
from kubesched.api import Pod
from kubesched.framework import CycleState, NodeInfo, NodeTable, Status
from kubesched_gpushare.devices import total_free
from kubesched_gpushare.scoring import (
    MAX_SPEC_CPU,
    MAX_SPEC_GPU,
    cpu_free_column,
    node_view,
    pod_cpu,
    read_request,
    request_or_raise,
)


def dot_product_score(cpu_asked: int, cpu_free: int, gpu_asked: int, gpu_free: int) -> int:
    product = (cpu_asked / MAX_SPEC_CPU) * (cpu_free / MAX_SPEC_CPU) + (
        gpu_asked / MAX_SPEC_GPU
    ) * (gpu_free / MAX_SPEC_GPU)
    return max(0, int(100 * (1 - product / 2)))


def dot_product_scores(
    cpu_asked: int, cpu_free: NDArray[np.int64], gpu_asked: int, gpu_free: NDArray[np.int64]
) -> NDArray[np.int64]:
    """`dot_product_score` over arrays of free room, the same floating-point steps."""
    product = (cpu_asked / MAX_SPEC_CPU) * (cpu_free / MAX_SPEC_CPU) + (
        gpu_asked / MAX_SPEC_GPU
    ) * (gpu_free / MAX_SPEC_GPU)
    scores: NDArray[np.int64] = np.maximum((100 * (1 - product / 2)).astype(np.int64), 0)
    return scores


class DotProductScore:
    """A smaller dot product of demand and free room scores higher."""

    name = "DotProductScore"

    def __init__(self, args: object = None, handle: object = None) -> None:
        """No args."""

    @hookimpl
    def score(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> int | Status:
        request = read_request(state, pod)
        if isinstance(request, Status):
            return request
        view = node_view(node_info)
        return dot_product_score(pod_cpu(pod), view.cpu_free, request.total_milli, view.gpu_free)

    @hookimpl
    def score_batch(
        self, state: CycleState, pod: Pod, table: NodeTable, rows: NDArray[np.intp]
    ) -> NDArray[np.int64]:
        request = request_or_raise(state, pod)
        return dot_product_scores(
            pod_cpu(pod),
            cpu_free_column(table)[rows],
            request.total_milli,
            total_free(table)[rows],
        )
