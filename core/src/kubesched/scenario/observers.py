"""Observers: how a caller follows a run and records its own series.

An observer is any object with some of these methods (`Observer` has them all,
doing nothing, to subclass):

- `on_event(view, event)`: after a scenario event was applied;
- `on_attempt(view, attempt)`: after each scheduling attempt;
- `on_sample(view, sample)`: after each sample of the time series;
- `summary() -> dict[str, int | float | str]`: its end-of-run metrics, which the
  result carries under `observers` (keyed by the observer's `name`; an empty one is
  left out).

`view` is a read-only `ClusterView` of the cluster at that moment. Observers
must not change what they are shown.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Protocol

from attrs import frozen

from kubesched.api import Node, Pod

if TYPE_CHECKING:
    from kubesched.scenario.model import Event
    from kubesched.scenario.series import Sample

Summary = dict[str, int | float | str]
"""An observer's end-of-run metrics: name -> value."""


@frozen
class Attempt:
    """One scheduling attempt: when, which pod, what came of it (`Scheduled`, `Waiting`
    (held at Permit), `Unschedulable`, `Error`), the node, the message, the pod's
    attempts so far."""

    at: float
    pod: str
    status: str
    node: str | None
    message: str
    attempts: int


class ClusterView(Protocol):
    """The cluster as a run has it now (read-only)."""

    @property
    def now(self) -> float:
        """Simulated seconds since the start."""
        ...

    @property
    def nodes(self) -> Mapping[str, Node]:
        """Every node, by name."""
        ...

    @property
    def bound_pods(self) -> Mapping[str, Pod]:
        """Every pod bound to a node, by uid."""
        ...

    @property
    def pending_pods(self) -> Mapping[str, Pod]:
        """Every pod not bound yet, by uid."""
        ...

    def requested(self, node: str) -> Mapping[str, int]:
        """What the pods bound to `node` request of it (resource -> amount; `pods` counted)."""
        ...


class Observer:
    """An observer that does nothing: subclass it and override what you need."""

    name: str = ""
    """The key of its summary in the result (default: the class name)."""

    def on_event(self, view: ClusterView, event: Event) -> None:
        """After a scenario event was applied."""

    def on_attempt(self, view: ClusterView, attempt: Attempt) -> None:
        """After a scheduling attempt."""

    def on_sample(self, view: ClusterView, sample: Sample) -> None:
        """After a sample of the series was taken."""

    def summary(self) -> Summary:
        """End-of-run metrics (none by default)."""
        return {}


def observer_name(observer: object) -> str:
    """The key under which an observer's summary is reported."""
    return getattr(observer, "name", "") or type(observer).__name__
