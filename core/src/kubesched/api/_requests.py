"""A pod's effective resource request, computed as upstream's resource helpers do.

Regular containers add up; init containers run one at a time, so the pod needs
the largest of them; restartable (sidecar) init containers keep running, so
they add to everything that starts after them; pod overhead is added last.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from kubesched.api._pod import RESTART_POLICY_ALWAYS, Container, Pod
from kubesched.api._resources import CPU, MEMORY, ResourceList

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


def pod_requests(pod: Pod, non_missing: Mapping[str, int] | None = None) -> ResourceList:
    """The pod's total request per resource.

    `non_missing` gives values for resources a container leaves unset (upstream's
    NonMissingContainerRequests); pass `NON_ZERO_DEFAULTS` for the scoring view.
    """
    reqs: ResourceList = {}
    for c in pod.spec.containers:
        _add(reqs, _container_requests(c, non_missing))
    sidecars: ResourceList = {}
    init_peak: ResourceList = {}
    for c in pod.spec.init_containers:
        creqs = _container_requests(c, non_missing)
        if c.restart_policy == RESTART_POLICY_ALWAYS:
            _add(reqs, creqs)
            _add(sidecars, creqs)
            step = sidecars
        else:
            step = dict(creqs)
            _add(step, sidecars)
        _max(init_peak, step)
    _max(reqs, init_peak)
    _add(reqs, pod.spec.overhead)
    return reqs


def sum_requests(lists: Iterable[Mapping[str, int]]) -> ResourceList:
    """Add resource lists together."""
    out: ResourceList = {}
    for rl in lists:
        _add(out, rl)
    return out
