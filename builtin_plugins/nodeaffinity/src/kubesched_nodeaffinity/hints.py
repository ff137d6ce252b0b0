"""Queueing hint: which node events may make a pod that NodeAffinity rejected schedulable."""

from __future__ import annotations

from typing import Any

from kubesched.api import Node, Pod
from kubesched.framework import QueueingHint
from kubesched_nodeaffinity.pod_affinity import required_node_affinity
from kubesched_nodeaffinity.selectors import NodeSelectorMatcher


def schedulable_after_node_change(
    added: NodeSelectorMatcher | None, pod: Pod, old_obj: Any, new_obj: Any
) -> QueueingHint:
    """Queue when a node was added, or updated from not matching to matching, and now
    matches both the scheduler-enforced affinity and the pod's. Objects that are not
    nodes, and selectors that do not parse, queue the pod (as upstream's errors do)."""
    if not isinstance(new_obj, Node) or not isinstance(old_obj, (Node, type(None))):
        return QueueingHint.QUEUE
    if added is not None and not added.matches(new_obj):
        return QueueingHint.QUEUE_SKIP
    required = required_node_affinity(pod)
    matches_now, errors = required.evaluate(new_obj)
    if errors:
        return QueueingHint.QUEUE
    if not matches_now:
        return QueueingHint.QUEUE_SKIP
    if old_obj is None:
        return QueueingHint.QUEUE
    matched_before, errors = required.evaluate(old_obj)
    if errors or not matched_before:
        return QueueingHint.QUEUE
    return QueueingHint.QUEUE_SKIP
