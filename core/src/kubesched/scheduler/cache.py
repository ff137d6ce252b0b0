"""The scheduler cache: every node with the pods on it, including pods assumed but not bound.

Assume puts a pod on its node the moment the scheduling cycle picks it, so the
next cycle sees the node as used while binding runs asynchronously; ForgetPod
undoes that when binding fails, and AddPod confirms it when the bind lands.
Assumed pods never expire (upstream settled on that after double-booking
bugs, kubernetes#106361). The cache remembers which nodes changed since the
last snapshot, so `update_snapshot` copies only those.
"""

from __future__ import annotations

import copy

from attrs import define

from kubesched.api import Node, Pod
from kubesched.errors import KubeschedError
from kubesched.framework._types import NodeInfo, PodInfo, next_generation
from kubesched.scheduler.node_tree import NodeTree
from kubesched.scheduler.snapshot import Snapshot


class CacheError(KubeschedError):
    """An assume/forget/add that contradicts what the cache holds (a scheduler bug)."""


@define
class _PodState:
    pod: Pod
    assumed: bool
    info: PodInfo
    binding_finished: bool = False


def _same_requests(a: Pod, b: Pod) -> bool:
    """Do both pod objects share the fields requests come from (one derived from the other)?"""
    sa, sb = a.spec, b.spec
    return (
        sa.containers is sb.containers
        and sa.init_containers is sb.init_containers
        and sa.overhead is sb.overhead
    )


class Cache:
    """Nodes and pods as the scheduler believes them to be."""

    def __init__(self) -> None:
        self._nodes: dict[str, NodeInfo] = {}
        self._pods: dict[str, _PodState] = {}
        self._tree = NodeTree()
        self._dirty: set[str] = set()

    # -- nodes ---------------------------------------------------------------

    def add_node(self, node: Node) -> NodeInfo:
        ni = self._nodes.get(node.name)
        if ni is None:
            ni = self._nodes[node.name] = NodeInfo()
        if ni.node is None:
            self._tree.add(node)
        else:
            self._tree.update(ni.node, node)
        ni.set_node(node)
        self._dirty.add(node.name)
        return ni

    def update_node(self, old: Node, new: Node) -> NodeInfo:
        ni = self._nodes.get(new.name)
        if ni is None or ni.node is None:
            return self.add_node(new)
        self._tree.update(old, new)
        ni.set_node(new)
        self._dirty.add(new.name)
        return ni

    def remove_node(self, node: Node) -> None:
        """Forget the node; its NodeInfo stays (without a node) while pods still point at it."""
        ni = self._nodes.get(node.name)
        if ni is None or ni.node is None:
            raise CacheError(f"node {node.name} is not found")
        self._tree.remove(ni.node)
        if ni.pods:
            ni.node = None
            ni.generation = next_generation()
        else:
            del self._nodes[node.name]
        self._dirty.add(node.name)

    # -- pods ----------------------------------------------------------------

    def assume_pod(self, pod: Pod, derived_from: PodInfo | None = None) -> None:
        """Put the pod on `pod.spec.node_name` before it is bound.

        `derived_from`, the PodInfo of the same pod before `spec.nodeName` was set, saves
        recomputing its requests.
        """
        if pod.uid in self._pods:
            raise CacheError(f"pod {pod.key}({pod.uid}) is in the cache, so can't be assumed")
        info = self._add_to_node(pod, derived_from)
        self._pods[pod.uid] = _PodState(pod, assumed=True, info=info)

    def finish_binding(self, pod: Pod) -> None:
        """Binding returned; the pod stays assumed until the bound pod is added."""
        state = self._pods.get(pod.uid)
        if state is not None and state.assumed:
            state.binding_finished = True

    def forget_pod(self, pod: Pod) -> None:
        """Undo `assume_pod`."""
        state = self._pods.get(pod.uid)
        if state is None:
            return
        if not state.assumed:
            raise CacheError(f"pod {pod.key}({pod.uid}) wasn't assumed so cannot be forgotten")
        if state.pod.spec.node_name != pod.spec.node_name:
            raise CacheError(
                f"pod {pod.key}({pod.uid}) was assumed on {pod.spec.node_name} "
                f"but assigned to {state.pod.spec.node_name}"
            )
        self._remove_from_node(state.pod)
        del self._pods[pod.uid]

    def add_pod(self, pod: Pod) -> None:
        """A bound pod appeared: confirm it if assumed, else add it."""
        state = self._pods.get(pod.uid)
        if state is not None and not state.assumed:
            raise CacheError(f"pod {pod.key}({pod.uid}) was already in added state")
        template = None
        if state is not None:
            self._remove_from_node(state.pod)
            if _same_requests(state.pod, pod):
                template = state.info
        info = self._add_to_node(pod, template)
        self._pods[pod.uid] = _PodState(pod, assumed=False, info=info)

    def update_pod(self, old: Pod, new: Pod) -> None:
        state = self._pods.get(old.uid)
        if state is None or state.assumed:
            raise CacheError(f"pod {old.key}({old.uid}) is not added to scheduler cache")
        self._remove_from_node(state.pod)
        state.info = self._add_to_node(new)
        state.pod = new

    def remove_pod(self, pod: Pod) -> None:
        state = self._pods.pop(pod.uid, None)
        if state is None:
            raise CacheError(f"pod {pod.key}({pod.uid}) is not found in scheduler cache")
        self._remove_from_node(state.pod)

    def is_assumed(self, pod: Pod) -> bool:
        state = self._pods.get(pod.uid)
        return state is not None and state.assumed

    def get_pod(self, pod: Pod) -> Pod | None:
        state = self._pods.get(pod.uid)
        return None if state is None else state.pod

    def _add_to_node(self, pod: Pod, template: PodInfo | None = None) -> PodInfo:
        """Add the pod to its node; `template` is a PodInfo of the same containers to copy."""
        if template is None:
            info = PodInfo(pod)
        else:
            info = copy.copy(template)
            info.pod = pod
        name = pod.spec.node_name
        ni = self._nodes.get(name)
        if ni is None:
            ni = self._nodes[name] = NodeInfo()
        ni.add_pod_info(info)
        self._dirty.add(name)
        return info

    def _remove_from_node(self, pod: Pod) -> None:
        name = pod.spec.node_name
        ni = self._nodes.get(name)
        if ni is None:
            return
        ni.remove_pod(pod)
        if ni.node is None and not ni.pods:
            del self._nodes[name]
        self._dirty.add(name)

    # -- sizes and snapshot ----------------------------------------------------

    @property
    def num_nodes(self) -> int:
        return self._tree.num_nodes

    @property
    def num_pods(self) -> int:
        return len(self._pods)

    @property
    def num_assumed_pods(self) -> int:
        return sum(1 for s in self._pods.values() if s.assumed)

    def update_snapshot(self, snapshot: Snapshot) -> None:
        """Bring `snapshot` up to date, copying only the nodes that changed since the last call."""
        if not self._dirty:
            return
        dirty, self._dirty = self._dirty, set()
        live = {name: ni for name in dirty if (ni := self._nodes.get(name)) is not None and ni.node}
        if snapshot.apply_changes(dirty, live):
            return
        snapshot.rebuild([self._nodes[name] for name in self._tree.list()])
