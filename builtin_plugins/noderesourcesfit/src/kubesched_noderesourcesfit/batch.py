"""Filter and Score over many nodes at once, on the snapshot's NodeTable columns.

Same int64 arithmetic as the per-node forms in `fit` and `scoring` (which
stay the reference): every division here has a non-negative numerator and a
positive denominator, where numpy's floor division equals Go's truncation.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

import numpy as np
from numpy.typing import NDArray

from kubesched.api import CPU, EPHEMERAL_STORAGE, MEMORY, PODS, is_scalar_resource_name
from kubesched.framework import MAX_NODE_SCORE, NodeTable
from kubesched_noderesourcesfit.args import (
    LEAST_ALLOCATED,
    MAX_UTILIZATION,
    MOST_ALLOCATED,
    REQUESTED_TO_CAPACITY_RATIO,
    ScoringStrategy,
)
from kubesched_noderesourcesfit.fit import FitRequest, is_ignored
from kubesched_noderesourcesfit.scoring import scaled_shape

Int64s = NDArray[np.int64]


def fits_batch(
    request: FitRequest,
    table: NodeTable,
    ignored: Collection[str] = (),
    ignored_groups: Collection[str] = (),
) -> NDArray[np.bool_]:
    """True for every row whose node has room for the request (fits_request is empty)."""
    ok: NDArray[np.bool_] = table.pod_count() + 1 <= table.resource("allocatable", PODS)
    if request.is_empty():
        return ok
    checked = [(n, a) for n, a in request.native if a > 0]
    checked += [
        (n, a) for n, a in request.scalars if a != 0 and not is_ignored(n, ignored, ignored_groups)
    ]
    for name, amount in checked:
        free = table.resource("allocatable", name) - table.resource("requested", name)
        ok &= amount <= free
    return ok


def _allocatable_and_requested(
    table: NodeTable, rows: NDArray[np.intp], name: str, pod_request: int
) -> tuple[Int64s, Int64s] | None:
    """Columns of allocatable and requested-with-the-pod for `rows`; None leaves the resource
    out of every row's score (the per-node `allocatable_and_requested` giving (0, 0))."""
    if pod_request == 0 and is_scalar_resource_name(name):
        return None
    if name in (CPU, MEMORY):
        used = table.resource("non_zero_requested", name)
    elif name == EPHEMERAL_STORAGE or is_scalar_resource_name(name):
        used = table.resource("requested", name)
    else:
        return None
    return table.resource("allocatable", name)[rows], used[rows] + pod_request


def _safe(denominator: Int64s) -> Int64s:
    return np.where(denominator == 0, 1, denominator)


def _least_requested(requested: Int64s, capacity: Int64s) -> Int64s:
    free = np.where(requested > capacity, 0, capacity - requested)
    return free * MAX_NODE_SCORE // _safe(capacity)


def _most_requested(requested: Int64s, capacity: Int64s) -> Int64s:
    return np.minimum(requested, capacity) * MAX_NODE_SCORE // _safe(capacity)


def _broken_linear(points: Sequence[tuple[int, int]], p: Int64s) -> Int64s:
    """`scoring.broken_linear` at every utilization in `p` (Go truncation on falling segments)."""
    out = np.full(p.shape, points[-1][1], dtype=np.int64)
    done = np.zeros(p.shape, dtype=bool)
    for i, (u, s) in enumerate(points):
        here = ~done & (p <= u)
        if i == 0:
            out[here] = s
        else:
            u0, s0 = points[i - 1]
            num = (s - s0) * (p[here] - u0)
            out[here] = s0 + np.sign(num) * (np.abs(num) // (u - u0))
        done |= here
    return out


def score_batch(
    strategy: ScoringStrategy,
    table: NodeTable,
    rows: NDArray[np.intp],
    pod_requests_per_resource: Sequence[int],
) -> Int64s:
    """Scores of `rows`, equal to `scoring.score_node` on each of them."""
    total = np.zeros(len(rows), dtype=np.int64)
    weights = np.zeros(len(rows), dtype=np.int64)
    rtcr = strategy.requested_to_capacity_ratio
    points = scaled_shape(rtcr.shape) if rtcr is not None else []
    for spec, pod_request in zip(strategy.resources, pod_requests_per_resource, strict=True):
        columns = _allocatable_and_requested(table, rows, spec.name, pod_request)
        if columns is None:
            continue
        alloc, req = columns
        counted = alloc != 0
        if strategy.type == LEAST_ALLOCATED:
            value = _least_requested(req, alloc)
        elif strategy.type == MOST_ALLOCATED:
            value = _most_requested(req, alloc)
        else:
            used = np.where(req > alloc, MAX_UTILIZATION, req * MAX_UTILIZATION // _safe(alloc))
            value = _broken_linear(points, used)
            counted &= value > 0
        total += np.where(counted, value * spec.weight, 0)
        weights += np.where(counted, spec.weight, 0)
    if strategy.type == REQUESTED_TO_CAPACITY_RATIO:
        # math.Round of the weighted mean: half away from zero, all terms non-negative.
        rounded: Int64s = (2 * total + weights) // (2 * _safe(weights))
        return rounded
    mean: Int64s = total // _safe(weights)
    return mean
