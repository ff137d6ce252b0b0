"""Queueing hint: which deleted pods may make a pod that NodePorts rejected schedulable."""

from __future__ import annotations

from typing import Any

from kubesched.api import Pod
from kubesched.framework import QueueingHint, host_ports
from kubesched_nodeports.ports import fits


def schedulable_after_pod_deleted(pod: Pod, old_obj: Any, new_obj: Any) -> QueueingHint:
    """Queue when the deleted pod was on (or nominated to) a node and freed a host port
    the pod wants; an old object that is not a pod queues the pod (as an error would)."""
    if not isinstance(old_obj, Pod):
        return QueueingHint.QUEUE
    if not old_obj.spec.node_name and not old_obj.status.nominated_node_name:
        return QueueingHint.QUEUE_SKIP
    freed = host_ports(old_obj)
    if not freed or fits(host_ports(pod), frozenset(freed)):
        return QueueingHint.QUEUE_SKIP
    return QueueingHint.QUEUE
