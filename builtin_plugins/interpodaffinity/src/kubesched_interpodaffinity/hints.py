"""Queueing hints: which pod and node changes may make a pod InterPodAffinity rejected
schedulable (upstream's isSchedulableAfterPodChange / isSchedulableAfterNodeChange)."""

from __future__ import annotations

from typing import Any

from kubesched.api import Node, Pod
from kubesched.errors import InputError
from kubesched.framework import PodAffinityTerms, QueueingHint, pod_affinity_terms
from kubesched_interpodaffinity.counts import matches_all


def _terms(pod: Pod) -> PodAffinityTerms | None:
    try:
        return pod_affinity_terms(pod)
    except InputError:
        return None


def schedulable_after_pod_change(pod: Pod, old_obj: Any, new_obj: Any) -> QueueingHint:
    """Queue when a scheduled pod now matches all the pod's affinity terms (added or
    relabelled), stops matching all its anti-affinity terms (relabelled), or matched them
    and is deleted. Unscheduled pods never help; objects that are not pods queue."""
    if not isinstance(old_obj, (Pod, type(None))) or not isinstance(new_obj, (Pod, type(None))):
        return QueueingHint.QUEUE
    if (new_obj is not None and not new_obj.spec.node_name) or (
        old_obj is not None and not old_obj.spec.node_name
    ):
        return QueueingHint.QUEUE_SKIP
    terms = _terms(pod)
    if terms is None:
        return QueueingHint.QUEUE
    affinity, anti = terms.required_affinity, terms.required_anti_affinity
    if old_obj is not None and new_obj is not None:
        if not matches_all(affinity, old_obj) and matches_all(affinity, new_obj):
            return QueueingHint.QUEUE
        if matches_all(anti, old_obj) and not matches_all(anti, new_obj):
            return QueueingHint.QUEUE
        return QueueingHint.QUEUE_SKIP
    if new_obj is not None:
        return QueueingHint.QUEUE if matches_all(affinity, new_obj) else QueueingHint.QUEUE_SKIP
    if old_obj is not None and matches_all(anti, old_obj):
        return QueueingHint.QUEUE
    return QueueingHint.QUEUE_SKIP


def schedulable_after_node_change(pod: Pod, old_obj: Any, new_obj: Any) -> QueueingHint:
    """Queue when the added or updated node has the topology key of one of the pod's
    required affinity or anti-affinity terms. Objects that are not nodes queue."""
    if not isinstance(new_obj, Node):
        return QueueingHint.QUEUE
    terms = _terms(pod)
    if terms is None:
        return QueueingHint.QUEUE
    labels = new_obj.metadata.labels
    for term in (*terms.required_affinity, *terms.required_anti_affinity):
        if term.topology_key in labels:
            return QueueingHint.QUEUE
    return QueueingHint.QUEUE_SKIP
