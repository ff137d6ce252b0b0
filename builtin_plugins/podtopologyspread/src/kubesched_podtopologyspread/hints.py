"""Queueing hints: which pod and node events may make a pod this plugin rejected schedulable.

`constraints_of(pod)` gives the pod's DoNotSchedule constraints (its own, or
the defaults), as Filter sees them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from kubesched.api import Node, Pod
from kubesched.framework import QueueingHint
from kubesched_podtopologyspread.constraints import HONOR, Constraint, has_all_keys

ConstraintsOf = Callable[[Pod], Sequence[Constraint]]


def _involved(other: Pod, pod: Pod) -> bool:
    """The pod itself, or a scheduled pod in its namespace."""
    return other.uid == pod.uid or (
        bool(other.spec.node_name) and other.metadata.namespace == pod.metadata.namespace
    )


def _any_selects(constraints: Sequence[Constraint], labels: Mapping[str, str]) -> bool:
    return any(c.selector.matches(labels) for c in constraints)


def schedulable_after_pod_change(
    constraints_of: ConstraintsOf, pod: Pod, old_obj: Any, new_obj: Any
) -> QueueingHint:
    """Queue when a scheduled pod of the namespace that a selector matches was added or
    deleted, when an update changes whether a selector matches it, or when the pod got
    new tolerations while a constraint honours taints."""
    if not isinstance(old_obj, (Pod, type(None))) or not isinstance(new_obj, (Pod, type(None))):
        return QueueingHint.QUEUE
    if old_obj is None and new_obj is None:
        return QueueingHint.QUEUE
    for other in (new_obj, old_obj):
        if other is not None and not _involved(other, pod):
            return QueueingHint.QUEUE_SKIP
    try:
        constraints = constraints_of(pod)
    except Exception:
        return QueueingHint.QUEUE
    if old_obj is not None and new_obj is not None:
        if (
            new_obj.uid == pod.uid
            and new_obj.spec.tolerations != old_obj.spec.tolerations
            and any(c.node_taints_policy == HONOR for c in constraints)
        ):
            return QueueingHint.QUEUE
        old_labels, new_labels = old_obj.metadata.labels, new_obj.metadata.labels
        if old_labels == new_labels:
            return QueueingHint.QUEUE_SKIP
        for c in constraints:
            if c.selector.matches(old_labels) != c.selector.matches(new_labels):
                return QueueingHint.QUEUE
        return QueueingHint.QUEUE_SKIP
    changed = new_obj if new_obj is not None else old_obj
    assert changed is not None
    if _any_selects(constraints, changed.metadata.labels):
        return QueueingHint.QUEUE
    return QueueingHint.QUEUE_SKIP


def schedulable_after_node_change(
    constraints_of: ConstraintsOf, pod: Pod, old_obj: Any, new_obj: Any
) -> QueueingHint:
    """Queue when a node carrying every topology key was added or deleted, when an update
    gave or took away a key, or changed a key's value or the taints of a node with all keys."""
    if not isinstance(old_obj, (Node, type(None))) or not isinstance(new_obj, (Node, type(None))):
        return QueueingHint.QUEUE
    if old_obj is None and new_obj is None:
        return QueueingHint.QUEUE
    try:
        constraints = constraints_of(pod)
    except Exception:
        return QueueingHint.QUEUE
    old_match = old_obj is not None and has_all_keys(old_obj.metadata.labels, constraints)
    new_match = new_obj is not None and has_all_keys(new_obj.metadata.labels, constraints)
    if old_obj is not None and new_obj is not None:
        if old_match != new_match:
            return QueueingHint.QUEUE
        old_labels, new_labels = old_obj.metadata.labels, new_obj.metadata.labels
        keys_changed = any(
            old_labels.get(c.topology_key, "") != new_labels.get(c.topology_key, "")
            for c in constraints
        )
        if new_match and (keys_changed or old_obj.spec.taints != new_obj.spec.taints):
            return QueueingHint.QUEUE
        return QueueingHint.QUEUE_SKIP
    matched = new_match if new_obj is not None else old_match
    return QueueingHint.QUEUE if matched else QueueingHint.QUEUE_SKIP
