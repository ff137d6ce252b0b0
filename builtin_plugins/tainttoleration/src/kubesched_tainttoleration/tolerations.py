"""Toleration matching: which taints a pod's tolerations cover.

Upstream's `Toleration.ToleratesTaint` and the scheduling helpers built on it.
Only the Equal and Exists operators tolerate anything: the numeric `Lt`/`Gt`
operators sit behind upstream's alpha TaintTolerationComparisonOperators gate,
which is off by default, and with it off they never match.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from kubesched.api import (
    TAINT_NO_EXECUTE,
    TAINT_NO_SCHEDULE,
    TAINT_PREFER_NO_SCHEDULE,
    Node,
    Taint,
    Toleration,
)

HARD_EFFECTS = frozenset({TAINT_NO_SCHEDULE, TAINT_NO_EXECUTE})
"""The effects Filter enforces (upstream's DoNotScheduleTaintsFilterFunc)."""


def tolerates(toleration: Toleration, taint: Taint) -> bool:
    """Does this toleration cover this taint?

    An empty effect matches every effect and an empty key every key; an empty
    operator means Equal, which compares values; Exists ignores the value.
    """
    if toleration.effect and toleration.effect != taint.effect:
        return False
    if toleration.key and toleration.key != taint.key:
        return False
    if toleration.operator in ("", "Equal"):
        return toleration.value == taint.value
    return toleration.operator == "Exists"


def is_tolerated(taint: Taint, tolerations: Iterable[Toleration]) -> bool:
    """True when any of the tolerations covers the taint."""
    return any(tolerates(t, taint) for t in tolerations)


def hard_taints(taints: Iterable[Taint]) -> tuple[Taint, ...]:
    """The NoSchedule and NoExecute taints, in node order."""
    return tuple(t for t in taints if t.effect in HARD_EFFECTS)


def prefer_no_schedule_taints(taints: Iterable[Taint]) -> tuple[Taint, ...]:
    """The PreferNoSchedule taints, in node order."""
    return tuple(t for t in taints if t.effect == TAINT_PREFER_NO_SCHEDULE)


def prefer_no_schedule_tolerations(tolerations: Iterable[Toleration]) -> tuple[Toleration, ...]:
    """The tolerations that can cover a PreferNoSchedule taint (that effect, or no effect)."""
    return tuple(t for t in tolerations if t.effect in ("", TAINT_PREFER_NO_SCHEDULE))


def all_tolerated(taints: Iterable[Taint], tolerations: Sequence[Toleration]) -> bool:
    """True when every taint is covered by some toleration."""
    return all(is_tolerated(taint, tolerations) for taint in taints)


def count_untolerated(taints: Iterable[Taint], tolerations: Sequence[Toleration]) -> int:
    """How many of the taints no toleration covers."""
    return sum(not is_tolerated(taint, tolerations) for taint in taints)


def tolerates_hard_taints(node: Node, tolerations: Sequence[Toleration]) -> bool:
    """True when the tolerations cover every NoSchedule and NoExecute taint of the node."""
    return all_tolerated(hard_taints(node.spec.taints), tolerations)
