"""The NodeVolumeLimits plugin: a node fits while, for every CSI driver, the volumes its pods
attach plus the new pod's stay within the driver's `allocatable.count` in the node's CSINode.
A volume several pods share counts once."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from kubesched import hookimpl
from kubesched.api import Pod
from kubesched.framework import (
    ActionType,
    ClusterEvent,
    ClusterEventWithHint,
    Code,
    EventResource,
    Handle,
    NodeInfo,
    Status,
)
from kubesched_nodevolumelimits.counting import (
    ClaimNotFoundError,
    NotOwnedError,
    attachable_volumes,
    claims_of,
)
from kubesched_nodevolumelimits.hints import (
    schedulable_after_assigned_pod_deleted,
    schedulable_after_claim_added,
    schedulable_after_csi_node_updated,
)

NAME = "NodeVolumeLimits"
REASON_MAX_VOLUME_COUNT_EXCEEDED = "node(s) exceed max volume count"


class NodeVolumeLimits:
    """Upstream's NodeVolumeLimits (CSILimits): CSI attach limits per node and driver."""

    name = NAME

    def __init__(self, args: object = None, handle: Handle | None = None) -> None:
        """No args; the handle's client is where claims, volumes and CSINodes are looked up."""
        self._handle = handle

    @hookimpl
    def pre_filter(self, pod: Pod) -> Status | None:
        """Skip pods without a claim or a generic ephemeral volume."""
        return None if claims_of(pod) else Status(Code.SKIP)

    @hookimpl
    def filter(self, pod: Pod, node_info: NodeInfo) -> Status | None:
        if not pod.spec.volumes or node_info.node is None:
            return None
        assert self._handle is not None, "NodeVolumeLimits needs a handle"
        client = self._handle.client
        try:
            new = attachable_volumes(client, pod, new_pod=True)
        except ClaimNotFoundError as err:
            return Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, str(err))
        except NotOwnedError as err:
            return Status.error(err.message)
        if not new:
            return None
        csi_node = client.get_csi_node(node_info.name)
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
                attached.update(attachable_volumes(client, info.pod, new_pod=False))
        except NotOwnedError as err:
            return Status.error(err.message)
        for volume in attached:
            new.pop(volume, None)  # already attached for another pod: counts once
        attached_count = Counter(attached.values())
        for driver, count in Counter(new.values()).items():
            limit = limits.get(driver)
            if limit is not None and attached_count[driver] + count > limit:
                return Status(Code.UNSCHEDULABLE, REASON_MAX_VOLUME_COUNT_EXCEEDED)
        return None

    @hookimpl
    def events_to_register(self) -> Sequence[ClusterEventWithHint]:
        """A new or raised CSINode, a deleted pod that attached volumes, a created claim."""
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
        )
