"""The balance kernel: how evenly a node's resources would be used with the pod on it.

For each scored resource the fraction requested / allocatable (capped at 1) is
taken, leaving out resources the node does not have (allocatable 0). With two
fractions the spread is half their difference, with more their population
standard deviation, with fewer 0; the score is `(1 - spread) * 100`, truncated.
The arithmetic is float64 in upstream's order of operations, so scores match
kube-scheduler's exactly; the kernel works on columns of nodes, and the
per-node form passes it one column.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from kubesched.api import CPU, EPHEMERAL_STORAGE, MEMORY, Pod, is_scalar_resource_name, pod_requests
from kubesched.framework import MAX_NODE_SCORE, NodeInfo, NodeTable
from kubesched_noderesourcesbalancedallocation.args import ResourceSpec

Amounts = NDArray[np.int64]
"""One row per scored resource, one column per node."""


def scored_requests(pod: Pod, resources: Sequence[ResourceSpec]) -> tuple[int, ...]:
    """The pod's request of each scored resource: what it asks for, no defaults for
    containers that ask for nothing (upstream scores balance on actual requests)."""
    requests = pod_requests(pod)
    return tuple(requests.get(spec.name, 0) for spec in resources)


def _counted(name: str, pod_request: int) -> bool:
    """Whether the node's amounts of `name` enter the score at all: cpu, memory and
    ephemeral storage always, a scalar resource only when the pod requests it."""
    if name in (CPU, MEMORY, EPHEMERAL_STORAGE):
        return True
    return is_scalar_resource_name(name) and pod_request != 0


def node_amounts(
    node_info: NodeInfo, resources: Sequence[ResourceSpec], pod_requests: Sequence[int]
) -> tuple[Amounts, Amounts]:
    """(requested with the pod, allocatable) for one node, as a one-column kernel input."""
    requested = np.zeros((len(resources), 1), dtype=np.int64)
    allocatable = np.zeros((len(resources), 1), dtype=np.int64)
    for i, (spec, pod_request) in enumerate(zip(resources, pod_requests, strict=True)):
        if _counted(spec.name, pod_request):
            allocatable[i, 0] = node_info.allocatable.get(spec.name, 0)
            requested[i, 0] = node_info.requested.get(spec.name, 0) + pod_request
    return requested, allocatable


def table_amounts(
    table: NodeTable,
    rows: NDArray[np.intp],
    resources: Sequence[ResourceSpec],
    pod_requests: Sequence[int],
) -> tuple[Amounts, Amounts]:
    """(requested with the pod, allocatable) for the table's `rows`, from its columns."""
    requested = np.zeros((len(resources), len(rows)), dtype=np.int64)
    allocatable = np.zeros((len(resources), len(rows)), dtype=np.int64)
    for i, (spec, pod_request) in enumerate(zip(resources, pod_requests, strict=True)):
        if _counted(spec.name, pod_request):
            allocatable[i] = table.resource("allocatable", spec.name)[rows]
            requested[i] = table.resource("requested", spec.name)[rows] + pod_request
    return requested, allocatable


def balanced_scores(requested: Amounts, allocatable: Amounts) -> NDArray[np.int64]:
    """The score of each column (node), 0..100."""
    valid = allocatable != 0
    if len(requested) == 2 and valid.all():  # the default: cpu and memory on every node
        fractions = requested / allocatable
        np.minimum(fractions, 1.0, out=fractions)
        spread = np.abs(fractions[0] - fractions[1])
        spread /= 2
    else:
        fractions = requested / np.where(valid, allocatable, 1)
        np.minimum(fractions, 1.0, out=fractions)
        fractions *= valid  # left out resources: 0.0, which adds nothing to a sum
        spread = _spread(fractions, valid, valid.sum(axis=0))
    np.subtract(1.0, spread, out=spread)  # (1 - spread) * 100, in upstream's order
    spread *= MAX_NODE_SCORE
    scores: NDArray[np.int64] = spread.astype(np.int64)
    return scores


def _spread(
    fractions: NDArray[np.float64], valid: NDArray[np.bool_], counts: NDArray[np.int64]
) -> NDArray[np.float64]:
    """Half the difference of two fractions, the population standard deviation of more."""
    nodes = fractions.shape[1]
    total = np.zeros(nodes)
    first = np.zeros(nodes)
    second = np.zeros(nodes)
    seen = np.zeros(nodes, dtype=np.int64)
    for fraction, ok in zip(fractions, valid, strict=True):
        total += fraction
        first = np.where(ok & (seen == 0), fraction, first)
        second = np.where(ok & (seen == 1), fraction, second)
        seen += ok
    spread = np.where(counts == 2, np.abs(first - second) / 2, 0.0)
    many = counts > 2
    if many.any():
        divisor = np.maximum(counts, 1)
        mean = total / divisor
        squares = np.zeros(nodes)
        for fraction, ok in zip(fractions, valid, strict=True):
            deviation = fraction - mean
            squares += np.where(ok, deviation * deviation, 0.0)
        spread = np.where(many, np.sqrt(squares / divisor), spread)
    return spread
