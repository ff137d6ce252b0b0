"""GpuPackingScore: fill partly used GPUs first, then partly used nodes, idle nodes last.

With the pod's devices picked "best" (least free milli that fits first):

- the node's GPUs are all fully free: max(33 - its GPUs, its GPUs)
- the pod needs fully free GPUs on a partly used node: max(50 - those GPUs, 33)
- the pod fits on partly used GPUs: max(100 - sum over them of
  (free milli x 100 // 1000) // 10, 50)

A pod asking no GPU, or not fitting the node's devices, scores 0.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from kubesched import hookimpl
from kubesched.api import Pod
from kubesched.framework import CycleState, NodeInfo, NodeTable, Status
from kubesched_gpushare.devices import device_free, fully_free
from kubesched_gpushare.resources import MILLI, GpuRequest
from kubesched_gpushare.scoring import node_view, read_request, request_or_raise


def packing_score(free: tuple[int, ...], request: GpuRequest) -> int | None:
    """The score, None when the pod does not fit the node's devices."""
    whole = fully_free(free)
    if whole == len(free):
        return max(100 // 3 - whole, whole)
    order = sorted(range(len(free)), key=lambda i: (free[i], i))
    used = [i for i in order if free[i] >= request.milli][: request.count]
    if len(used) < request.count:
        return None
    whole_used = sum(1 for i in used if free[i] == MILLI)
    if whole_used:
        return max(100 // 2 - whole_used, 100 // 3)
    percent = sum(free[i] * 100 // MILLI for i in used)
    return max(100 - percent // 10, 100 // 2)


class GpuPackingScore:
    """Partly used GPUs first (see the module docstring)."""

    name = "GpuPackingScore"

    def __init__(self, args: object = None, handle: object = None) -> None:
        """No args."""

    @hookimpl
    def score(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> int | Status:
        request = read_request(state, pod)
        if isinstance(request, Status):
            return request
        if request.count == 0:
            return 0
        return packing_score(node_view(node_info).free, request) or 0

    @hookimpl
    def score_batch(
        self, state: CycleState, pod: Pod, table: NodeTable, rows: NDArray[np.intp]
    ) -> NDArray[np.int64]:
        request = request_or_raise(state, pod)
        if request.count == 0:
            return np.zeros(len(rows), dtype=np.int64)
        infos = table.node_infos
        return np.array(
            [packing_score(device_free(infos[row]), request) or 0 for row in rows.tolist()],
            dtype=np.int64,
        )
