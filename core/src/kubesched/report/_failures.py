"""Failures grouped by reason, read from kube-scheduler's `FailedScheduling` message.

A message such as `0/5 nodes are available: 2 node(s) had untolerated taint(s),
3 Insufficient cpu. preemption: ...` names each reason with the number of nodes
it rejected. Each reason becomes a group counting the pods it held back and the
nodes it rejected over those pods; a message of another shape (a gated pod, an
error) is one reason as a whole.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

import attrs

_AVAILABLE = re.compile(r"^0/\d+ nodes are available: (?P<reasons>.*?)\.?(?: preemption: .*)?$")
_REASON = re.compile(r"^(?P<count>\d+) (?P<text>.+)$")
_SPLIT = re.compile(r", (?=\d+ )")

FAILED = ("Unschedulable", "Error")
"""Result statuses the failure view covers."""

EXAMPLES = 5
"""Pods named per group; the pod table lists the rest."""


@attrs.frozen
class FailureGroup:
    """One reason: how many pods it held back, the nodes it rejected, a few of the pods."""

    reason: str
    status: str
    pods: int
    nodes: int | None
    examples: tuple[str, ...]


def reasons_of(message: str) -> list[tuple[str, int | None]]:
    """Each reason of a message with the number of nodes it rejected (None: not counted)."""
    match = _AVAILABLE.match(message)
    if match is None:
        return [(message or "(no message)", None)]
    found: list[tuple[str, int | None]] = []
    for part in _SPLIT.split(match.group("reasons")):
        reason = _REASON.match(part)
        if reason is None:
            found.append((part, None))
        else:
            found.append((reason.group("text"), int(reason.group("count"))))
    return found


def failure_groups(results: Iterable[Mapping[str, Any]]) -> list[FailureGroup]:
    """The failed results' reasons, most pods first, then by reason."""
    pods: dict[tuple[str, str], list[str]] = {}
    nodes: dict[tuple[str, str], int | None] = {}
    for result in results:
        if result["status"] not in FAILED:
            continue
        for reason, count in reasons_of(str(result["message"])):
            key = (result["status"], reason)
            pods.setdefault(key, []).append(str(result["pod"]))
            before = nodes.get(key, 0)
            nodes[key] = None if before is None or count is None else before + count
    groups = [
        FailureGroup(
            reason=reason,
            status=status,
            pods=len(names),
            nodes=nodes[status, reason],
            examples=tuple(names[:EXAMPLES]),
        )
        for (status, reason), names in pods.items()
    ]
    return sorted(groups, key=lambda g: (-g.pods, g.status, g.reason))
