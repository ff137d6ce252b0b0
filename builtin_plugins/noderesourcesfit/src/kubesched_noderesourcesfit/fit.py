"""Does a pod's request fit a node? Upstream's computePodResourceRequest and fitsRequest.

The request Filter checks is the pod's effective request (containers,
init containers, sidecars, overhead) in the dimensions the scheduler tracks:
cpu, memory, ephemeral-storage and scalar resources (extended resources,
hugepages, `kubernetes.io/` prefixed names). A request larger than what is
left on the node is insufficient; larger than the node's whole allocatable,
it is unresolvable (preemption cannot help).
"""

from __future__ import annotations

from collections.abc import Collection

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


def fits_request(
    request: FitRequest,
    node_info: NodeInfo,
    ignored: Collection[str] = (),
    ignored_groups: Collection[str] = (),
) -> list[InsufficientResource]:
    """Every resource the node lacks for the request, in upstream's order (pods, cpu,
    memory, ephemeral-storage, then scalar resources by name)."""
    out: list[InsufficientResource] = []
    allowed_pods = node_info.allocatable.get(PODS, 0)
    pod_count = len(node_info.pods)
    if pod_count + 1 > allowed_pods:
        out.append(InsufficientResource(PODS, TOO_MANY_PODS, 1, pod_count, allowed_pods))
    if request.is_empty():
        return out
    allocatable = node_info.allocatable
    requested = node_info.requested
    checked = [(n, a) for n, a in request.native if a > 0]
    checked += [
        (n, a) for n, a in request.scalars if a != 0 and not is_ignored(n, ignored, ignored_groups)
    ]
    for name, amount in checked:
        capacity = allocatable.get(name, 0)
        used = requested.get(name, 0)
        if amount > capacity - used:
            out.append(
                InsufficientResource(
                    name, f"Insufficient {name}", amount, used, capacity, amount > capacity
                )
            )
    return out
