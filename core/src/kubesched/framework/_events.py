"""Cluster events and queueing hints (upstream's EnqueueExtensions)."""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import Any

from attrs import frozen

from kubesched.api import Pod


class EventResource(str, enum.Enum):
    """The kind of object an event is about."""

    POD = "Pod"
    ASSIGNED_POD = "AssignedPod"
    UNSCHEDULED_POD = "UnscheduledPod"
    NODE = "Node"
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
        """Upstream's MatchClusterEvents: does this registered event cover `incoming`?"""
        if self.is_wildcard():
            return True
        if self.resource == EventResource.POD:
            resource_ok = incoming.resource in (
                EventResource.POD,
                EventResource.ASSIGNED_POD,
                EventResource.UNSCHEDULED_POD,
            )
        else:
            resource_ok = self.resource == incoming.resource
        return resource_ok and bool(self.action_type & incoming.action_type)


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
