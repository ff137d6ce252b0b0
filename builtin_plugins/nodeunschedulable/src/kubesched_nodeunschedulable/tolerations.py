"""Whether a pod tolerates the `node.kubernetes.io/unschedulable:NoSchedule` taint, which
upstream lets stand for a cordoned node's `spec.unschedulable`."""

from __future__ import annotations

from collections.abc import Iterable

from kubesched.api import TAINT_NO_SCHEDULE, TAINT_NODE_UNSCHEDULABLE, Taint, Toleration

UNSCHEDULABLE_TAINT = Taint(key=TAINT_NODE_UNSCHEDULABLE, effect=TAINT_NO_SCHEDULE)


def tolerates(toleration: Toleration, taint: Taint) -> bool:
    """Upstream's Toleration.ToleratesTaint: an empty effect or key matches any; operator
    Exists matches any value, Equal (or empty) the same value; other operators nothing."""
    if toleration.effect and toleration.effect != taint.effect:
        return False
    if toleration.key and toleration.key != taint.key:
        return False
    if toleration.operator in ("", "Equal"):
        return toleration.value == taint.value
    return toleration.operator == "Exists"


def tolerates_unschedulable(tolerations: Iterable[Toleration]) -> bool:
    """True when some toleration covers the unschedulable NoSchedule taint."""
    return any(tolerates(t, UNSCHEDULABLE_TAINT) for t in tolerations)
