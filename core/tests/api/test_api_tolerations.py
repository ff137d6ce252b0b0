"""Toleration matching, re-expressing upstream's TestTolerationToleratesTaint."""

from __future__ import annotations

import pytest

from kubesched.api import Taint, Toleration
from kubesched.api._tolerations import tolerates, toleration_errors

NS = "NoSchedule"
NE = "NoExecute"
SLA = "node.kubernetes.io/sla"

# (description, toleration, taint, tolerated)
CASES = [
    (
        "same key and effect, Exists, taint without value",
        Toleration(key="foo", operator="Exists", effect=NS),
        Taint(key="foo", effect=NS),
        True,
    ),
    (
        "same key and effect, Exists, taint with a value",
        Toleration(key="foo", operator="Exists", effect=NS),
        Taint(key="foo", value="bar", effect=NS),
        True,
    ),
    (
        "same effect, empty key with Exists matches every taint",
        Toleration(key="", operator="Exists", effect=NS),
        Taint(key="foo", value="bar", effect=NS),
        True,
    ),
    (
        "same key, effect and value, Equal",
        Toleration(key="foo", operator="Equal", value="bar", effect=NS),
        Taint(key="foo", value="bar", effect=NS),
        True,
    ),
    (
        "same key and effect, different values, Equal",
        Toleration(key="foo", operator="Equal", value="value1", effect=NS),
        Taint(key="foo", value="value2", effect=NS),
        False,
    ),
    (
        "same key and value, different effects, Equal",
        Toleration(key="foo", operator="Equal", value="bar", effect=NS),
        Taint(key="foo", value="bar", effect=NE),
        False,
    ),
    # The numeric operators need the alpha TaintTolerationComparisonOperators gate,
    # off by default upstream: with it off they never tolerate, whatever the numbers.
    (
        "Gt, taint value below the toleration's",
        Toleration(key=SLA, operator="Gt", value="950", effect=NS),
        Taint(key=SLA, value="800", effect=NS),
        False,
    ),
    (
        "Gt, taint value above the toleration's (tolerated only with the gate on)",
        Toleration(key=SLA, operator="Gt", value="750", effect=NS),
        Taint(key=SLA, value="950", effect=NS),
        False,
    ),
    (
        "Lt, taint value above the toleration's",
        Toleration(key=SLA, operator="Lt", value="800", effect=NS),
        Taint(key=SLA, value="950", effect=NS),
        False,
    ),
    (
        "Lt, taint value below the toleration's (tolerated only with the gate on)",
        Toleration(key=SLA, operator="Lt", value="950", effect=NS),
        Taint(key=SLA, value="800", effect=NS),
        False,
    ),
    (
        "Gt, equal values",
        Toleration(key=SLA, operator="Gt", value="950", effect=NS),
        Taint(key=SLA, value="950", effect=NS),
        False,
    ),
    (
        "Gt, non-numeric taint value",
        Toleration(key=SLA, operator="Gt", value="950", effect=NS),
        Taint(key=SLA, value="high", effect=NS),
        False,
    ),
    (
        "Gt, negative values, taint below",
        Toleration(key="test-key", operator="Gt", value="-100", effect=NS),
        Taint(key="test-key", value="-200", effect=NS),
        False,
    ),
    (
        "Gt, large int64 threshold, taint below",
        Toleration(key="test-key", operator="Gt", value="9223372036854775806", effect=NS),
        Taint(key="test-key", value="100", effect=NS),
        False,
    ),
    # Beyond upstream's table: the empty operator means Equal, and an empty effect
    # matches every effect.
    (
        "empty operator compares values like Equal",
        Toleration(key="foo", value="bar", effect=NS),
        Taint(key="foo", value="bar", effect=NS),
        True,
    ),
    (
        "empty operator with another value",
        Toleration(key="foo", value="baz", effect=NS),
        Taint(key="foo", value="bar", effect=NS),
        False,
    ),
    (
        "empty effect matches NoExecute",
        Toleration(key="foo", operator="Exists"),
        Taint(key="foo", effect=NE),
        True,
    ),
    (
        "empty key and effect with Exists tolerates everything",
        Toleration(operator="Exists"),
        Taint(key="anything", value="x", effect="PreferNoSchedule"),
        True,
    ),
    (
        "empty key with Equal matches any key with the same (empty) value",
        Toleration(key="", operator="Equal", effect=NS),
        Taint(key="foo", effect=NS),
        True,
    ),
    (
        "different keys, Exists",
        Toleration(key="foo", operator="Exists", effect=NS),
        Taint(key="bar", effect=NS),
        False,
    ),
]


@pytest.mark.parametrize(
    ("toleration", "taint", "tolerated"),
    [pytest.param(tol, taint, ok, id=desc) for desc, tol, taint, ok in CASES],
)
def test_tolerates(toleration: Toleration, taint: Taint, tolerated: bool) -> None:
    assert tolerates(toleration, taint) is tolerated


