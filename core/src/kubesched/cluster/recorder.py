"""Kubernetes events (Scheduled, FailedScheduling, Preempted...) kept in memory."""

from __future__ import annotations

from typing import Any

from attrs import frozen

from kubesched.api import Node, Pod


@frozen
class RecordedEvent:
    """One event: what it is about (`Pod ns/name`), its type, reason, action and message."""

    involved: str
    type: str
    reason: str
    action: str
    message: str


def describe(obj: Any) -> str:
    """`Pod ns/name`, `Node name`, or the object's type name."""
    if isinstance(obj, Pod):
        return f"Pod {obj.key}"
    if isinstance(obj, Node):
        return f"Node {obj.name}"
    return type(obj).__name__


class MemoryEventRecorder:
    """An EventRecorder that appends every event to `events`."""

    def __init__(self) -> None:
        self.events: list[RecordedEvent] = []

    def event(self, obj: Any, event_type: str, reason: str, action: str, message: str) -> None:
        self.events.append(RecordedEvent(describe(obj), event_type, reason, action, message))

    def for_object(self, involved: str) -> list[RecordedEvent]:
        """The events about one object, oldest first."""
        return [e for e in self.events if e.involved == involved]
