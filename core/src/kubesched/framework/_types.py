"""What plugins see of pods and nodes: PodInfo, QueuedPodInfo, NodeInfo, and result types."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
from attrs import define, field, frozen

from kubesched.api import NON_ZERO_DEFAULTS, PODS, RESTART_POLICY_ALWAYS, Node, Pod, pod_requests
from kubesched.api._resources import CPU, MEMORY, ResourceList
from kubesched.errors import InputError
from kubesched.framework._affinity import NO_TERMS, PodAffinityTerms, pod_affinity_terms

_generation = itertools.count(1)


def next_generation() -> int:
    """A process-wide, ever-increasing generation number (upstream's nextGeneration)."""
    return next(_generation)


def host_ports(pod: Pod) -> tuple[tuple[str, str, int], ...]:
    """The (hostIP, protocol, hostPort) the pod takes on its node (upstream's GetHostPorts):
    ports with a hostPort of its sidecars (init containers with restartPolicy Always), then
    of its containers; an empty hostIP is 0.0.0.0 and an empty protocol TCP."""
    sidecars = (c for c in pod.spec.init_containers if c.restart_policy == RESTART_POLICY_ALWAYS)
    return tuple(
        (p.host_ip or "0.0.0.0", p.protocol or "TCP", p.host_port)
        for c in (*sidecars, *pod.spec.containers)
        for p in c.ports
        if p.host_port > 0
    )


class PodInfo:
    """A pod plus what the scheduler derives from it once: its priority, requests, host
    ports and (on first use) its compiled pod affinity terms."""

    __slots__ = (
        "_affinity_terms",
        "host_ports",
        "non_zero_requests",
        "pod",
        "priority",
        "requests",
    )

    def __init__(self, pod: Pod) -> None:
        self.pod = pod
        self.priority: int = pod.priority
        self.requests: ResourceList = pod_requests(pod)
        nz = pod_requests(pod, NON_ZERO_DEFAULTS)
        self.non_zero_requests: ResourceList = {CPU: nz.get(CPU, 0), MEMORY: nz.get(MEMORY, 0)}
        self.host_ports: tuple[tuple[str, str, int], ...] = host_ports(pod)
        self._affinity_terms: PodAffinityTerms | None = None

    @property
    def affinity_terms(self) -> PodAffinityTerms:
        """The pod's (anti-)affinity terms; none when a selector is invalid, as upstream
        keeps such a pod's terms empty."""
        terms = self._affinity_terms
        if terms is None:
            try:
                terms = pod_affinity_terms(self.pod)
            except InputError:
                terms = NO_TERMS
            self._affinity_terms = terms
        return terms

    @property
    def uid(self) -> str:
        return self.pod.metadata.uid

    def __repr__(self) -> str:
        return f"PodInfo({self.pod.key})"


class QueuedPodInfo:
    """A pod in the scheduling queue, with its attempt bookkeeping."""

    __slots__ = (
        "attempts",
        "consecutive_errors_count",
        "gated",
        "gating_plugin",
        "initial_attempt_timestamp",
        "pending_plugins",
        "pod_info",
        "timestamp",
        "unschedulable_plugins",
    )

    def __init__(self, pod_info: PodInfo, timestamp: float) -> None:
        self.pod_info = pod_info
        self.timestamp = timestamp
        self.initial_attempt_timestamp: float | None = None
        self.attempts = 0
        self.consecutive_errors_count = 0
        self.unschedulable_plugins: set[str] = set()
        self.pending_plugins: set[str] = set()
        self.gating_plugin = ""
        self.gated = False

    @property
    def pod(self) -> Pod:
        return self.pod_info.pod

    def __repr__(self) -> str:
        return f"QueuedPodInfo({self.pod.key}, attempts={self.attempts})"


class NodeInfo:
    """A node and the pods on it, with aggregated requests (upstream's NodeInfo).

    `generation` changes on every mutation, so snapshots copy only what changed.

    Attributes:
        node: The Node object (None while only its pods are known).
        name: The node's name ("" without a node).
        allocatable: What the node offers pods: resource name -> amount (CPU in
            millicores, memory and storage in bytes, pods and extended resources as counts).
        pods: The pods on the node (each a PodInfo: `.pod`, with its requests).
        requested: The sum of the pods' effective requests, by resource.
        non_zero_requested: The same, with upstream's non-zero defaults for CPU and memory
            of pods that request none (what scoring uses).
        used_ports: Host ports in use: (host IP, protocol, port) -> number of pods.
        pods_with_affinity: The pods that declare pod affinity or anti-affinity.
        pods_with_required_anti_affinity: The pods with required pod anti-affinity.
        generation: A number that grows on every change.
    """

    __slots__ = (
        "_node",
        "allocatable",
        "generation",
        "name",
        "non_zero_requested",
        "pods",
        "pods_with_affinity",
        "pods_with_required_anti_affinity",
        "requested",
        "used_ports",
    )

    name: str  # set with `node`: read on every row of a cycle, so not a property

    def __init__(self, node: Node | None = None, pods: Iterable[PodInfo] = ()) -> None:
        self.node = None
        self.allocatable: ResourceList = {}
        self.pods: list[PodInfo] = []
        self.requested: ResourceList = {}
        self.non_zero_requested: ResourceList = {CPU: 0, MEMORY: 0}
        self.used_ports: dict[tuple[str, str, int], int] = {}
        self.pods_with_affinity: list[PodInfo] = []
        self.pods_with_required_anti_affinity: list[PodInfo] = []
        self.generation = next_generation()
        if node is not None:
            self.set_node(node)
        for p in pods:
            self.add_pod_info(p)

    @property
    def node(self) -> Node | None:
        return self._node

    @node.setter
    def node(self, node: Node | None) -> None:
        self._node = node
        self.name = node.metadata.name if node is not None else ""

    @property
    def allowed_pod_number(self) -> int:
        return self.allocatable.get(PODS, 0)

    def set_node(self, node: Node) -> None:
        self.node = node
        self.allocatable = dict(node.status.allocatable)
        self.generation = next_generation()

    def add_pod_info(self, pod_info: PodInfo) -> None:
        self.pods.append(pod_info)
        affinity = pod_info.pod.spec.affinity
        if affinity is not None and (affinity.pod_affinity or affinity.pod_anti_affinity):
            self.pods_with_affinity.append(pod_info)
            anti = affinity.pod_anti_affinity
            if anti is not None and anti.required_during_scheduling_ignored_during_execution:
                self.pods_with_required_anti_affinity.append(pod_info)
        self._update(pod_info, 1)

    def add_pod(self, pod: Pod) -> None:
        self.add_pod_info(PodInfo(pod))

    def remove_pod(self, pod: Pod) -> bool:
        """Remove the pod with this uid; False when it is not on the node."""
        uid = pod.metadata.uid
        i = self._index_of(uid)
        if i is None:
            return False
        p = self.pods.pop(i)
        if self.pods_with_affinity:
            self.pods_with_affinity = [q for q in self.pods_with_affinity if q.uid != uid]
        if self.pods_with_required_anti_affinity:
            self.pods_with_required_anti_affinity = [
                q for q in self.pods_with_required_anti_affinity if q.uid != uid
            ]
        self._update(p, -1)
        return True

    def _index_of(self, uid: str) -> int | None:
        """Where the pod with this uid is in `pods` (None: not there). A node holds a uid
        once; the list is searched from both ends at once, as the pods removed are mostly
        the newest (an assumed pod replaced by its binding) or the oldest."""
        pods = self.pods
        last = len(pods) - 1
        for k in range((last + 2) // 2):
            if pods[last - k].pod.metadata.uid == uid:
                return last - k
            if pods[k].pod.metadata.uid == uid:
                return k
        return None

    def _update(self, pod_info: PodInfo, sign: int) -> None:
        requested = self.requested
        for name, amount in pod_info.requests.items():
            requested[name] = requested.get(name, 0) + sign * amount
        nz = self.non_zero_requested
        nz[CPU] += sign * pod_info.non_zero_requests[CPU]
        nz[MEMORY] += sign * pod_info.non_zero_requests[MEMORY]
        for port in pod_info.host_ports:
            count = self.used_ports.get(port, 0) + sign
            if count > 0:
                self.used_ports[port] = count
            else:
                self.used_ports.pop(port, None)
        self.generation = next_generation()

    def snapshot(self) -> NodeInfo:
        """A copy that can be changed without touching this one (same generation)."""
        copy = NodeInfo.__new__(NodeInfo)
        copy._node = self._node
        copy.name = self.name
        copy.allocatable = dict(self.allocatable)
        copy.pods = list(self.pods)
        copy.requested = dict(self.requested)
        copy.non_zero_requested = dict(self.non_zero_requested)
        copy.used_ports = dict(self.used_ports)
        copy.pods_with_affinity = list(self.pods_with_affinity)
        copy.pods_with_required_anti_affinity = list(self.pods_with_required_anti_affinity)
        copy.generation = self.generation
        return copy

    def __repr__(self) -> str:
        return f"NodeInfo({self.name}, pods={len(self.pods)})"


@frozen
class PreFilterResult:
    """A PreFilter's narrowing of the nodes to consider; None means all nodes.

    Results of several plugins are intersected.
    """

    node_names: frozenset[str] | None = None

    def all_nodes(self) -> bool:
        return self.node_names is None

    def merge(self, other: PreFilterResult | None) -> PreFilterResult:
        if other is None or other.node_names is None:
            return self
        if self.node_names is None:
            return other
        return PreFilterResult(self.node_names & other.node_names)


@frozen
class PostFilterResult:
    """A PostFilter's outcome: the node nominated for the pod (empty for none), the pods
    it evicted, and optionally what it weighed, as JSON-able data (`simulate --explain`
    shows it as the pod's `preemption`)."""

    nominated_node_name: str = ""
    victims: tuple[str, ...] = ()
    details: Mapping[str, Any] | None = field(default=None, eq=False)
    """Explanation only: two results that nominate and evict the same are equal."""


@define
class NodeScoreList:
    """Scores of one Score plugin over the feasible nodes, as NormalizeScore sees them.

    `scores[i]` belongs to `names[i]`; NormalizeScore changes `scores` in place.
    """

    names: Sequence[str]
    scores: np.ndarray[Any, np.dtype[np.int64]] = field()

    def as_dict(self) -> dict[str, int]:
        return {n: int(s) for n, s in zip(self.names, self.scores, strict=True)}


MAX_NODE_SCORE = 100
MIN_NODE_SCORE = 0
MAX_TOTAL_SCORE = 2**63 - 1
