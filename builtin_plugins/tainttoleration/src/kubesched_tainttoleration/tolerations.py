"""The scheduling helpers TaintToleration builds on `kubesched.api`:
hard and PreferNoSchedule taints, and counting what a pod leaves untolerated."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from kubesched.api import (
    TAINT_NO_EXECUTE,
    TAINT_NO_SCHEDULE,
    TAINT_PREFER_NO_SCHEDULE,
    Node,
    Taint,
    Toleration,
    is_tolerated,
)

HARD_EFFECTS = frozenset({TAINT_NO_SCHEDULE, TAINT_NO_EXECUTE})
"""The effects Filter enforces (upstream's DoNotScheduleTaintsFilterFunc)."""


def hard_taints(taints: Iterable[Taint]) -> tuple[Taint, ...]:
    """The NoSchedule and NoExecute taints, in node order."""
    return tuple(t for t in taints if t.effect in HARD_EFFECTS)


def prefer_no_schedule_taints(taints: Iterable[Taint]) -> tuple[Taint, ...]:
    """The PreferNoSchedule taints, in node order."""
    return tuple(t for t in taints if t.effect == TAINT_PREFER_NO_SCHEDULE)


def prefer_no_schedule_tolerations(tolerations: Iterable[Toleration]) -> tuple[Toleration, ...]:
    """The tolerations that can cover a PreferNoSchedule taint (that effect, or no effect)."""
    return tuple(t for t in tolerations if t.effect in ("", TAINT_PREFER_NO_SCHEDULE))


def all_tolerated(
    taints: Iterable[Taint], tolerations: Sequence[Toleration], comparison: bool = False
) -> bool:
    """True when every taint is covered by some toleration; `comparison`: the
    TaintTolerationComparisonOperators gate (Gt and Lt tolerations)."""
    return all(is_tolerated(taint, tolerations, comparison) for taint in taints)


def count_untolerated(
    taints: Iterable[Taint], tolerations: Sequence[Toleration], comparison: bool = False
) -> int:
    """How many of the taints no toleration covers."""
    return sum(not is_tolerated(taint, tolerations, comparison) for taint in taints)


def tolerates_hard_taints(
    node: Node, tolerations: Sequence[Toleration], comparison: bool = False
) -> bool:
    """True when the tolerations cover every NoSchedule and NoExecute taint of the node."""
    return all_tolerated(hard_taints(node.spec.taints), tolerations, comparison)
