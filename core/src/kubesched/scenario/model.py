"""A scenario: a starting cluster and a stream of timed events.

Times are simulated seconds from the start of the run (`at`). Events come in
the order of their times; events at the same time happen in the order given.
A pod is named by `namespace/name`; a node by its name.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING

from attrs import field, frozen

from kubesched.api import ClusterObjects, Node, Pod, Taint

if TYPE_CHECKING:
    from kubesched.scenario.observers import Observer

SCENARIO_KIND = "Scenario"
"""The `kind` of a scenario file."""


@frozen
class PodCreated:
    """A pod is created (pending unless it names a node). With `duration`, it finishes that
    many seconds after it starts running (once bound); without, it runs until deleted."""

    at: float
    pod: Pod
    duration: float | None = None


@frozen
class PodDeleted:
    """The pod `namespace/name` is deleted, pending or running."""

    at: float
    pod: str


@frozen
class NodeAdded:
    """A node joins the cluster."""

    at: float
    node: Node


@frozen
class NodeRemoved:
    """A node leaves; the pods running on it are evicted (deleted)."""

    at: float
    node: str


@frozen
class NodeCordoned:
    """`spec.unschedulable` becomes true: no new pod lands there; running pods stay."""

    at: float
    node: str


@frozen
class NodeUncordoned:
    """`spec.unschedulable` becomes false."""

    at: float
    node: str


@frozen
class NodeTainted:
    """Taints are added to the node (replacing any with the same key and effect); running
    pods that do not tolerate a NoExecute taint among them are evicted."""

    at: float
    node: str
    taints: tuple[Taint, ...]


@frozen
class NodeUntainted:
    """The node's taints with these keys are removed."""

    at: float
    node: str
    keys: tuple[str, ...]


@frozen
class NodeLabelled:
    """Labels are set on the node; a label given as None is removed."""

    at: float
    node: str
    labels: Mapping[str, str | None]


Event = (
    PodCreated
    | PodDeleted
    | NodeAdded
    | NodeRemoved
    | NodeCordoned
    | NodeUncordoned
    | NodeTainted
    | NodeUntainted
    | NodeLabelled
)
"""Everything that can happen in a scenario."""

EVENT_KINDS: dict[str, type[Event]] = {
    cls.__name__: cls
    for cls in (
        PodCreated,
        PodDeleted,
        NodeAdded,
        NodeRemoved,
        NodeCordoned,
        NodeUncordoned,
        NodeTainted,
        NodeUntainted,
        NodeLabelled,
    )
}
"""Event kind, as a scenario file spells it -> its class."""


def event_kind(event: Event) -> str:
    """The kind of an event, as a scenario file spells it."""
    return type(event).__name__


@frozen
class Scenario:
    """A starting cluster and its events. `events` is called once per run and yields the
    events in time order: a list for a scenario read from a file, a generator function
    for a trace streamed from disk (the run holds only what is live). `observers` are
    attached to every run of the scenario (a trace format may ask for its own series)."""

    cluster: ClusterObjects
    events: Callable[[], Iterable[Event]]
    name: str = ""
    source: str = "<scenario>"
    """Where the scenario comes from, as errors name it."""
    observers: Sequence[Callable[[], Observer]] = field(factory=tuple)
    """Factories of observers every run attaches (a fresh observer per run)."""

    def iter_events(self) -> Iterator[Event]:
        """The events, from the start."""
        return iter(self.events())


def scenario_of(
    cluster: ClusterObjects,
    events: Sequence[Event],
    *,
    name: str = "",
    source: str = "<scenario>",
) -> Scenario:
    """A scenario over an event list built in code (tests, generators)."""
    held = tuple(events)
    return Scenario(cluster, lambda: held, name=name, source=source)
