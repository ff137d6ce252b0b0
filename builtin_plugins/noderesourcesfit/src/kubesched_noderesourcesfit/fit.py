"""Does a pod's request fit a node? Upstream's computePodResourceRequest and fitsRequest.

The request Filter checks is the pod's effective request (containers,
init containers, sidecars, overhead) in the dimensions the scheduler tracks:
cpu, memory, ephemeral-storage and scalar resources (extended resources,
hugepages, `kubernetes.io/` prefixed names). A request larger than what is
left on the node is insufficient; larger than the node's whole allocatable,
it is unresolvable (preemption cannot help).
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from typing import Protocol

from attrs import frozen

from kubesched.api import (
    CPU,
    EPHEMERAL_STORAGE,
    MEMORY,
    PODS,
    Pod,
    is_extended_resource_name,
    is_scalar_resource_name,
    pod_requests,
)
from kubesched.framework import NodeInfo
from kubesched_noderesourcesfit.views import Value

NATIVE_RESOURCES = (CPU, MEMORY, EPHEMERAL_STORAGE)
"""The resources checked before scalar ones, in upstream's order."""
TOO_MANY_PODS = "Too many pods"


@frozen
class FitRequest:
    """The request Filter checks; scalar resources in name order.

    Immutable, so `clone()` returns itself (upstream's preFilterState).
    """

    native: tuple[tuple[str, int], ...]
    scalars: tuple[tuple[str, int], ...]

    def clone(self) -> FitRequest:
        return self

    def is_empty(self) -> bool:
        """No cpu, memory or storage and no scalar resource named at all."""
        return not self.scalars and all(amount == 0 for _, amount in self.native)


def compute_fit_request(pod: Pod) -> FitRequest:
    """The pod's request as Filter sees it (upstream's computePodResourceRequest)."""
    reqs = pod_requests(pod)
    native = tuple((name, reqs.get(name, 0)) for name in NATIVE_RESOURCES)
    scalars = tuple(sorted((n, a) for n, a in reqs.items() if is_scalar_resource_name(n)))
    return FitRequest(native, scalars)


@frozen
class InsufficientResource:
    """A resource the node lacks for the pod (upstream's InsufficientResource)."""

    resource_name: str
    reason: str
    requested: int
    used: int
    capacity: int
    unresolvable: bool = False


def is_ignored(name: str, ignored: Collection[str], ignored_groups: Collection[str]) -> bool:
    """An extended resource named in ignoredResources or in one of ignoredResourceGroups."""
    if not is_extended_resource_name(name):
        return False
    return name in ignored or name.split("/")[0] in ignored_groups


@frozen
class FitCheck:
    """What Filter compares for one pod: the requested resources that count (cpu, memory,
    ephemeral-storage, then scalar resources by name; none requested, none ignored), with
    their amounts. The pod slot is always compared too. Immutable, so `clone()` is itself."""

    checked: tuple[tuple[str, int], ...]

    def clone(self) -> FitCheck:
        return self


def fit_check(
    request: FitRequest, ignored: Collection[str] = (), ignored_groups: Collection[str] = ()
) -> FitCheck:
    """The comparisons Filter makes for `request` under the plugin's ignored resources."""
    if request.is_empty():
        return FitCheck(())
    checked = [(n, a) for n, a in request.native if a > 0]
    checked += [
        (n, a) for n, a in request.scalars if a != 0 and not is_ignored(n, ignored, ignored_groups)
    ]
    return FitCheck(tuple(checked))


class Amounts(Protocol):
    """Amounts by resource name: a node's ResourceList, or NodeTable columns by name."""

    def get(self, name: str, default: int, /) -> Value: ...


Comparison = tuple[str, int, Value, Value, Value]
"""(resource, requested by the pod, used, capacity, short)."""


def comparisons(
    check: FitCheck, pod_count: Value, allocatable: Amounts, requested: Amounts
) -> Iterator[Comparison]:
    """`(resource, requested by the pod, used, capacity, short)` for everything Filter
    compares, in upstream's order (pods first); `short` is where the node lacks room. On
    one node's ints, or on NodeTable columns: the kernel of both forms of Filter."""
    capacity = allocatable.get(PODS, 0)
    yield PODS, 1, pod_count, capacity, capacity - pod_count < 1
    for name, amount in check.checked:
        used = requested.get(name, 0)
        capacity = allocatable.get(name, 0)
        yield name, amount, used, capacity, amount > capacity - used


def insufficient(name: str, amount: int, used: int, capacity: int) -> InsufficientResource:
    """The InsufficientResource of a comparison that came out short (the pod slot is never
    unresolvable: preemption can free one)."""
    if name == PODS:
        return InsufficientResource(PODS, TOO_MANY_PODS, amount, used, capacity)
    reason = f"Insufficient {name}"
    return InsufficientResource(name, reason, amount, used, capacity, amount > capacity)


def node_shortages(check: FitCheck, node_info: NodeInfo) -> list[InsufficientResource]:
    """Every resource the node lacks for the check, in upstream's order."""
    compared = comparisons(check, len(node_info.pods), node_info.allocatable, node_info.requested)
    return [
        insufficient(name, amount, used, capacity)
        for name, amount, used, capacity, short in compared
        if short
    ]


def fits_request(
    request: FitRequest,
    node_info: NodeInfo,
    ignored: Collection[str] = (),
    ignored_groups: Collection[str] = (),
) -> list[InsufficientResource]:
    """Every resource the node lacks for the request, in upstream's order (pods, cpu,
    memory, ephemeral-storage, then scalar resources by name)."""
    return node_shortages(fit_check(request, ignored, ignored_groups), node_info)
