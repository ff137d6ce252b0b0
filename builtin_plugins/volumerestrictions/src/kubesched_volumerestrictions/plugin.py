"""The VolumeRestrictions plugin: a node where another pod already mounts the same in-tree
disk read-write does not fit, and a ReadWriteOncePod claim in use by a scheduled pod fits
nowhere (until that pod is gone: preemption can remove it)."""

from __future__ import annotations

from collections.abc import Sequence

from attrs import define

from kubesched import hookimpl
from kubesched.api import READ_WRITE_ONCE_POD, Pod
from kubesched.framework import (
    ActionType,
    ClusterEvent,
    ClusterEventWithHint,
    Code,
    CycleState,
    EventResource,
    Handle,
    NodeInfo,
    PodInfo,
    StateNotFoundError,
    Status,
)
from kubesched_volumerestrictions.conflicts import claim_names, needs_check, pod_conflicts
from kubesched_volumerestrictions.hints import (
    schedulable_after_claim_added,
    schedulable_after_pod_deleted,
)

NAME = "VolumeRestrictions"
PRE_FILTER_STATE_KEY = "PreFilter" + NAME
REASON_DISK_CONFLICT = "node(s) had no available disk"
REASON_READ_WRITE_ONCE_POD_CONFLICT = (
    "node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode"
)


@define
class _PreFilterState:
    """The pod's ReadWriteOncePod claims, and how many scheduled pods use them."""

    read_write_once_pod_claims: frozenset[str]
    conflicting_claim_refs: int

    def clone(self) -> _PreFilterState:
        return _PreFilterState(self.read_write_once_pod_claims, self.conflicting_claim_refs)

    def update_with_pod(self, pod: Pod, multiplier: int) -> None:
        """Count (or uncount) the uses `pod` makes of the claims, for preemption's dry runs."""
        uses = sum(
            1
            for v in pod.spec.volumes
            if v.persistent_volume_claim is not None
            and v.persistent_volume_claim.claim_name in self.read_write_once_pod_claims
        )
        self.conflicting_claim_refs += multiplier * uses


class VolumeRestrictions:
    """Upstream's VolumeRestrictions: disk conflicts and ReadWriteOncePod claims."""

    name = NAME

    def __init__(self, args: object = None, handle: Handle | None = None) -> None:
        """No args; the handle's client is where claims are looked up."""
        self._handle = handle

    def _read_write_once_pod_claims(self, pod: Pod) -> frozenset[str] | Status:
        assert self._handle is not None, "VolumeRestrictions needs a handle"
        client = self._handle.client
        found = set()
        for volume in pod.spec.volumes:
            source = volume.persistent_volume_claim
            if source is None:
                continue
            claim = client.get_persistent_volume_claim(pod.metadata.namespace, source.claim_name)
            if claim is None:
                message = f'persistentvolumeclaim "{source.claim_name}" not found'
                return Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, message)
            if READ_WRITE_ONCE_POD in claim.spec.access_modes:
                found.add(claim.metadata.name)
        return frozenset(found)

    @hookimpl
    def pre_filter(self, state: CycleState, pod: Pod, nodes: Sequence[NodeInfo]) -> Status | None:
        """Look the pod's claims up; count the scheduled pods using its ReadWriteOncePod
        claims; Skip when there is neither a disk to check nor such a conflict."""
        claims = self._read_write_once_pod_claims(pod)
        if isinstance(claims, Status):
            return claims
        conflicting = 0
        if claims:
            used = {
                (info.pod.metadata.namespace, name)
                for node in nodes
                for info in node.pods
                for name in claim_names(info.pod)
            }
            conflicting = sum(1 for name in claims if (pod.metadata.namespace, name) in used)
        if conflicting == 0 and not any(needs_check(v) for v in pod.spec.volumes):
            return Status(Code.SKIP)
        state.write(PRE_FILTER_STATE_KEY, _PreFilterState(claims, conflicting))
        return None

    @hookimpl
    def pre_filter_add_pod(self, state: CycleState, pod_info_to_add: PodInfo) -> Status | None:
        try:
            state.read_as(PRE_FILTER_STATE_KEY, _PreFilterState).update_with_pod(
                pod_info_to_add.pod, 1
            )
        except StateNotFoundError as err:
            return Status.error(err)
        return None

    @hookimpl
    def pre_filter_remove_pod(
        self, state: CycleState, pod_info_to_remove: PodInfo
    ) -> Status | None:
        try:
            state.read_as(PRE_FILTER_STATE_KEY, _PreFilterState).update_with_pod(
                pod_info_to_remove.pod, -1
            )
        except StateNotFoundError as err:
            return Status.error(err)
        return None

    @hookimpl
    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Status | None:
        if pod_conflicts(pod, [info.pod for info in node_info.pods]):
            return Status(Code.UNSCHEDULABLE, REASON_DISK_CONFLICT)
        try:
            prefiltered = state.read_as(PRE_FILTER_STATE_KEY, _PreFilterState)
        except StateNotFoundError as err:
            return Status.error(err)
        if prefiltered.conflicting_claim_refs > 0:
            return Status(Code.UNSCHEDULABLE, REASON_READ_WRITE_ONCE_POD_CONFLICT)
        return None

    @hookimpl
    def events_to_register(self) -> Sequence[ClusterEventWithHint]:
        """A deleted pod may free a disk or a claim; a new node may fit; a created claim
        may be the one the pod waits for."""
        return (
            ClusterEventWithHint(
                ClusterEvent(EventResource.POD, ActionType.DELETE), schedulable_after_pod_deleted
            ),
            ClusterEventWithHint(ClusterEvent(EventResource.NODE, ActionType.ADD)),
            ClusterEventWithHint(
                ClusterEvent(EventResource.PERSISTENT_VOLUME_CLAIM, ActionType.ADD),
                schedulable_after_claim_added,
            ),
        )
