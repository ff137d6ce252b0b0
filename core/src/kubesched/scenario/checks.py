"""The checks every event stream passes, as it streams: times never run backwards, no
negative time or duration, a pod is created once and deleted only if it exists, a node
is named only while it exists.

A scenario file is checked in full when it is loaded (so the CLI writes nothing for a
bad one); a streamed trace is checked by the run as it reads, with the same messages.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator

from kubesched.api import ClusterObjects
from kubesched.scenario.errors import event_error
from kubesched.scenario.model import Event, NodeAdded, NodeRemoved, PodCreated, PodDeleted

_NODE_EVENTS_FIELD = "node"


def checked(events: Iterable[Event], cluster: ClusterObjects, source: str) -> Iterator[Event]:
    """`events`, each checked against those before it and the starting `cluster`;
    ScenarioError naming `source` and the event's index at the first bad one."""
    pods = {pod.key for pod in cluster.pods}
    nodes = {node.name for node in cluster.nodes}
    last = 0.0
    for index, event in enumerate(events):
        at = event.at
        if not math.isfinite(at) or at < 0:
            raise event_error(
                f"time {at} is not a time >= 0", source=source, index=index, field="at"
            )
        if at < last:
            raise event_error(
                f"events out of order: at {at:g}s comes after an event at {last:g}s",
                source=source,
                index=index,
                field="at",
            )
        last = at
        if isinstance(event, PodCreated):
            key = event.pod.key
            if event.duration is not None and not (
                math.isfinite(event.duration) and event.duration >= 0
            ):
                raise event_error(
                    f"duration {event.duration} is not a duration >= 0",
                    source=source,
                    index=index,
                    field="duration",
                )
            if key in pods:
                raise event_error(
                    f"pod {key} already exists", source=source, index=index, field="pod"
                )
            pods.add(key)
        elif isinstance(event, PodDeleted):
            if event.pod not in pods:
                raise event_error(
                    f"deletes pod {event.pod}, which does not exist",
                    source=source,
                    index=index,
                    field="pod",
                )
            pods.discard(event.pod)
        elif isinstance(event, NodeAdded):
            if event.node.name in nodes:
                raise event_error(
                    f"node {event.node.name} already exists",
                    source=source,
                    index=index,
                    field="node",
                )
            nodes.add(event.node.name)
        elif event.node not in nodes:
            raise event_error(
                f"node {event.node} does not exist",
                source=source,
                index=index,
                field=_NODE_EVENTS_FIELD,
            )
        elif isinstance(event, NodeRemoved):
            nodes.discard(event.node)
        yield event
