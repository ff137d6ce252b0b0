"""What changed in an update, as the cluster events plugins register for.

Upstream's PodSchedulingPropertiesChange / NodeSchedulingPropertiesChange: an
update is translated into fine-grained events (UpdateNodeTaint,
UpdatePodLabel, ...) so a queueing hint only runs for changes that matter.
"""

from __future__ import annotations

from kubesched.api import Node, Pod, pod_requests
from kubesched.framework._events import ActionType, ClusterEvent, EventResource

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
