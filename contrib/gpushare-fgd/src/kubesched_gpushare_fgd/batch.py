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
from kubesched_gpushare.resources import MILLI, GpuRequest
from kubesched_gpushare.scoring import node_view
from kubesched_gpushare_fgd.kernel import frag_scores, score_node


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
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Scores for `rows`, and for a pod sharing a GPU the device it would take on each
    (-1: none fits)."""
    before = _before_column(table, key, workload)[rows]
    free = free_by_index(table)[rows]
    cpu_free = (table.resource("allocatable", CPU) - table.resource("requested", CPU))[rows]
    models = gpu_models(table)[rows]
    devices = np.full(len(rows), -1, dtype=np.int64)
    if request.shares:
        scores = _shared(free, cpu_free - cpu, models, before, request, workload, devices)
    else:
        full = free == MILLI
        take = full & (np.cumsum(full, axis=1) <= request.count)
        after = fragments(np.where(take, 0, free), cpu_free - cpu, models, workload)
        scores = frag_scores(before, after)
    for i in np.flatnonzero(gpu_counts(table)[rows] > MAX_GPUS).tolist():
        view = node_view(table.node_infos[rows[i]])
        score, device = score_node(view.free, view.cpu_free, view.model, cpu, request, workload)
        scores[i], devices[i] = score, -1 if device is None else device
    return scores, devices


def _shared(
    free: NDArray[np.int64],
    cpu_after: NDArray[np.int64],
    models: NDArray[np.object_],
    before: NDArray[np.float64],
    request: GpuRequest,
    workload: Sequence[TypicalPod],
    devices: NDArray[np.int64],
) -> NDArray[np.int64]:
    """One candidate per node and distinct free value among the devices that fit (the
    lowest index holding it); a node's best candidate wins, the first on ties."""
    first = free >= request.milli
    for k in range(1, free.shape[1]):
        for j in range(k):
            first[:, k] &= free[:, j] != free[:, k]
    state_rows, state_devices = np.nonzero(first)
    scores = np.zeros(len(free), dtype=np.int64)
    if len(state_rows) == 0:
        return scores
    after = free[state_rows].copy()
    after[np.arange(len(state_rows)), state_devices] -= request.milli
    after_frag = fragments(after, cpu_after[state_rows], models[state_rows], workload)
    state_scores = frag_scores(before[state_rows], after_frag)
    starts = np.flatnonzero(np.r_[True, state_rows[1:] != state_rows[:-1]])
    row_best = np.maximum.reduceat(state_scores, starts)
    scored_rows = state_rows[starts]
    scores[scored_rows] = row_best
    best = state_scores == scores[state_rows]
    winners, first_index = np.unique(state_rows[best], return_index=True)
    devices[winners] = state_devices[best][first_index]
    return scores
