"""Whether a pod tolerates the `node.kubernetes.io/unschedulable:NoSchedule` taint, which
upstream lets stand for a cordoned node's `spec.unschedulable`."""

from __future__ import annotations

from collections.abc import Iterable

from kubesched.api import TAINT_NO_SCHEDULE, TAINT_NODE_UNSCHEDULABLE, Taint, Toleration, tolerates

UNSCHEDULABLE_TAINT = Taint(key=TAINT_NODE_UNSCHEDULABLE, effect=TAINT_NO_SCHEDULE)


def tolerates_unschedulable(tolerations: Iterable[Toleration]) -> bool:
    """True when some toleration covers the unschedulable NoSchedule taint."""
    return any(tolerates(t, UNSCHEDULABLE_TAINT) for t in tolerations)
