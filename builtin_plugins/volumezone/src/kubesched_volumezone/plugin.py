"""The VolumeZone plugin: a pod whose claim is bound to a volume labelled with zones or
regions fits only nodes whose labels name one of them (nodes without any topology label fit,
as in a single-zone cluster)."""

from __future__ import annotations

from collections.abc import Sequence

from attrs import frozen

from kubesched import hookimpl
from kubesched.api import BINDING_WAIT_FOR_FIRST_CONSUMER, Pod, claim_class
from kubesched.framework import (
    ActionType,
    ClusterEvent,
    ClusterEventWithHint,
    Code,
    CycleState,
    EventResource,
    Handle,
    NodeInfo,
    StateNotFoundError,
    Status,
)
from kubesched_volumezone.hints import (
    schedulable_after_claim_change,
    schedulable_after_storage_class_added,
    schedulable_after_volume_change,
)
from kubesched_volumezone.topology import (
    TOPOLOGY_LABELS,
    VolumeTopology,
    claim_names,
    ga_label,
    volume_topologies,
)

NAME = "VolumeZone"
PRE_FILTER_STATE_KEY = "PreFilter" + NAME
REASON_CONFLICT = "node(s) had no available volume zone"


@frozen
class _PreFilterState:
    """The topology labels of the volumes bound to the pod's claims."""

    topologies: tuple[VolumeTopology, ...]

    def clone(self) -> _PreFilterState:
        return self


def _unresolvable(message: str) -> Status:
    return Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, message)


class VolumeZone:
    """Upstream's VolumeZone: bound volumes' zone and region labels against node labels."""

    name = NAME

    def __init__(self, args: object = None, handle: Handle | None = None) -> None:
        """No args; the handle's client is where claims, volumes and classes are looked up."""
        self._handle = handle

    def volume_topologies(self, pod: Pod) -> list[VolumeTopology] | Status:
        """The topology labels of the volumes bound to the pod's claims, or why not known.

        An unbound claim of a WaitForFirstConsumer class is left out (VolumeBinding
        places it); any other unbound claim rejects the pod.
        """
        assert self._handle is not None, "VolumeZone needs a handle"
        client = self._handle.client
        found: list[VolumeTopology] = []
        for name in claim_names(pod):
            if not name:
                return _unresolvable("PersistentVolumeClaim had no name")
            claim = client.get_persistent_volume_claim(pod.metadata.namespace, name)
            if claim is None:
                return _unresolvable(f'persistentvolumeclaim "{name}" not found')
            volume_name = claim.spec.volume_name
            if not volume_name:
                class_name = claim_class(claim)
                if not class_name:
                    return _unresolvable(
                        "PersistentVolumeClaim had no pv name and storageClass name"
                    )
                storage_class = client.get_storage_class(class_name)
                if storage_class is None:
                    return _unresolvable(f'storageclass.storage.k8s.io "{class_name}" not found')
                if storage_class.volume_binding_mode == BINDING_WAIT_FOR_FIRST_CONSUMER:
                    continue
                return _unresolvable("PersistentVolume had no name")
            volume = client.get_persistent_volume(volume_name)
            if volume is None:
                return _unresolvable(f'persistentvolume "{volume_name}" not found')
            found.extend(volume_topologies(volume))
        return found

    @hookimpl
    def pre_filter(self, state: CycleState, pod: Pod) -> Status | None:
        """Find the bound volumes' topology labels; Skip when there are none."""
        topologies = self.volume_topologies(pod)
        if isinstance(topologies, Status):
            return topologies
        if not topologies:
            return Status(Code.SKIP)
        state.write(PRE_FILTER_STATE_KEY, _PreFilterState(tuple(topologies)))
        return None

    @hookimpl
    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Status | None:
        if not pod.spec.volumes:
            return None
        try:
            topologies: Sequence[VolumeTopology] = state.read_as(
                PRE_FILTER_STATE_KEY, _PreFilterState
            ).topologies
        except StateNotFoundError:
            computed = self.volume_topologies(pod)
            if isinstance(computed, Status):
                return computed
            topologies = computed
        node = node_info.node
        labels = node.metadata.labels if node is not None else {}
        if not any(key in labels for key in TOPOLOGY_LABELS):
            return None  # a node without topology labels: a single-zone cluster
        for topology in topologies:
            value = labels.get(topology.key)
            if value is None:
                value = labels.get(ga_label(topology.key))
            if value is None or value not in topology.values:
                return Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, REASON_CONFLICT)
        return None

    @hookimpl
    def events_to_register(self) -> Sequence[ClusterEventWithHint]:
        """A new WaitForFirstConsumer class, a relabelled or new node, a new or bound claim,
        a new or relabelled volume."""
        return (
            ClusterEventWithHint(
                ClusterEvent(EventResource.STORAGE_CLASS, ActionType.ADD),
                schedulable_after_storage_class_added,
            ),
            ClusterEventWithHint(
                ClusterEvent(EventResource.NODE, ActionType.ADD | ActionType.UPDATE_NODE_LABEL)
            ),
            ClusterEventWithHint(
                ClusterEvent(
                    EventResource.PERSISTENT_VOLUME_CLAIM, ActionType.ADD | ActionType.UPDATE
                ),
                schedulable_after_claim_change,
            ),
            ClusterEventWithHint(
                ClusterEvent(EventResource.PERSISTENT_VOLUME, ActionType.ADD | ActionType.UPDATE),
                schedulable_after_volume_change,
            ),
        )
