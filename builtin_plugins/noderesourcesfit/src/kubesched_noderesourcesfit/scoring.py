"""Score strategies, per node: LeastAllocated, MostAllocated, RequestedToCapacityRatio.

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
from kubesched.framework import MAX_NODE_SCORE, NodeInfo
from kubesched_noderesourcesfit.args import (
    LEAST_ALLOCATED,
    MAX_CUSTOM_PRIORITY_SCORE,
    MAX_UTILIZATION,
    MOST_ALLOCATED,
    ResourceSpec,
    ScoringStrategy,
    UtilizationShapePoint,
)

Scorer = Callable[[Sequence[int], Sequence[int]], int]
"""(requested per resource, allocatable per resource) -> node score."""


def go_div(a: int, b: int) -> int:
    """Integer division truncating toward zero, as Go's `/` on int64."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def score_requests(pod: Pod, resources: Sequence[ResourceSpec]) -> tuple[int, ...]:
    """The pod's request per scored resource, with the non-zero defaults for cpu and memory
    (upstream's calculatePodResourceRequestList)."""
    reqs = pod_requests(pod, NON_ZERO_DEFAULTS)
    return tuple(reqs.get(spec.name, 0) for spec in resources)


def allocatable_and_requested(node_info: NodeInfo, name: str, pod_request: int) -> tuple[int, int]:
    """The node's allocatable amount of `name` and what would be requested with the pod;
    (0, 0) leaves the resource out of the score."""
    if pod_request == 0 and is_scalar_resource_name(name):
        return 0, 0
    allocatable = node_info.allocatable
    if name in (CPU, MEMORY):
        return allocatable.get(name, 0), node_info.non_zero_requested[name] + pod_request
    if name == EPHEMERAL_STORAGE or (is_scalar_resource_name(name) and name in allocatable):
        return allocatable.get(name, 0), node_info.requested.get(name, 0) + pod_request
    return 0, 0


def least_requested_score(requested: int, capacity: int) -> int:
    """Free share of the resource on a 0..100 scale."""
    if capacity == 0 or requested > capacity:
        return 0
    return go_div((capacity - requested) * MAX_NODE_SCORE, capacity)


def most_requested_score(requested: int, capacity: int) -> int:
    """Used share of the resource on a 0..100 scale (requests beyond capacity count as full)."""
    if capacity == 0:
        return 0
    return go_div(min(requested, capacity) * MAX_NODE_SCORE, capacity)


def _weighted_mean(
    resource_score: Callable[[int, int], int], resources: Sequence[ResourceSpec]
) -> Scorer:
    def score(requested: Sequence[int], allocatable: Sequence[int]) -> int:
        total = weights = 0
        for spec, req, alloc in zip(resources, requested, allocatable, strict=True):
            if alloc == 0:
                continue
            total += resource_score(req, alloc) * spec.weight
            weights += spec.weight
        return go_div(total, weights) if weights else 0

    return score


def scaled_shape(shape: Sequence[UtilizationShapePoint]) -> list[tuple[int, int]]:
    """The shape's (utilization, score) points with scores scaled from 0..10 to 0..100."""
    scale = MAX_NODE_SCORE // MAX_CUSTOM_PRIORITY_SCORE
    return [(p.utilization, p.score * scale) for p in shape]


def broken_linear(points: Sequence[tuple[int, int]]) -> Callable[[int], int]:
    """Upstream's BuildBrokenLinearFunction: linear between the (utilization, score) points,
    flat before the first and after the last."""

    def f(p: int) -> int:
        for i, (u, s) in enumerate(points):
            if p <= u:
                if i == 0:
                    return s
                u0, s0 = points[i - 1]
                return s0 + go_div((s - s0) * (p - u0), u - u0)
        return points[-1][1]

    return f


def utilization(requested: int, capacity: int) -> int:
    """Requested share of capacity in percent; a full (100) share when over or without capacity."""
    if capacity == 0 or requested > capacity:
        return MAX_UTILIZATION
    return go_div(requested * MAX_UTILIZATION, capacity)


def _requested_to_capacity_ratio(
    shape: Sequence[UtilizationShapePoint], resources: Sequence[ResourceSpec]
) -> Scorer:
    curve = broken_linear(scaled_shape(shape))

    def score(requested: Sequence[int], allocatable: Sequence[int]) -> int:
        total = weights = 0
        for spec, req, alloc in zip(resources, requested, allocatable, strict=True):
            if alloc == 0:
                continue
            value = curve(utilization(req, alloc))
            if value > 0:
                total += value * spec.weight
                weights += spec.weight
        # math.Round(total / weights): half away from zero; both are non-negative here.
        return (2 * total + weights) // (2 * weights) if weights else 0

    return score


def build_scorer(strategy: ScoringStrategy) -> Scorer:
    """The scorer for a validated strategy."""
    if strategy.type == LEAST_ALLOCATED:
        return _weighted_mean(least_requested_score, strategy.resources)
    if strategy.type == MOST_ALLOCATED:
        return _weighted_mean(most_requested_score, strategy.resources)
    assert strategy.requested_to_capacity_ratio is not None  # guaranteed by validation
    return _requested_to_capacity_ratio(
        strategy.requested_to_capacity_ratio.shape, strategy.resources
    )


def score_node(
    scorer: Scorer,
    resources: Sequence[ResourceSpec],
    node_info: NodeInfo,
    pod_requests_per_resource: Sequence[int],
) -> int:
    """One node's score (upstream's resourceAllocationScorer.score)."""
    requested: list[int] = []
    allocatable: list[int] = []
    for spec, pod_request in zip(resources, pod_requests_per_resource, strict=True):
        alloc, req = allocatable_and_requested(node_info, spec.name, pod_request)
        allocatable.append(alloc)
        requested.append(req if alloc else 0)
    return scorer(requested, allocatable)
