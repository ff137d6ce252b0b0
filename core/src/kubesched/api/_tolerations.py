"""Which taints a pod's tolerations cover (upstream's Toleration.ToleratesTaint), and which
toleration operators an API server accepts.

Equal (or no operator) compares values and Exists ignores them. `Gt` and `Lt`
(the TaintTolerationComparisonOperators gate, alpha in v1.35) compare the
taint's value with the toleration's as 64-bit integers: a Gt toleration covers
a taint whose value is greater, Lt one whose value is smaller. Both values
must be canonical decimal integers (no sign `+`, no leading zero, no spaces);
otherwise, or with the gate off, the toleration covers nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence

from kubesched.api._field_errors import FieldError, not_supported
from kubesched.api._node import Taint
from kubesched.api._pod import Toleration

EQUAL = "Equal"
EXISTS = "Exists"
GREATER_THAN = "Gt"
LESS_THAN = "Lt"

_INTEGER = re.compile(r"-?(0|[1-9][0-9]*)")
_INT64 = range(-(2**63), 2**63)


def _integer(text: str) -> int | None:
    """`text` as an int64 in canonical form, else None."""
    if not _INTEGER.fullmatch(text) or text == "-0":
        return None
    value = int(text)
    return value if value in _INT64 else None


def _compares(toleration: Toleration, taint: Taint) -> bool:
    threshold = _integer(toleration.value)
    actual = _integer(taint.value)
    if threshold is None or actual is None:
        return False
    if toleration.operator == GREATER_THAN:
        return actual > threshold
    return actual < threshold


def tolerates(toleration: Toleration, taint: Taint, comparison: bool = False) -> bool:
    """Does this toleration cover this taint?

    An empty effect matches every effect and an empty key every key; an empty
    operator means Equal, which compares values; Exists ignores the value;
    `comparison` (the TaintTolerationComparisonOperators gate) enables Gt and Lt.
    """
    if toleration.effect and toleration.effect != taint.effect:
        return False
    if toleration.key and toleration.key != taint.key:
        return False
    operator = toleration.operator
    if operator in ("", EQUAL):
        return toleration.value == taint.value
    if operator == EXISTS:
        return True
    if comparison and operator in (GREATER_THAN, LESS_THAN):
        return _compares(toleration, taint)
    return False


def is_tolerated(taint: Taint, tolerations: Iterable[Toleration], comparison: bool = False) -> bool:
    """True when any of the tolerations covers the taint (upstream's TolerationsTolerateTaint)."""
    return any(tolerates(t, taint, comparison) for t in tolerations)


def toleration_errors(
    tolerations: Sequence[Toleration], *, comparison: bool = False
) -> Iterator[FieldError]:
    """Tolerations whose operator an API server would refuse: Equal and Exists always,
    Gt and Lt only with the TaintTolerationComparisonOperators gate on."""
    supported = (EQUAL, EXISTS, GREATER_THAN, LESS_THAN) if comparison else (EQUAL, EXISTS)
    for i, toleration in enumerate(tolerations):
        if toleration.operator not in ("", *supported):
            yield not_supported(f"spec.tolerations[{i}].operator", toleration.operator, supported)
