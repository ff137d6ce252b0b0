"""Pod groups without a custom resource: a label names the group, an annotation its minimum.

Pods of one namespace with the same `scheduling.x-k8s.io/pod-group` label
value form a group (scheduler-plugins' label). Its minimum size, the
PodGroup's `minMember` upstream, is the `scheduling.x-k8s.io/min-available`
annotation of the pod being scheduled: a decimal integer, 0 or more. A pod
with the label and no valid annotation belongs to a group that is "not
found", as a pod naming a missing PodGroup is upstream.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from attrs import frozen

from kubesched.api import Pod
from kubesched.framework import NodeInfo

POD_GROUP_LABEL = "scheduling.x-k8s.io/pod-group"
MIN_AVAILABLE_ANNOTATION = "scheduling.x-k8s.io/min-available"


@frozen
class PodGroup:
    """A group as one of its pods describes it."""

    namespace: str
    name: str
    min_member: int

    @property
    def full_name(self) -> str:
        """`namespace/name`, how messages name the group."""
        return f"{self.namespace}/{self.name}"


def full_name_of(pod: Pod) -> str:
    """The pod's group as `namespace/name`, or "" when it has no group label."""
    name = pod.metadata.labels.get(POD_GROUP_LABEL, "")
    return f"{pod.metadata.namespace}/{name}" if name else ""


def pod_group_of(pod: Pod) -> PodGroup | None:
    """The pod's group, or None when it has no group label or no valid minimum."""
    name = pod.metadata.labels.get(POD_GROUP_LABEL, "")
    raw = pod.metadata.annotations.get(MIN_AVAILABLE_ANNOTATION, "")
    if not name or not raw.isascii() or not raw.isdigit():
        return None
    return PodGroup(pod.metadata.namespace, name, int(raw))


def members(pods: Iterable[Pod], group: PodGroup) -> list[Pod]:
    """The group's pods among `pods`, pending or bound."""
    return [pod for pod in pods if full_name_of(pod) == group.full_name]


def assigned_count(node_infos: Sequence[NodeInfo], group: PodGroup, other_than: str) -> int:
    """Members on a node (bound, or assumed and maybe waiting at Permit), but pod `other_than`."""
    return sum(
        1
        for node_info in node_infos
        for pod_info in node_info.pods
        if pod_info.uid != other_than and full_name_of(pod_info.pod) == group.full_name
    )


Surroundings = tuple[int, frozenset[str], tuple[tuple[object, tuple[Pod, ...]], ...]]
"""The group's minimum, its members' uids, and every node with the pods on it that are not
members: what a retry of the group would be decided by."""


def surroundings(
    node_infos: Sequence[NodeInfo], group: PodGroup, group_pods: Iterable[Pod]
) -> Surroundings:
    """What the group's next attempt would face; equal values mean nothing has changed."""
    outside = tuple(
        (
            node_info.node,
            tuple(p.pod for p in node_info.pods if full_name_of(p.pod) != group.full_name),
        )
        for node_info in node_infos
    )
    return group.min_member, frozenset(pod.uid for pod in group_pods), outside
