"""Per-device free milli of a node, cached by NodeInfo generation, and as table columns.

`device_free(node_info)` is `resources.free_milli` remembered for the
node's generation (every change to a NodeInfo gives it a new one), so the
filter, the score plugins and the batch columns compute it once per change.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from kubesched.framework import NodeInfo, NodeTable
from kubesched_gpushare.resources import MILLI, free_milli, node_gpu_model

MAX_GPUS = 8
"""Devices per node the rank columns cover; a node with more is checked per node."""
_CACHE_LIMIT = 65_536
_cache: dict[tuple[str, int], tuple[int, ...]] = {}


def device_free(node_info: NodeInfo) -> tuple[int, ...]:
    """Free milli of each GPU of the node (see `resources.free_milli`)."""
    key = (node_info.name, node_info.generation)
    free = _cache.get(key)
    if free is None:
        if len(_cache) >= _CACHE_LIMIT:
            _cache.clear()
        free = _cache[key] = free_milli(node_info)
    return free


def _rank(k: int) -> object:
    def extract(node_info: NodeInfo) -> int:
        free = sorted(device_free(node_info), reverse=True)
        return free[k] if k < len(free) else -1

    return extract


def free_rank_matrix(table: NodeTable) -> NDArray[np.int64]:
    """rows x MAX_GPUS: column k is each node's (k+1)-th largest free milli, -1 past its
    GPUs."""
    columns = [
        table.column(f"GpuShare/freeRank{k}", _rank(k), np.int64)  # type: ignore[arg-type]
        for k in range(MAX_GPUS)
    ]
    return np.stack(columns, axis=1)


def gpu_counts(table: NodeTable) -> NDArray[np.int64]:
    return table.column("GpuShare/gpuCount", lambda ni: len(device_free(ni)), np.int64)


def gpu_models(table: NodeTable) -> NDArray[np.object_]:
    return table.column(
        "GpuShare/model", lambda ni: node_gpu_model(ni.node) if ni.node else "", object
    )


def total_free(table: NodeTable) -> NDArray[np.int64]:
    return table.column("GpuShare/totalFree", lambda ni: sum(device_free(ni)), np.int64)


def fully_free(free: tuple[int, ...]) -> int:
    return sum(1 for f in free if f == MILLI)


def _at(k: int) -> object:
    def extract(node_info: NodeInfo) -> int:
        free = device_free(node_info)
        return free[k] if k < len(free) else 0

    return extract


def free_by_index(table: NodeTable) -> NDArray[np.int64]:
    """rows x MAX_GPUS: free milli of device k of each node, 0 past its GPUs."""
    columns = [
        table.column(f"GpuShare/free{k}", _at(k), np.int64)  # type: ignore[arg-type]
        for k in range(MAX_GPUS)
    ]
    return np.stack(columns, axis=1)
