"""Toleration matching, re-expressing upstream's TestTolerationToleratesTaint."""

from __future__ import annotations

import pytest

from kubesched.api import Taint, Toleration
from kubesched.api._tolerations import tolerates

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
