"""Queueing hints: which events may make a pod that TaintToleration rejected schedulable."""

from __future__ import annotations

from typing import Any

from kubesched.api import Node, Pod
from kubesched.framework import QueueingHint
from kubesched_tainttoleration.tolerations import tolerates_hard_taints


def schedulable_after_node_change(
    pod: Pod, old_obj: Any, new_obj: Any, comparison: bool = False
) -> QueueingHint:
    """Queue when a node added or re-tainted now has only hard taints the pod tolerates,
    and did not before. Objects that are not nodes queue the pod (as an error would).
    `comparison`: the TaintTolerationComparisonOperators gate."""
    if not isinstance(new_obj, Node) or not isinstance(old_obj, (Node, type(None))):
        return QueueingHint.QUEUE
    tolerations = pod.spec.tolerations
    was_rejected = old_obj is None or not tolerates_hard_taints(old_obj, tolerations, comparison)
    if was_rejected and tolerates_hard_taints(new_obj, tolerations, comparison):
        return QueueingHint.QUEUE
    return QueueingHint.QUEUE_SKIP


def schedulable_after_pod_toleration_change(pod: Pod, old_obj: Any, new_obj: Any) -> QueueingHint:
    """Queue when the pod's own tolerations changed; another pod's never matter.
    Objects that are not pods queue the pod (as an error would)."""
    if not isinstance(new_obj, Pod) or not isinstance(old_obj, (Pod, type(None))):
        return QueueingHint.QUEUE
    return QueueingHint.QUEUE if new_obj.uid == pod.uid else QueueingHint.QUEUE_SKIP
