"""DotProductScore: Tetris-style alignment of the pod's demand with the node's free room.

With CPU and GPU milli each divided by the largest node shape (128 cores,
8000 milli):

score = int(100 x (1 - (cpu asked x cpu free + gpu asked x gpu room) / 2))

so a node with less room along the pod's demand (a tighter fit) wins. The
GPU room is what the study's artifact measures against (its "share" GPU
dimension): for a pod sharing a GPU, the least free milli among the node's
partly used devices that have room for it, or, when none has, 1000 x the
node's fully free devices; for whole GPUs, 1000 x the fully free devices
(milli left on partly used devices do not count: the pod cannot use them).
Devices: GpuShare's "best" pick, which is the device the room was read on.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from kubesched import hookimpl
from kubesched.api import Pod
from kubesched.framework import CycleState, NodeInfo, NodeTable, Status
from kubesched_gpushare.devices import (
    MAX_GPUS,
    device_free,
    free_by_index,
    fully_free,
    gpu_counts,
)
from kubesched_gpushare.resources import MILLI, GpuRequest
from kubesched_gpushare.scoring import (
    MAX_SPEC_CPU,
    MAX_SPEC_GPU,
    cpu_free_column,
    node_view,
    pod_cpu,
    read_request,
    request_or_raise,
)


def gpu_room(free: Sequence[int], request: GpuRequest) -> int:
    """The GPU milli the pod is aligned with on a node whose devices have `free` milli."""
    whole = MILLI * fully_free(tuple(free))
    if not request.shares:
        return whole if request.count else 0
    partly = [f for f in free if request.milli <= f < MILLI]
    return min(partly) if partly else whole


def gpu_rooms(
    free: NDArray[np.int64], counts: NDArray[np.int64], request: GpuRequest
) -> NDArray[np.int64]:
    """`gpu_room` for rows of free milli by device index (columns past a node's GPUs are
    ignored)."""
    present = np.arange(free.shape[1]) < counts[:, None]
    whole: NDArray[np.int64] = MILLI * ((free == MILLI) & present).sum(axis=1)
    if not request.shares:
        return whole if request.count else np.zeros(len(free), dtype=np.int64)
    partly = present & (free >= request.milli) & (free < MILLI)
    least = np.where(partly, free, MILLI).min(axis=1)
    rooms: NDArray[np.int64] = np.where(partly.any(axis=1), least, whole)
    return rooms


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
        room = gpu_room(view.free, request)
        return dot_product_score(pod_cpu(pod), view.cpu_free, request.total_milli, room)

    @hookimpl
    def score_batch(
        self, state: CycleState, pod: Pod, table: NodeTable, rows: NDArray[np.intp]
    ) -> NDArray[np.int64]:
        request = request_or_raise(state, pod)
        counts = gpu_counts(table)[rows]
        rooms = gpu_rooms(free_by_index(table)[rows], counts, request)
        for i in np.flatnonzero(counts > MAX_GPUS).tolist():
            rooms[i] = gpu_room(device_free(table.node_infos[rows[i]]), request)
        return dot_product_scores(
            pod_cpu(pod), cpu_free_column(table)[rows], request.total_milli, rooms
        )
