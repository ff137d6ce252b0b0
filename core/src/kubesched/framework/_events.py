"""Cluster events and queueing hints (upstream's EnqueueExtensions and framework/events.go).

The vocabulary plugins register for (resources, action types, events with
hints), and the translation of an object's update into the fine-grained events
it amounts to (upstream's PodSchedulingPropertiesChange and
NodeSchedulingPropertiesChange), so a queueing hint only runs for changes that
matter.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import Any

from attrs import frozen

from kubesched.api import Node, Pod, pod_requests


class EventResource(str, enum.Enum):
    """The kind of object an event is about."""

    POD = "Pod"
    ASSIGNED_POD = "AssignedPod"
    UNSCHEDULED_POD = "UnscheduledPod"
    NODE = "Node"
    PERSISTENT_VOLUME = "PersistentVolume"
    PERSISTENT_VOLUME_CLAIM = "PersistentVolumeClaim"
    STORAGE_CLASS = "StorageClass"
    CSI_NODE = "CSINode"
    VOLUME_ATTACHMENT = "VolumeAttachment"
    RESOURCE_CLAIM = "ResourceClaim"
    RESOURCE_SLICE = "ResourceSlice"
    DEVICE_CLASS = "DeviceClass"
    WILDCARD = "*"


class ActionType(enum.IntFlag):
    """What happened; fine-grained updates are bit flags as upstream."""

    ADD = 1
    DELETE = 2
    UPDATE_NODE_ALLOCATABLE = 4
    UPDATE_NODE_LABEL = 8
    UPDATE_NODE_TAINT = 16
    UPDATE_NODE_CONDITION = 32
    UPDATE_NODE_ANNOTATION = 64
    UPDATE_POD_LABEL = 128
    UPDATE_POD_SCALE_DOWN = 256
    UPDATE_POD_TOLERATION = 512
    UPDATE_POD_SCHEDULING_GATES_ELIMINATED = 1024
    UPDATE_POD_GENERATED_RESOURCE_CLAIM = 2048
    UPDATE_NODE_DECLARED_FEATURE = 4096
    UPDATE = (
        UPDATE_NODE_ALLOCATABLE
        | UPDATE_NODE_LABEL
        | UPDATE_NODE_TAINT
        | UPDATE_NODE_CONDITION
        | UPDATE_NODE_ANNOTATION
        | UPDATE_POD_LABEL
        | UPDATE_POD_SCALE_DOWN
        | UPDATE_POD_TOLERATION
        | UPDATE_POD_SCHEDULING_GATES_ELIMINATED
        | UPDATE_POD_GENERATED_RESOURCE_CLAIM
        | UPDATE_NODE_DECLARED_FEATURE
    )
    ALL = ADD | DELETE | UPDATE


@frozen
class ClusterEvent:
    """A resource and the actions on it, e.g. Node/Add|UpdateNodeTaint."""

    resource: EventResource
    action_type: ActionType
    label: str = ""

    def is_wildcard(self) -> bool:
        return self.resource == EventResource.WILDCARD and self.action_type == ActionType.ALL

    def matches(self, incoming: ClusterEvent) -> bool:
        """Upstream's MatchClusterEvents: does this registered event cover `incoming`?

        The resource must cover the incoming one (`*` covers all, Pod covers AssignedPod and
        UnscheduledPod), the actions must overlap, and the incoming action must be no broader
        than the registered one: a generic Pod Update (a change no specific action describes,
        such as a status write) does not match a plugin that registered only
        Delete|UpdatePodScaleDown.
        """
        if self.is_wildcard():
            return True
        return (
            _resource_covers(self.resource, incoming.resource)
            and bool(self.action_type & incoming.action_type)
            and incoming.action_type <= self.action_type
        )


_POD_KINDS = (EventResource.ASSIGNED_POD, EventResource.UNSCHEDULED_POD)


def _resource_covers(registered: EventResource, incoming: EventResource) -> bool:
    return registered in (EventResource.WILDCARD, incoming) or (
        registered == EventResource.POD and incoming in _POD_KINDS
    )


class QueueingHint(enum.Enum):
    """A plugin's verdict on whether an event may make a rejected pod schedulable."""

    QUEUE_SKIP = 0
    QUEUE = 1


QueueingHintFn = Callable[[Pod, Any, Any], QueueingHint]
"""(pod, old_obj, new_obj) -> QueueingHint."""


@frozen
class ClusterEventWithHint:
    """An event a plugin registers, with an optional hint function (None: always Queue)."""

    event: ClusterEvent
    hint: QueueingHintFn | None = None


WILDCARD_EVENT = ClusterEvent(EventResource.WILDCARD, ActionType.ALL, "WildCardEvent")

