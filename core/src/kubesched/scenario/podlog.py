"""The per-pod log: one `PodRecord` per pod a run saw, in creation order."""

from __future__ import annotations

from attrs import define

RUNNING = "Running"
PENDING = "Pending"
WAITING = "Waiting"
FINISHED = "Finished"
DELETED = "Deleted"
PREEMPTED = "Preempted"
EVICTED = "Evicted"
DROPPED = "Dropped"
POD_STATES = (PENDING, WAITING, RUNNING, FINISHED, DELETED, PREEMPTED, EVICTED, DROPPED)
"""Where a pod ended: still pending (or held at Permit), running, or gone, and how."""


@define(slots=True)
class PodRecord:
    """One pod's life in simulated seconds: created, bound (where), and how it left."""

    pod: str
    created: float
    bound: float | None = None
    node: str | None = None
    attempts: int = 0
    left: float | None = None
    state: str = PENDING
    preempted_by: str | None = None
    """`namespace/name` of the pod whose preemption evicted this one."""
    duration: float | None = None
    """Its running time (None: runs until deleted)."""

    @property
    def latency(self) -> float | None:
        """Creation to bound, in seconds."""
        return None if self.bound is None else self.bound - self.created

    def row(self) -> dict[str, float | int | str | None]:
        """The record as one flat table row."""
        return {
            "pod": self.pod,
            "created": self.created,
            "bound": self.bound,
            "node": self.node,
            "latency": self.latency,
            "attempts": self.attempts,
            "state": self.state,
            "left": self.left,
            "preempted_by": self.preempted_by,
            "duration": self.duration,
        }
