"""FGDScore over many nodes at once: every candidate placement's fragmentation in one
vectorised pass (`frag.fragments`), the same numbers `score` computes node by node."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from kubesched.api import CPU
from kubesched.framework import NodeInfo, NodeTable
from kubesched_gpushare.devices import MAX_GPUS, free_by_index, gpu_counts, gpu_models
from kubesched_gpushare.frag import TypicalPod, fragments, node_fragment
from kubesched_gpushare.policies.common import node_view
from kubesched_gpushare.policies.fgd_kernel import frag_score, score_node
from kubesched_gpushare.resources import MILLI, GpuRequest


def _before_column(
    table: NodeTable, key: str, workload: Sequence[TypicalPod]
) -> NDArray[np.float64]:
    def extract(node_info: NodeInfo) -> float:
        view = node_view(node_info)
        return node_fragment(view.free, view.cpu_free, view.model, workload)

    return table.column(key, extract, np.float64)


def batch_scores(
    table: NodeTable,
    rows: NDArray[np.intp],
    cpu: int,
    request: GpuRequest,
    workload: Sequence[TypicalPod],
    key: str,
) -> tuple[NDArray[np.int64], list[tuple[int, ...]]]:
    """Scores for `rows` and the devices the pod would take on each."""
    before = _before_column(table, key, workload)[rows]
    free = free_by_index(table)[rows]
    cpu_free = (table.resource("allocatable", CPU) - table.resource("requested", CPU))[rows]
    models = gpu_models(table)[rows]
    scores = np.zeros(len(rows), dtype=np.int64)
    devices: list[tuple[int, ...]] = [()] * len(rows)
    if request.shares:
        _shared(free, cpu_free, models, before, cpu, request, workload, scores, devices)
    else:
        _whole(free, cpu_free, models, before, cpu, request, workload, scores, devices)
    for i in np.flatnonzero(gpu_counts(table)[rows] > MAX_GPUS):
        view = node_view(table.node_infos[rows[i]])
        scores[i], devices[i] = score_node(
            view.free, view.cpu_free, view.model, cpu, request, workload
        )
    return scores, devices


def _shared(
    free: NDArray[np.int64],
    cpu_free: NDArray[np.int64],
    models: NDArray[np.object_],
    before: NDArray[np.float64],
    cpu: int,
    request: GpuRequest,
    workload: Sequence[TypicalPod],
    scores: NDArray[np.int64],
    devices: list[tuple[int, ...]],
) -> None:
    """One candidate per node and distinct free value among devices that fit (the lowest
    index holding it); a node's best candidate wins, the first on ties."""
    valid = free >= request.milli
    first = valid.copy()
    for k in range(1, free.shape[1]):
        for j in range(k):
            first[:, k] &= free[:, j] != free[:, k]
    state_rows, state_devices = np.nonzero(first)
    after = free[state_rows].copy()
    after[np.arange(len(state_rows)), state_devices] -= request.milli
    after_frag = fragments(after, cpu_free[state_rows] - cpu, models[state_rows], workload)
    best = np.full(len(scores), -1, dtype=np.int64)
    states = zip(state_rows.tolist(), state_devices.tolist(), after_frag.tolist(), strict=True)
    for r, k, frag in states:
        score = frag_score(float(before[r]), frag)
        if score > best[r]:
            best[r] = score
            devices[r] = (k,)
    scores[:] = np.maximum(best, 0)


def _whole(
    free: NDArray[np.int64],
    cpu_free: NDArray[np.int64],
    models: NDArray[np.object_],
    before: NDArray[np.float64],
    cpu: int,
    request: GpuRequest,
    workload: Sequence[TypicalPod],
    scores: NDArray[np.int64],
    devices: list[tuple[int, ...]],
) -> None:
    """Whole GPUs (or none): the lowest-numbered fully free devices go."""
    full = free == MILLI
    take = full & (np.cumsum(full, axis=1) <= request.count)
    after = np.where(take, 0, free)
    after_frag = fragments(after, cpu_free - cpu, models, workload)
    for i, (b, a) in enumerate(zip(before.tolist(), after_frag.tolist(), strict=True)):
        scores[i] = frag_score(b, a)
        if request.count:
            devices[i] = tuple(np.flatnonzero(take[i]).tolist())
