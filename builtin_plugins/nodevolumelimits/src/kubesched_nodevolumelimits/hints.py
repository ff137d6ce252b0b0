"""Queueing hints: which events may make a pod that NodeVolumeLimits rejected schedulable."""

from __future__ import annotations

from typing import Any

from kubesched.api import CSINode, PersistentVolumeClaim, Pod, VolumeAttachment
from kubesched.framework import ClusterClient, QueueingHint
from kubesched_nodevolumelimits.counting import claims_of, may_attach
from kubesched_nodevolumelimits.migration import inline_plugin


def _counts(csi_node: CSINode) -> dict[str, int]:
    return {
        d.name: d.allocatable.count
        for d in csi_node.spec.drivers
        if d.allocatable is not None and d.allocatable.count is not None
    }


def schedulable_after_csi_node_updated(pod: Pod, old_obj: Any, new_obj: Any) -> QueueingHint:
    """Queue when a driver's count went up, or a driver lost its limit or was added."""
    if not isinstance(old_obj, CSINode) or not isinstance(new_obj, CSINode):
        return QueueingHint.QUEUE
    before, after = _counts(old_obj), _counts(new_obj)
    for driver, count in before.items():
        if driver not in after or after[driver] > count:
            return QueueingHint.QUEUE
    return QueueingHint.QUEUE if set(after) - set(before) else QueueingHint.QUEUE_SKIP


def schedulable_after_assigned_pod_deleted(pod: Pod, old_obj: Any, new_obj: Any) -> QueueingHint:
    """Queue when the deleted pod ran on a node and had a claim, an ephemeral volume or an
    inline volume CSI migration knows."""
    if not isinstance(old_obj, Pod):
        return QueueingHint.QUEUE
    if not old_obj.spec.node_name or not may_attach(old_obj):
        return QueueingHint.QUEUE_SKIP
    return QueueingHint.QUEUE


def schedulable_after_claim_added(pod: Pod, old_obj: Any, new_obj: Any) -> QueueingHint:
    """Queue when the new claim is one the pod's volumes name, in its namespace."""
    if not isinstance(new_obj, PersistentVolumeClaim):
        return QueueingHint.QUEUE
    if new_obj.metadata.namespace != pod.metadata.namespace:
        return QueueingHint.QUEUE_SKIP
    names = {name for name, _ in claims_of(pod)}
    return QueueingHint.QUEUE if new_obj.metadata.name in names else QueueingHint.QUEUE_SKIP


def schedulable_after_volume_attachment_deleted(
    client: ClusterClient, pod: Pod, deleted: VolumeAttachment
) -> QueueingHint:
    """Queue when the detached volume is one the pod uses: the volume bound to one of its
    claims, or an inline in-tree volume of the CSI driver the attachment's inline spec
    names."""
    source = deleted.spec.source
    inline = source.inline_volume_spec
    inline_driver = inline.csi.driver if inline is not None and inline.csi is not None else ""
    for name, _ in claims_of(pod):
        claim = client.get_persistent_volume_claim(pod.metadata.namespace, name)
        if claim is not None and claim.spec.volume_name == source.persistent_volume_name:
            return QueueingHint.QUEUE
    for volume in pod.spec.volumes:
        plugin = inline_plugin(volume)
        if plugin is not None and inline_driver and plugin.driver == inline_driver:
            return QueueingHint.QUEUE
    return QueueingHint.QUEUE_SKIP
