"""What became of each pending pod: its last attempt's result, and why."""

from __future__ import annotations

from attrs import define, field

from kubesched.framework._status import Status

SCHEDULED = "Scheduled"
UNSCHEDULABLE = "Unschedulable"
ERROR = "Error"


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
