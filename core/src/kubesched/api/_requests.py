"""A pod's effective resource request, computed as upstream's resource helpers do.

Regular containers add up; init containers run one at a time, so the pod needs
the largest of them; restartable (sidecar) init containers keep running, so
they add to everything that starts after them. Pod-level requests
(`spec.resources`, PodLevelResources) then replace that sum for the resources
they may name: cpu, memory and hugepages. Pod overhead is added last.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from kubesched.api._pod import RESTART_POLICY_ALWAYS, Container, Pod
from kubesched.api._resources import CPU, MEMORY, ResourceList, is_hugepage_resource_name

DEFAULT_MILLI_CPU_REQUEST = 100
"""Upstream's DefaultMilliCPURequest: CPU assumed for scoring a container that asks for none."""
DEFAULT_MEMORY_REQUEST = 200 * 1024 * 1024
"""Upstream's DefaultMemoryRequest (200Mi), for scoring a container that asks for no memory."""
NON_ZERO_DEFAULTS: Mapping[str, int] = {
    CPU: DEFAULT_MILLI_CPU_REQUEST,
    MEMORY: DEFAULT_MEMORY_REQUEST,
}


def _container_requests(c: Container, non_missing: Mapping[str, int] | None) -> ResourceList:
    requests = c.resources.requests
    if not non_missing:
        return requests
    out = dict(requests)
    for name, amount in non_missing.items():
        if name not in out:
            out[name] = amount
    return out


def _add(into: ResourceList, other: Mapping[str, int]) -> None:
    for name, amount in other.items():
        into[name] = into.get(name, 0) + amount


def _max(into: ResourceList, other: Mapping[str, int]) -> None:
    for name, amount in other.items():
        if amount > into.get(name, 0):
            into[name] = amount


def is_pod_level_resource(name: str) -> bool:
    """Whether pod-level resources may name this resource (upstream's
    IsSupportedPodLevelResource): cpu, memory and hugepages."""
    return name in (CPU, MEMORY) or is_hugepage_resource_name(name)


def pod_requests(pod: Pod, non_missing: Mapping[str, int] | None = None) -> ResourceList:
    """The pod's total request per resource.

    `non_missing` gives values for resources a container leaves unset (upstream's
    NonMissingContainerRequests); pass `NON_ZERO_DEFAULTS` for the scoring view.
    """
    reqs = container_requests(pod, non_missing)
    pod_level = pod.spec.resources
    if pod_level is not None:
        for name, amount in pod_level.requests.items():
            if is_pod_level_resource(name):
                reqs[name] = amount
    _add(reqs, pod.spec.overhead)
    return reqs


def container_requests(pod: Pod, non_missing: Mapping[str, int] | None = None) -> ResourceList:
    """The containers' request per resource, without pod-level requests or overhead
    (upstream's AggregateContainerRequests)."""
    return _aggregate(pod, lambda c: _container_requests(c, non_missing))


def container_limits(pod: Pod) -> ResourceList:
    """The containers' limit per resource, added up the same way (AggregateContainerLimits)."""
    return _aggregate(pod, lambda c: c.resources.limits)


def _aggregate(pod: Pod, amounts: Callable[[Container], Mapping[str, int]]) -> ResourceList:
    total: ResourceList = {}
    for c in pod.spec.containers:
        _add(total, amounts(c))
    sidecars: ResourceList = {}
    init_peak: ResourceList = {}
    for c in pod.spec.init_containers:
        own = amounts(c)
        if c.restart_policy == RESTART_POLICY_ALWAYS:
            _add(total, own)
            _add(sidecars, own)
            step = sidecars
        else:
            step = dict(own)
            _add(step, sidecars)
        _max(init_peak, step)
    _max(total, init_peak)
    return total


def sum_requests(lists: Iterable[Mapping[str, int]]) -> ResourceList:
    """Add resource lists together."""
    out: ResourceList = {}
    for rl in lists:
        _add(out, rl)
    return out
