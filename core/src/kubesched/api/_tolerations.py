"""Which taints a pod's tolerations cover (upstream's Toleration.ToleratesTaint).

Only the Equal and Exists operators tolerate anything: the numeric `Lt`/`Gt`
operators sit behind upstream's alpha TaintTolerationComparisonOperators gate,
which is off by default, and with it off they never match.
"""

from __future__ import annotations

from collections.abc import Iterable

from kubesched.api._node import Taint
from kubesched.api._pod import Toleration


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
    """True when any of the tolerations covers the taint (upstream's TolerationsTolerateTaint)."""
    return any(tolerates(t, taint) for t in tolerations)
