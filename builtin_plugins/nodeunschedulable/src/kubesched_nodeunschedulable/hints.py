"""Queueing hints: which events may make a pod NodeUnschedulable rejected schedulable."""

from __future__ import annotations

from typing import Any

from kubesched.api import Node, Pod
from kubesched.framework import QueueingHint
from kubesched_nodeunschedulable.tolerations import tolerates_unschedulable


def schedulable_after_node_change(pod: Pod, old_obj: Any, new_obj: Any) -> QueueingHint:
    """Queue when a node is added schedulable or is uncordoned. Objects that are not nodes
    queue the pod (as upstream's errors do)."""
    if not isinstance(new_obj, Node) or not isinstance(old_obj, (Node, type(None))):
        return QueueingHint.QUEUE
    if new_obj.spec.unschedulable:
        return QueueingHint.QUEUE_SKIP
    if old_obj is None or old_obj.spec.unschedulable:
        return QueueingHint.QUEUE
    return QueueingHint.QUEUE_SKIP


def schedulable_after_pod_toleration_change(pod: Pod, old_obj: Any, new_obj: Any) -> QueueingHint:
    """Queue when this pod's tolerations now cover the unschedulable taint; another pod's
    never matter. Objects that are not pods queue the pod (as upstream's errors do)."""
    if not isinstance(new_obj, Pod) or not isinstance(old_obj, (Pod, type(None))):
        return QueueingHint.QUEUE
    if new_obj.uid == pod.uid and tolerates_unschedulable(new_obj.spec.tolerations):
        return QueueingHint.QUEUE
    return QueueingHint.QUEUE_SKIP
