"""BestFitScore: the node the pod leaves the least free on wins.

score = int(100 x (1 - [0.5 x (cpu free - cpu asked) / 128 cores
                        + 0.5 x (GPU milli free - GPU milli asked) / 8000]))

GPU milli are summed over the node's devices; memory is ignored. Devices:
GpuShare's "best" pick.
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


def best_fit_score(cpu_left: int, gpu_left: int) -> int:
    leftover = 0.5 * cpu_left / MAX_SPEC_CPU + 0.5 * gpu_left / MAX_SPEC_GPU
    return max(0, int((1.0 - leftover) * 100))


def best_fit_scores(cpu_left: NDArray[np.int64], gpu_left: NDArray[np.int64]) -> NDArray[np.int64]:
    """`best_fit_score` over arrays, the same floating-point steps."""
    leftover = 0.5 * cpu_left / MAX_SPEC_CPU + 0.5 * gpu_left / MAX_SPEC_GPU
    scores: NDArray[np.int64] = np.maximum(((1.0 - leftover) * 100).astype(np.int64), 0)
    return scores


class BestFitScore:
    """Least leftover CPU and GPU after placement scores highest."""

    name = "BestFitScore"

    def __init__(self, args: object = None, handle: object = None) -> None:
        """No args."""

    @hookimpl
    def score(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> int | Status:
        request = read_request(state, pod)
        if isinstance(request, Status):
            return request
        view = node_view(node_info)
        return best_fit_score(view.cpu_free - pod_cpu(pod), view.gpu_free - request.total_milli)

    @hookimpl
    def score_batch(
        self, state: CycleState, pod: Pod, table: NodeTable, rows: NDArray[np.intp]
    ) -> NDArray[np.int64]:
        request = request_or_raise(state, pod)
        cpu_left = cpu_free_column(table)[rows] - pod_cpu(pod)
        gpu_left = total_free(table)[rows] - request.total_milli
        return best_fit_scores(cpu_left, gpu_left)
