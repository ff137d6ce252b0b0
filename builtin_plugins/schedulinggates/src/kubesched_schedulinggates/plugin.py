"""The SchedulingGates plugin: a pod with scheduling gates stays out of the active queue."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kubesched import hookimpl
from kubesched.api import Pod
from kubesched.framework import (
    ActionType,
    ClusterEvent,
    ClusterEventWithHint,
    Code,
    EventResource,
    QueueingHint,
    Status,
)


def schedulable_after_gates_eliminated(pod: Pod, old_obj: Any, new_obj: Any) -> QueueingHint:
    """Queue when the gated pod itself lost its gates; another pod's update never matters.
    Objects that are not pods queue the pod (as an error would)."""
    if not isinstance(new_obj, Pod) or not isinstance(old_obj, (Pod, type(None))):
        return QueueingHint.QUEUE
    return QueueingHint.QUEUE if new_obj.uid == pod.uid else QueueingHint.QUEUE_SKIP


class SchedulingGates:
    """Holds back pods that carry `spec.schedulingGates` (upstream's SchedulingGates)."""

    name = "SchedulingGates"

    def __init__(self, args: object = None, handle: object = None) -> None:
        """No args; the handle is not needed."""

    @hookimpl
    def pre_enqueue(self, pod: Pod) -> Status | None:
        """Gate the pod while any scheduling gate remains, naming them as upstream does."""
        gates = pod.spec.scheduling_gates
        if not gates:
            return None
        names = " ".join(gate.name for gate in gates)
        return Status(
            Code.UNSCHEDULABLE_AND_UNRESOLVABLE, f"waiting for scheduling gates: [{names}]"
        )

    @hookimpl
    def events_to_register(self) -> Sequence[ClusterEventWithHint]:
        return (
            ClusterEventWithHint(
                ClusterEvent(EventResource.POD, ActionType.UPDATE_POD_SCHEDULING_GATES_ELIMINATED),
                schedulable_after_gates_eliminated,
            ),
        )
