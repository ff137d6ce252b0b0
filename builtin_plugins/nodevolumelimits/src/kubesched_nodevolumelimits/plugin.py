"""The NodeVolumeLimits plugin: a node fits while, for every CSI driver, the volumes attached
there plus the new pod's stay within the driver's `allocatable.count` in the node's CSINode.

Attached means used by a pod on the node (a claim's volume, a generic ephemeral volume, an
in-tree volume migrated to CSI) or named by a VolumeAttachment to the node. A volume
several pods share counts once; a volume the new pod shares with a pod on the node is not
new. A VolumeAttachment's volume counts even when the new pod uses it too, as upstream.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from attrs import field, frozen

from kubesched import hookimpl
from kubesched.api import CSINode, Pod, VolumeAttachment
from kubesched.framework import (
    ActionType,
    ClusterClient,
    ClusterEvent,
    ClusterEventWithHint,
    Code,
    CycleState,
    EventResource,
    Handle,
    NodeInfo,
    QueueingHint,
    Status,
)
from kubesched_nodevolumelimits.attachments import attached_by_node
from kubesched_nodevolumelimits.counting import (
    ClaimNotFoundError,
    InlineTranslationError,
    NotOwnedError,
    attachable_volumes,
    may_attach,
)
from kubesched_nodevolumelimits.hints import (
    schedulable_after_assigned_pod_deleted,
    schedulable_after_claim_added,
    schedulable_after_csi_node_updated,
    schedulable_after_volume_attachment_deleted,
)
from kubesched_nodevolumelimits.migration import migration_key

NAME = "NodeVolumeLimits"
REASON_MAX_VOLUME_COUNT_EXCEEDED = "node(s) exceed max volume count"
PRE_FILTER_STATE_KEY = "PreFilterNodeVolumeLimits"


_VolumeError = ClaimNotFoundError | NotOwnedError | InlineTranslationError


@frozen
class _Attached:
    """The volumes VolumeAttachments attach, per node, read once per cycle; and the pod's own
    attachable volumes (or the error finding them) per migration key, worked out once."""

    by_node: dict[str, dict[str, str]]
    new_volumes: dict[tuple[bool, str], dict[str, str] | _VolumeError] = field(factory=dict)

    def clone(self) -> _Attached:
        return self


class NodeVolumeLimits:
    """Upstream's NodeVolumeLimits (CSILimits): CSI attach limits per node and driver."""

    name = NAME

    def __init__(self, args: object = None, handle: Handle | None = None) -> None:
        """No args; the handle's client is where claims, volumes, CSINodes and
        VolumeAttachments are looked up."""
        self._handle = handle

    @property
    def _client(self) -> ClusterClient:
        assert self._handle is not None, "NodeVolumeLimits needs a handle"
        return self._handle.client

    @hookimpl
    def pre_filter(self, state: CycleState, pod: Pod) -> Status | None:
        """Skip pods without a claim, a generic ephemeral volume or a migratable in-tree
        volume; otherwise read the VolumeAttachments once for the cycle."""
        if not may_attach(pod):
            return Status(Code.SKIP)
        state.write(PRE_FILTER_STATE_KEY, self._attachments())
        return None

    def _attachments(self) -> _Attached:
        client = self._client
        return _Attached(attached_by_node(client, client.volume_attachments()))

    @hookimpl
    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Status | None:
        if not pod.spec.volumes or node_info.node is None:
            return None
        client = self._client
        csi_node = client.get_csi_node(node_info.name)
        known = state.read(PRE_FILTER_STATE_KEY) if PRE_FILTER_STATE_KEY in state else None
        cycle = known if isinstance(known, _Attached) else None
        try:
            new = self._new_volumes(cycle, pod, csi_node)
        except ClaimNotFoundError as err:
            return Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, str(err))
        except (NotOwnedError, InlineTranslationError) as err:
            return Status.error(err.message)
        if not new:
            return None
        limits = {
            driver.name: driver.allocatable.count
            for driver in (csi_node.spec.drivers if csi_node is not None else [])
            if driver.allocatable is not None and driver.allocatable.count is not None
        }
        if not limits:
            return None
        attached: dict[str, str] = {}
        try:
            for info in node_info.pods:
                attached.update(attachable_volumes(client, info.pod, csi_node, new_pod=False))
        except (NotOwnedError, InlineTranslationError) as err:
            return Status.error(err.message)
        by_node = (cycle if cycle is not None else self._attachments()).by_node
        on_node = by_node.get(node_info.name, {})
        # Within every limit even if all these volumes were one driver's: the node fits.
        most = len(attached) + len(on_node) + len(new)
        if all(most <= limits.get(driver, most) for driver in new.values()):
            return None
        for volume in attached:
            new.pop(volume, None)  # already attached for another pod: counts once
        attached_count = Counter(attached.values())
        for volume, driver in on_node.items():
            if volume not in attached:
                attached_count[driver] += 1
        for driver, count in Counter(new.values()).items():
            limit = limits.get(driver)
            if limit is not None and attached_count[driver] + count > limit:
                return Status(Code.UNSCHEDULABLE, REASON_MAX_VOLUME_COUNT_EXCEEDED)
        return None

    def _new_volumes(
        self, cycle: _Attached | None, pod: Pod, csi_node: CSINode | None
    ) -> dict[str, str]:
        """The pod's attachable volumes on a node with this CSINode (a fresh dict). They
        depend on the node only through its migration key, so within a cycle they are
        worked out once per key."""
        if cycle is None:
            return attachable_volumes(self._client, pod, csi_node, new_pod=True)
        key = migration_key(csi_node)
        held = cycle.new_volumes.get(key)
        if held is None:
            try:
                held = attachable_volumes(self._client, pod, csi_node, new_pod=True)
            except (ClaimNotFoundError, NotOwnedError, InlineTranslationError) as err:
                held = err
            cycle.new_volumes[key] = held
        if isinstance(held, Exception):
            raise held
        return dict(held)

    def _after_volume_attachment_deleted(
        self, pod: Pod, old_obj: Any, new_obj: Any
    ) -> QueueingHint:
        if not isinstance(old_obj, VolumeAttachment):
            return QueueingHint.QUEUE
        return schedulable_after_volume_attachment_deleted(self._client, pod, old_obj)

    @hookimpl
    def events_to_register(self) -> Sequence[ClusterEventWithHint]:
        """A new or raised CSINode, a deleted pod that attached volumes, a created claim, a
        deleted VolumeAttachment of a volume the pod uses."""
        return (
            ClusterEventWithHint(ClusterEvent(EventResource.CSI_NODE, ActionType.ADD)),
            ClusterEventWithHint(
                ClusterEvent(EventResource.CSI_NODE, ActionType.UPDATE),
                schedulable_after_csi_node_updated,
            ),
            ClusterEventWithHint(
                ClusterEvent(EventResource.ASSIGNED_POD, ActionType.DELETE),
                schedulable_after_assigned_pod_deleted,
            ),
            ClusterEventWithHint(
                ClusterEvent(EventResource.PERSISTENT_VOLUME_CLAIM, ActionType.ADD),
                schedulable_after_claim_added,
            ),
            ClusterEventWithHint(
                ClusterEvent(EventResource.VOLUME_ATTACHMENT, ActionType.DELETE),
                self._after_volume_attachment_deleted,
            ),
        )
