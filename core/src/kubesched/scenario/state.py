"""What a run knows of the cluster, kept up to date from the changes the scheduler takes:
nodes, bound and pending pods, each node's requested resources and the totals. It is the
`ClusterView` observers see."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from kubesched.api import PODS, Node, Pod
from kubesched.api._requests import pod_requests


def requests_of(pod: Pod) -> dict[str, int]:
    """What a pod asks of its node, its one `pods` slot included."""
    requests = dict(pod_requests(pod))
    requests[PODS] = 1
    return requests


def _add(into: dict[str, int], amounts: Mapping[str, int], sign: int) -> None:
    for name, amount in amounts.items():
        into[name] = into.get(name, 0) + sign * amount


class ClusterState:
    """The run's read-only picture of the cluster (a `ClusterView`)."""

    def __init__(self) -> None:
        self.now = 0.0
        self._nodes: dict[str, Node] = {}
        self._bound: dict[str, Pod] = {}
        self._pending: dict[str, Pod] = {}
        self._requests: dict[str, dict[str, int]] = {}
        self._on_node: dict[str, dict[str, int]] = {}
        self.allocated: dict[str, int] = {}
        """What bound pods request, over the cluster."""
        self.pending_requested: dict[str, int] = {}
        """What pending pods request, over the cluster."""
        self.allocatable: dict[str, int] = {}
        """What the nodes allocate, over the cluster."""
        self.nodes = MappingProxyType(self._nodes)
        self.bound_pods = MappingProxyType(self._bound)
        self.pending_pods = MappingProxyType(self._pending)

    def requested(self, node: str) -> Mapping[str, int]:
        return MappingProxyType(self._on_node.get(node, {}))

    # -- changes ---------------------------------------------------------------------

    def node_changed(self, old: Node | None, new: Node | None) -> None:
        if old is not None:
            _add(self.allocatable, old.status.allocatable, -1)
            del self._nodes[old.name]
        if new is not None:
            _add(self.allocatable, new.status.allocatable, 1)
            self._nodes[new.name] = new

    def pod_added(self, pod: Pod) -> None:
        requests = self._requests[pod.uid] = requests_of(pod)
        if pod.spec.node_name:
            self._bind(pod, requests)
        else:
            self._pending[pod.uid] = pod
            _add(self.pending_requested, requests, 1)

    def pod_bound(self, pod: Pod) -> None:
        del self._pending[pod.uid]
        requests = self._requests[pod.uid]
        _add(self.pending_requested, requests, -1)
        self._bind(pod, requests)

    def _bind(self, pod: Pod, requests: dict[str, int]) -> None:
        self._bound[pod.uid] = pod
        _add(self.allocated, requests, 1)
        _add(self._on_node.setdefault(pod.spec.node_name, {}), requests, 1)

    def pod_updated(self, pod: Pod) -> None:
        if pod.uid in self._bound:
            self._bound[pod.uid] = pod
        elif pod.uid in self._pending:
            self._pending[pod.uid] = pod

    def pod_deleted(self, pod: Pod) -> None:
        requests = self._requests.pop(pod.uid, {})
        if self._bound.pop(pod.uid, None) is not None:
            _add(self.allocated, requests, -1)
            on_node = self._on_node.get(pod.spec.node_name)
            if on_node is not None:
                _add(on_node, requests, -1)
                if not on_node.get(PODS):
                    del self._on_node[pod.spec.node_name]
        elif self._pending.pop(pod.uid, None) is not None:
            _add(self.pending_requested, requests, -1)

    def on_node(self, node: str) -> list[Pod]:
        """The pods bound to `node` (a walk over bound pods: for rare events only)."""
        return [p for p in self._bound.values() if p.spec.node_name == node]
