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

from kubesched.api._field_errors import FieldError, invalid, not_supported, required
from kubesched.api._meta_validation import name_problems, value_problems
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


TAINT_EFFECTS = ("NoSchedule", "PreferNoSchedule", "NoExecute")
"""The effects a taint or a toleration may name."""


def effect_errors(path: str, effect: str, *, allow_empty: bool) -> Iterator[FieldError]:
    """validateTaintEffect: one of `TAINT_EFFECTS` (or empty, where allowed)."""
    if not effect:
        if not allow_empty:
            yield required(path)
    elif effect not in TAINT_EFFECTS:
        yield not_supported(path, effect, TAINT_EFFECTS)


def toleration_errors(
    tolerations: Sequence[Toleration], *, comparison: bool = False
) -> Iterator[FieldError]:
    """What an API server refuses in tolerations (validateTolerations): the key, the operator
    (Equal and Exists always, Gt and Lt only with the TaintTolerationComparisonOperators gate
    on) and its value, the effect, and tolerationSeconds without NoExecute."""
    supported = (EQUAL, EXISTS, GREATER_THAN, LESS_THAN) if comparison else (EQUAL, EXISTS)
    for i, toleration in enumerate(tolerations):
        path = f"spec.tolerations[{i}]"
        operator = toleration.operator
        if toleration.key:
            for problem in name_problems(toleration.key):
                yield invalid(f"{path}.key", toleration.key, problem)
        elif operator != EXISTS:
            yield invalid(
                f"{path}.operator",
                operator,
                'operator must be Exists when `key` is empty, which means "match all values '
                'and all keys"',
            )
        if toleration.toleration_seconds is not None and toleration.effect != "NoExecute":
            yield invalid(
                f"{path}.effect",
                toleration.effect,
                "effect must be 'NoExecute' when `tolerationSeconds` is set",
            )
        if operator in ("", EQUAL):
            problems = value_problems(toleration.value)
            if problems:
                yield invalid(f"{path}.operator", toleration.value, ";".join(problems))
        elif operator == EXISTS:
            if toleration.value:
                yield invalid(
                    f"{path}.operator",
                    toleration.value,
                    "value must be empty when `operator` is 'Exists'",
                )
        elif operator not in supported:
            yield not_supported(f"{path}.operator", operator, supported)
        elif _integer(toleration.value) is None:
            yield invalid(
                f"{path}.value",
                toleration.value,
                "must be an integer when `operator` is 'Gt' or 'Lt'",
            )
        yield from effect_errors(f"{path}.effect", toleration.effect, allow_empty=True)
