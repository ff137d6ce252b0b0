"""Queueing hints: which events may make a pod that VolumeRestrictions rejected schedulable."""

from __future__ import annotations

from typing import Any

from kubesched.api import PersistentVolumeClaim, Pod
from kubesched.framework import QueueingHint
from kubesched_volumerestrictions.conflicts import claim_names, pod_conflicts


def schedulable_after_pod_deleted(pod: Pod, old_obj: Any, new_obj: Any) -> QueueingHint:
    """Queue when the deleted pod (same namespace) held a disk the pod conflicts with, or
    used one of the pod's claims (it may have been ReadWriteOncePod)."""
    if not isinstance(old_obj, Pod):
        return QueueingHint.QUEUE
    if old_obj.metadata.namespace != pod.metadata.namespace:
        return QueueingHint.QUEUE_SKIP
    if pod_conflicts(pod, [old_obj]) or claim_names(pod) & claim_names(old_obj):
        return QueueingHint.QUEUE
    return QueueingHint.QUEUE_SKIP


def schedulable_after_claim_added(pod: Pod, old_obj: Any, new_obj: Any) -> QueueingHint:
    """Queue when the new claim is one the pod names, in its namespace."""
    if not isinstance(new_obj, PersistentVolumeClaim):
        return QueueingHint.QUEUE
    if new_obj.metadata.namespace != pod.metadata.namespace:
        return QueueingHint.QUEUE_SKIP
    named = new_obj.metadata.name in claim_names(pod)
    return QueueingHint.QUEUE if named else QueueingHint.QUEUE_SKIP
