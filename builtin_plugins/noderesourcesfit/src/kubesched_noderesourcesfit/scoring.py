"""Score strategies: LeastAllocated, MostAllocated, RequestedToCapacityRatio.

One kernel for both forms of Score: `score` runs on one node's ints
(`NodeView`, `SCALAR`) or on columns over many rows (`TableView`, `ARRAY`).
Integer arithmetic as upstream's int64 (Go division truncates toward zero;
RequestedToCapacityRatio rounds its weighted mean half away from zero).
For each configured resource the node's allocatable and requested amount
(with the pod) are taken as upstream's resourceAllocationScorer does: cpu
and memory use the non-zero requests (100m / 200Mi for containers that ask
for none), a scalar resource the pod does not request is left out, and a
resource the node does not have (allocatable 0) does not count.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from kubesched.api import (
    CPU,
    EPHEMERAL_STORAGE,
    MEMORY,
    NON_ZERO_DEFAULTS,
    Pod,
    is_scalar_resource_name,
    pod_requests,
)
from kubesched.framework import MAX_NODE_SCORE
from kubesched_noderesourcesfit.args import (
    LEAST_ALLOCATED,
    MAX_CUSTOM_PRIORITY_SCORE,
    MAX_UTILIZATION,
    MOST_ALLOCATED,
    REQUESTED_TO_CAPACITY_RATIO,
    ResourceSpec,
    ScoringStrategy,
    UtilizationShapePoint,
)
from kubesched_noderesourcesfit.views import SCALAR, Ops, Value, View


def score_requests(pod: Pod, resources: Sequence[ResourceSpec]) -> tuple[int, ...]:
    """The pod's request per scored resource, with the non-zero defaults for cpu and memory
    (upstream's calculatePodResourceRequestList)."""
    reqs = pod_requests(pod, NON_ZERO_DEFAULTS)
    return tuple(reqs.get(spec.name, 0) for spec in resources)


def allocatable_and_requested(
    view: View, name: str, pod_request: int
) -> tuple[Value, Value] | None:
    """The node's allocatable amount of `name` and what would be requested with the pod;
    None leaves the resource out of the score (as does an allocatable of 0)."""
    if pod_request == 0 and is_scalar_resource_name(name):
        return None
    if name in (CPU, MEMORY):
        used = view.non_zero_requested(name)
    elif name == EPHEMERAL_STORAGE or is_scalar_resource_name(name):
        used = view.requested(name)
    else:
        return None
    return view.allocatable(name), used + pod_request


def least_requested(requested: Value, capacity: Value, ops: Ops) -> Value:
    """Free share of the resource on a 0..100 scale (0 without capacity)."""
    free = ops.where(requested > capacity, 0, capacity - requested)
    return free * MAX_NODE_SCORE // ops.nonzero(capacity)


def most_requested(requested: Value, capacity: Value, ops: Ops) -> Value:
    """Used share on a 0..100 scale (requests beyond capacity count as full)."""
    return ops.minimum(requested, capacity) * MAX_NODE_SCORE // ops.nonzero(capacity)


def utilization(requested: Value, capacity: Value, ops: Ops) -> Value:
    """Requested share of capacity in percent; a full (100) share when over or without it."""
    full = (requested > capacity) | (capacity == 0)
    return ops.where(full, MAX_UTILIZATION, requested * MAX_UTILIZATION // ops.nonzero(capacity))


def scaled_shape(shape: Sequence[UtilizationShapePoint]) -> list[tuple[int, int]]:
    """The shape's (utilization, score) points with scores scaled from 0..10 to 0..100."""
    scale = MAX_NODE_SCORE // MAX_CUSTOM_PRIORITY_SCORE
    return [(p.utilization, p.score * scale) for p in shape]


def curve(points: Sequence[tuple[int, int]], p: Value, ops: Ops) -> Value:
    """Upstream's BuildBrokenLinearFunction at `p`: linear between the (utilization, score)
    points, flat before the first and after the last."""
    out: Value = points[-1][1]
    done: Value = False
    for i, (u, s) in enumerate(points):
        here = ops.and_not(p <= u, done)
        if i == 0:
            value: Value = s
        else:
            u0, s0 = points[i - 1]
            value = s0 + ops.trunc_div((s - s0) * (p - u0), u - u0)
        out = ops.where(here, value, out)
        done = done | here
    return out


def broken_linear(points: Sequence[tuple[int, int]]) -> Callable[[int], int]:
    """The curve through `points` as a function of one utilization."""
    return lambda p: int(curve(points, p, SCALAR))


def score(
    strategy: ScoringStrategy,
    view: View,
    pod_requests_per_resource: Sequence[int],
    ops: Ops,
) -> Value:
    """The score of the node(s) in `view` (upstream's resourceAllocationScorer.score): the
    weighted mean of the per-resource scores of the resources the node has."""
    total: Value = 0
    weights: Value = 0
    rtcr = strategy.requested_to_capacity_ratio
    points = scaled_shape(rtcr.shape) if rtcr is not None else []
    for spec, pod_request in zip(strategy.resources, pod_requests_per_resource, strict=True):
        columns = allocatable_and_requested(view, spec.name, pod_request)
        if columns is None:
            continue
        alloc, req = columns
        counted = alloc != 0
        if strategy.type == LEAST_ALLOCATED:
            value = least_requested(req, alloc, ops)
        elif strategy.type == MOST_ALLOCATED:
            value = most_requested(req, alloc, ops)
        else:
            value = curve(points, utilization(req, alloc, ops), ops)
            counted = counted & (value > 0)
        total += ops.where(counted, value * spec.weight, 0)
        weights += ops.where(counted, spec.weight, 0)
    if strategy.type == REQUESTED_TO_CAPACITY_RATIO:
        # math.Round of the weighted mean: half away from zero, all terms non-negative.
        return (2 * total + weights) // (2 * ops.nonzero(weights))
    return total // ops.nonzero(weights)
