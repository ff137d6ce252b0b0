"""Queueing hints: which events may make a pod that VolumeZone rejected schedulable."""

from __future__ import annotations

from typing import Any

from kubesched.api import (
    BINDING_WAIT_FOR_FIRST_CONSUMER,
    PersistentVolume,
    PersistentVolumeClaim,
    Pod,
    StorageClass,
)
from kubesched.framework import QueueingHint
from kubesched_volumezone.topology import claim_names, volume_topologies


def schedulable_after_claim_change(pod: Pod, old_obj: Any, new_obj: Any) -> QueueingHint:
    """Queue when the added or updated claim is one the pod names, in its namespace."""
    if not isinstance(new_obj, PersistentVolumeClaim):
        return QueueingHint.QUEUE
    if new_obj.metadata.namespace != pod.metadata.namespace:
        return QueueingHint.QUEUE_SKIP
    named = new_obj.metadata.name in claim_names(pod)
    return QueueingHint.QUEUE if named else QueueingHint.QUEUE_SKIP


def schedulable_after_storage_class_added(pod: Pod, old_obj: Any, new_obj: Any) -> QueueingHint:
    """Queue only for a new WaitForFirstConsumer class (its unbound claims stop mattering)."""
    if not isinstance(new_obj, StorageClass):
        return QueueingHint.QUEUE
    wait = new_obj.volume_binding_mode == BINDING_WAIT_FOR_FIRST_CONSUMER
    return QueueingHint.QUEUE if wait else QueueingHint.QUEUE_SKIP


def schedulable_after_volume_change(pod: Pod, old_obj: Any, new_obj: Any) -> QueueingHint:
    """Queue for a new volume, or one whose topology labels changed."""
    if not isinstance(new_obj, PersistentVolume):
        return QueueingHint.QUEUE
    if old_obj is None:
        return QueueingHint.QUEUE
    if not isinstance(old_obj, PersistentVolume):
        return QueueingHint.QUEUE
    changed = volume_topologies(old_obj) != volume_topologies(new_obj)
    return QueueingHint.QUEUE if changed else QueueingHint.QUEUE_SKIP