ASSIGNED_POD_ADD = ClusterEvent(EventResource.ASSIGNED_POD, ActionType.ADD)
ASSIGNED_POD_UPDATE = ClusterEvent(EventResource.ASSIGNED_POD, ActionType.UPDATE)
ASSIGNED_POD_DELETE = ClusterEvent(EventResource.ASSIGNED_POD, ActionType.DELETE)
UNSCHEDULED_POD_ADD = ClusterEvent(EventResource.UNSCHEDULED_POD, ActionType.ADD)
UNSCHEDULED_POD_UPDATE = ClusterEvent(EventResource.UNSCHEDULED_POD, ActionType.UPDATE)
UNSCHEDULED_POD_DELETE = ClusterEvent(EventResource.UNSCHEDULED_POD, ActionType.DELETE)
NODE_ADD = ClusterEvent(EventResource.NODE, ActionType.ADD)
NODE_DELETE = ClusterEvent(EventResource.NODE, ActionType.DELETE)

_ACTION_NAMES = {
    ActionType.ADD: "Add",
    ActionType.DELETE: "Delete",
    ActionType.UPDATE_NODE_ALLOCATABLE: "UpdateNodeAllocatable",
    ActionType.UPDATE_NODE_LABEL: "UpdateNodeLabel",
    ActionType.UPDATE_NODE_TAINT: "UpdateNodeTaint",
    ActionType.UPDATE_NODE_CONDITION: "UpdateNodeCondition",
    ActionType.UPDATE_NODE_ANNOTATION: "UpdateNodeAnnotation",
    ActionType.UPDATE_POD_LABEL: "UpdatePodLabel",
    ActionType.UPDATE_POD_SCALE_DOWN: "UpdatePodScaleDown",
    ActionType.UPDATE_POD_TOLERATION: "UpdatePodToleration",
    ActionType.UPDATE_POD_SCHEDULING_GATES_ELIMINATED: "UpdatePodSchedulingGatesEliminated",
    ActionType.UPDATE_POD_GENERATED_RESOURCE_CLAIM: "UpdatePodGeneratedResourceClaim",
    ActionType.UPDATE_NODE_DECLARED_FEATURE: "UpdateNodeDeclaredFeature",
    ActionType.UPDATE: "Update",
    ActionType.ALL: "All",
}


def event_label(event: ClusterEvent) -> str:
    """`AssignedPodDelete`, `NodeUpdateNodeTaint`, or the event's own label (upstream's Label)."""
    if event.label:
        return event.label
    return f"{event.resource.value}{_ACTION_NAMES.get(event.action_type, '')}"


def pod_changes(old: Pod, new: Pod) -> list[ClusterEvent]:
    """The events an update of a pod amounts to; a generic Update when nothing specific changed."""
    resource = EventResource.ASSIGNED_POD if new.spec.node_name else EventResource.UNSCHEDULED_POD
    actions = []
    if old.metadata.labels != new.metadata.labels:
        actions.append(ActionType.UPDATE_POD_LABEL)
    if _scaled_down(old, new):
        actions.append(ActionType.UPDATE_POD_SCALE_DOWN)
    if old.spec.scheduling_gates and not new.spec.scheduling_gates:
        actions.append(ActionType.UPDATE_POD_SCHEDULING_GATES_ELIMINATED)
    if len(old.spec.tolerations) != len(new.spec.tolerations):
        actions.append(ActionType.UPDATE_POD_TOLERATION)
    if old.status.resource_claim_statuses != new.status.resource_claim_statuses:
        actions.append(ActionType.UPDATE_POD_GENERATED_RESOURCE_CLAIM)
    return [ClusterEvent(resource, a) for a in actions or [ActionType.UPDATE]]


def _scaled_down(old: Pod, new: Pod) -> bool:
    new_requests = pod_requests(new)
    return any(
        name not in new_requests or new_requests[name] < amount
        for name, amount in pod_requests(old).items()
    )


def node_changes(old: Node, new: Node) -> list[ClusterEvent]:
    """The events an update of a node amounts to (none when nothing the scheduler reads changed)."""
    actions = []
    if old.spec.unschedulable != new.spec.unschedulable and not new.spec.unschedulable:
        actions.append(ActionType.UPDATE_NODE_TAINT)
    if old.status.allocatable != new.status.allocatable:
        actions.append(ActionType.UPDATE_NODE_ALLOCATABLE)
    if old.metadata.labels != new.metadata.labels:
        actions.append(ActionType.UPDATE_NODE_LABEL)
    if old.spec.taints != new.spec.taints:
        actions.append(ActionType.UPDATE_NODE_TAINT)
    if old.metadata.annotations != new.metadata.annotations:
        actions.append(ActionType.UPDATE_NODE_ANNOTATION)
    return [ClusterEvent(EventResource.NODE, a) for a in actions]
