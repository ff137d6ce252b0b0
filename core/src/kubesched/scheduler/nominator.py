"""The nominator: pods that preemption nominated to a node, not bound yet.

Filter treats a nominated pod of higher or equal priority as if it already
ran on its node, so the room preemption made is not taken by someone else.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from kubesched.api import Pod
from kubesched.framework._types import PodInfo

PodLookup = Callable[[Pod], "Pod | None"]
"""The live version of a pod, or None when it no longer exists."""


class Nominator:
    """node name -> nominated pods (in nomination order), and pod uid -> node name."""

    __slots__ = ("_by_node", "_counted", "_lookup", "_node_of", "_priorities")

    def __init__(self, lookup: PodLookup | None = None) -> None:
        self._lookup = lookup
        self._by_node: dict[str, list[PodInfo]] = {}
        self._node_of: dict[str, str] = {}
        self._priorities: Counter[int] = Counter()
        """How many nominated pods have each priority."""
        self._counted: dict[tuple[int, str], dict[str, list[PodInfo]]] = {}
        """`counted_for`'s answers until the nominations change."""

    def add_nominated_pod(self, pod_info: PodInfo, node_name: str | None) -> None:
        """Nominate the pod to `node_name` ("" clears the nomination).

        `None` keeps whatever `status.nominatedNodeName` the pod carries
        (upstream's ModeNoop). A pod that is gone or already bound is not nominated.
        """
        pod = pod_info.pod
        self.delete_nominated_pod_if_exists(pod)
        node = pod.status.nominated_node_name if node_name is None else node_name
        if not node:
            return
        if self._lookup is not None:
            live = self._lookup(pod)
            if live is None or live.spec.node_name:
                return
        self._node_of[pod.uid] = node
        self._by_node[node] = [*self._by_node.get(node, ()), pod_info]
        self._priorities[pod_info.priority] += 1
        self._counted.clear()

    def update_nominated_pod(self, old_pod: Pod, new_pod_info: PodInfo) -> None:
        """Replace the pod's PodInfo, keeping an in-memory nomination the update did not carry."""
        node: str | None = None
        if (
            not old_pod.status.nominated_node_name
            and not new_pod_info.pod.status.nominated_node_name
        ):
            node = self._node_of.get(old_pod.uid)
        self.delete_nominated_pod_if_exists(old_pod)
        self.add_nominated_pod(new_pod_info, node)

    def delete_nominated_pod_if_exists(self, pod: Pod) -> None:
        node = self._node_of.pop(pod.uid, None)
        if node is None:
            return
        self._counted.clear()
        kept: list[PodInfo] = []
        for p in self._by_node.pop(node):
            if p.uid != pod.uid:
                kept.append(p)
            else:
                self._priorities[p.priority] -= 1
                if not self._priorities[p.priority]:
                    del self._priorities[p.priority]
        if kept:
            self._by_node[node] = kept

    def nominated_pods_for_node(self, node_name: str) -> list[PodInfo]:
        return list(self._by_node.get(node_name, ()))

    def counted_for(self, pod: Pod) -> dict[str, list[PodInfo]]:
        """Node name -> the pods nominated there that Filter counts for `pod` (priority at
        least its own, not the pod itself), in nomination order; nodes with none are left
        out. The answer is shared until the nominations change: do not modify it."""
        uid, priority = pod.metadata.uid, pod.priority
        own = self._node_of.get(uid)
        key = (priority, uid if own else "")
        counted = self._counted.get(key)
        if counted is not None:
            return counted
        if min(self._priorities, default=priority) >= priority:  # every pod counts
            counted = dict(self._by_node)
            if own is not None:
                mine = [p for p in counted.pop(own) if p.uid != uid]
                if mine:
                    counted[own] = mine
        else:
            counted = {}
            for node, pods in self._by_node.items():
                kept = [p for p in pods if p.priority >= priority and p.uid != uid]
                if kept:
                    counted[node] = kept
        self._counted[key] = counted
        return counted

    def nominated_node_names(self) -> list[str]:
        """Every node some pod is nominated to."""
        return list(self._by_node)

    def __len__(self) -> int:
        return len(self._node_of)
