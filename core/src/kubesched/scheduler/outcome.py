"""What became of each pending pod: its last attempt's result, and why."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from attrs import define, field

from kubesched.framework._status import Status

SCHEDULED = "Scheduled"
UNSCHEDULABLE = "Unschedulable"
ERROR = "Error"
PREEMPTED = "Preempted"
"""Bound in this run, then evicted to make room for another pod."""
DELETED = "Deleted"
"""Bound in this run, then deleted (not by preemption)."""
STATUSES = (SCHEDULED, UNSCHEDULABLE, ERROR, PREEMPTED, DELETED)


@define
class NodeExplanation:
    """One node in an attempt: its Filter status (None: it passed) and, when scored, each
    Score plugin's (normalized, weighted) score and the total."""

    filter: Status | None = None
    scores: dict[str, tuple[int, int]] = field(factory=dict)
    total: int | None = None


@define
class PodOutcome:
    """A pending pod's fate so far: the latest attempt decides status, node and message."""

    pod: str
    profile: str
    status: str = UNSCHEDULABLE
    node: str | None = None
    message: str = ""
    attempts: int = 0
    nominated_node: str | None = None
    victims: list[str] = field(factory=list)
    nodes: dict[str, NodeExplanation] | None = None
    preempted_by: str | None = None
    """`namespace/name` of the pod whose preemption evicted this one."""
    stopped: str | None = None
    """Why the simulation stopped retrying a pod kube-scheduler would keep retrying."""
    preemption: Mapping[str, Any] | None = None
    """With explanations on: what the PostFilter plugin that nominated a node for the pod
    weighed (DefaultPreemption: candidates, victims, PDB violations, the deciding criterion)."""

    def left_node(self, preemptor: str | None) -> None:
        """The pod, bound in this run, is gone: evicted by `preemptor`, or deleted."""
        self.node = None
        if preemptor is None:
            self.status, self.message = DELETED, "deleted after it was bound"
        else:
            self.status, self.preempted_by = PREEMPTED, preemptor
            self.message = f"preempted by {preemptor}"