# Upstream's TestTolerationToleratesTaint with TaintTolerationComparisonOperators on:
# the numeric rows of CASES above, with what they give when the gate is enabled.
GATED_CASES = [
    ("Gt, taint below", "Gt", "950", "800", False),
    ("Gt, taint above", "Gt", "750", "950", True),
    ("Lt, taint above", "Lt", "800", "950", False),
    ("Lt, taint below", "Lt", "950", "800", True),
    ("Gt, equal values", "Gt", "950", "950", False),
    ("Gt, non-numeric taint value", "Gt", "950", "high", False),
    ("Gt, negative values, taint below", "Gt", "-100", "-200", False),
    ("Gt, large int64 threshold, taint below", "Gt", "9223372036854775806", "100", False),
    # Upstream's TestCompareNumericValues.
    ("Gt, taint greater", "Gt", "100", "200", True),
    ("Gt, taint less", "Gt", "200", "100", False),
    ("Gt, equal", "Gt", "100", "100", False),
    ("Gt, negatives, taint greater", "Gt", "-100", "-50", True),
    ("Gt, negatives, taint less", "Gt", "-50", "-100", False),
    ("Gt, zero and positive", "Gt", "0", "1", True),
    ("Gt, int64 values, taint greater", "Gt", "9223372036854775806", "9223372036854775807", True),
    ("Lt, taint less", "Lt", "200", "100", True),
    ("Lt, taint greater", "Lt", "100", "200", False),
    ("Lt, equal", "Lt", "100", "100", False),
    ("Lt, negatives, taint less", "Lt", "-50", "-100", True),
    ("Lt, negatives, taint greater", "Lt", "-100", "-50", False),
    ("Lt, zero and negative", "Lt", "0", "-1", True),
    ("Gt, non-numeric toleration value", "Gt", "abc", "100", False),
    ("Gt, empty toleration value", "Gt", "", "100", False),
    ("Gt, leading zero in the toleration value", "Gt", "0100", "200", False),
    ("Gt, plus sign in the toleration value", "Gt", "+100", "200", False),
    ("Gt, decimal toleration value", "Gt", "100.5", "200", False),
    ("Gt, a lone minus sign", "Gt", "-", "100", False),
    ("Gt, non-numeric taint value", "Gt", "100", "xyz", False),
    ("Gt, empty taint value", "Gt", "100", "", False),
    ("Gt, leading zero in the taint value", "Gt", "100", "0200", False),
    ("Lt, plus sign in the taint value", "Lt", "100", "+200", False),
    ("Lt, spaces around the taint value", "Lt", "100", " 200 ", False),
    ("Gt, both zero", "Gt", "0", "0", False),
    ("Lt, both zero", "Lt", "0", "0", False),
    ("Gt, max int64 taint", "Gt", "0", "9223372036854775807", True),
    ("Lt, min int64 taint", "Lt", "0", "-9223372036854775808", True),
    # Beyond upstream's tables: outside int64 and negative zero are not integers here.
    ("Gt, taint above int64", "Gt", "0", "9223372036854775808", False),
    ("Lt, negative zero taint", "Lt", "1", "-0", False),
]


@pytest.mark.parametrize(
    ("operator", "threshold", "value", "tolerated"),
    [pytest.param(op, lim, val, ok, id=desc) for desc, op, lim, val, ok in GATED_CASES],
)
def test_comparison_operators_with_the_gate(
    operator: str, threshold: str, value: str, tolerated: bool
) -> None:
    toleration = Toleration(key=SLA, operator=operator, value=threshold, effect=NS)
    taint = Taint(key=SLA, value=value, effect=NS)
    assert tolerates(toleration, taint, comparison=True) is tolerated
    assert tolerates(toleration, taint) is False  # the gate off: never


def test_comparison_operators_still_match_key_and_effect() -> None:
    toleration = Toleration(key=SLA, operator="Gt", value="1", effect=NS)
    assert not tolerates(toleration, Taint(key="other", value="5", effect=NS), comparison=True)
    assert not tolerates(toleration, Taint(key=SLA, value="5", effect=NE), comparison=True)
    assert tolerates(
        Toleration(operator="Lt", value="9"), Taint(key="k", value="5", effect=NE), True
    )


@pytest.mark.parametrize(
    ("operator", "comparison", "error"),
    [
        ("", False, None),
        ("Equal", False, None),
        ("Exists", False, None),
        ("Gt", True, None),
        ("Lt", True, None),
        (
            "Gt",
            False,
            'spec.tolerations[1].operator: Unsupported value: "Gt": '
            'supported values: "Equal", "Exists"',
        ),
        (
            "In",
            True,
            'spec.tolerations[1].operator: Unsupported value: "In": '
            'supported values: "Equal", "Exists", "Gt", "Lt"',
        ),
    ],
)
def test_toleration_operator_validation(operator: str, comparison: bool, error: str | None) -> None:
    value = "" if operator == "Exists" else "1"  # Exists takes no value
    tolerations = [
        Toleration(operator="Exists"),
        Toleration(key="k", operator=operator, value=value),
    ]
    errors = [str(e) for e in toleration_errors(tolerations, comparison=comparison)]
    assert errors == ([] if error is None else [error])
