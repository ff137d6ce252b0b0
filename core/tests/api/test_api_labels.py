"""Label selectors, on the cases of apimachinery's helpers_test.go and selector_test.go."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kubesched.api import LabelSelector, LabelSelectorRequirement
from kubesched.api._labels import EVERYTHING, NOTHING, as_selector, selector_matches
from kubesched.errors import InputError


def expr(key: str, operator: str, *values: str) -> LabelSelectorRequirement:
    return LabelSelectorRequirement(key=key, operator=operator, values=list(values))


def exprs(*requirements: LabelSelectorRequirement) -> LabelSelector:
    return LabelSelector(match_expressions=list(requirements))


FOO_BAR = {"foo": "bar"}
BAZ_IN = expr("baz", "In", "qux", "norf")


# TestLabelSelectorAsSelector
def test_nil_selects_nothing_and_empty_selects_everything() -> None:
    assert as_selector(None) == NOTHING
    assert as_selector(LabelSelector()) == EVERYTHING and EVERYTHING.empty
    assert not selector_matches(None, {})
    assert not selector_matches(None, {"x": "y"})
    assert selector_matches(LabelSelector(), {})
    assert selector_matches(LabelSelector(), {"x": "y"})


@pytest.mark.parametrize(
    ("selector", "labels", "matches"),
    [
        (LabelSelector(match_labels=FOO_BAR), {"foo": "bar"}, True),
        (LabelSelector(match_labels=FOO_BAR), {"foo": "baz"}, False),
        (exprs(BAZ_IN), {"baz": "norf"}, True),
        (exprs(BAZ_IN), {"baz": "other"}, False),
        (LabelSelector(FOO_BAR, [BAZ_IN]), {"foo": "bar", "baz": "qux"}, True),
        (LabelSelector(FOO_BAR, [BAZ_IN]), {"foo": "bar"}, False),
        (LabelSelector(FOO_BAR, [BAZ_IN]), {"baz": "qux"}, False),
    ],
)
def test_match_labels_and_expressions_are_anded(
    selector: LabelSelector, labels: dict[str, str], matches: bool
) -> None:
    assert selector_matches(selector, labels) is matches


# TestSelectorMatches and TestSetMatches, the cases a LabelSelector can express
# ("x!=y" is NotIn with one value, "x" is Exists, "!x" is DoesNotExist).
LABELSET = {"foo": "bar", "baz": "blah"}
SELECTOR_MATCHES = [
    (LabelSelector(), {"x": "y"}, True),
    (LabelSelector(match_labels={"x": "y"}), {"x": "y"}, True),
    (LabelSelector(match_labels={"x": "y", "z": "w"}), {"x": "y", "z": "w"}, True),
    (exprs(expr("x", "NotIn", "y"), expr("z", "NotIn", "w")), {"x": "z", "z": "a"}, True),
    (LabelSelector(match_labels={"notin": "in"}), {"notin": "in"}, True),
    (exprs(expr("x", "Exists")), {"x": "z"}, True),
    (exprs(expr("x", "DoesNotExist")), {"y": "z"}, True),
    (LabelSelector(match_labels={"x": "z"}), {}, False),
    (LabelSelector(match_labels={"x": "y"}), {"x": "z"}, False),
    (LabelSelector(match_labels={"x": "y", "z": "w"}), {"x": "w", "z": "w"}, False),
    (exprs(expr("x", "NotIn", "y"), expr("z", "NotIn", "w")), {"x": "z", "z": "w"}, False),
    (exprs(expr("x", "Exists")), {"y": "z"}, False),
    (exprs(expr("x", "DoesNotExist")), {"x": "z"}, False),
    (LabelSelector(match_labels={"foo": "bar"}), LABELSET, True),
    (LabelSelector(match_labels={"baz": "blah"}), LABELSET, True),
    (LabelSelector(match_labels={"foo": "bar", "baz": "blah"}), LABELSET, True),
    (LabelSelector(match_labels={"foo": "blah"}), LABELSET, False),
    (LabelSelector(match_labels={"baz": "bar"}), LABELSET, False),
    (LabelSelector(match_labels={"foo": "bar", "foobar": "bar", "baz": "blah"}), LABELSET, False),
]

# TestRequirementSelectorMatching
REQUIREMENT_MATCHING = [
    (exprs(expr("x", "In", "foo"), expr("y", "NotIn", "alpha")), {"x": "foo", "y": "baz"}, True),
    (exprs(expr("x", "In", "foo"), expr("y", "In", "alpha")), {"x": "foo", "y": "baz"}, False),
    (exprs(expr("x", "NotIn", ""), expr("y", "Exists")), {"y": ""}, True),
    (exprs(expr("x", "DoesNotExist"), expr("y", "Exists")), {"y": ""}, True),
    (exprs(expr("x", "NotIn", ""), expr("y", "DoesNotExist")), {"y": ""}, False),
    (exprs(expr("x", "In", "")), {"y": "baz"}, False),
]


@pytest.mark.parametrize(("selector", "labels", "matches"), SELECTOR_MATCHES + REQUIREMENT_MATCHING)
def test_selector_matching(selector: LabelSelector, labels: dict[str, str], matches: bool) -> None:
    assert selector_matches(selector, labels) is matches


# TestRequirementConstructor (the operators a LabelSelector allows) and the
# Exists-with-values case of TestLabelSelectorAsSelector.
@pytest.mark.parametrize(
    ("requirement", "field", "message"),
    [
        (expr("x", "In"), "matchExpressions[0].values", "values set can't be empty"),
        (expr("x", "NotIn"), "matchExpressions[0].values", "values set can't be empty"),
        (expr("baz", "Exists", "qux", "norf"), "matchExpressions[0].values", "must be empty"),
        (expr("x", "DoesNotExist", "a"), "matchExpressions[0].values", "must be empty"),
        (expr("a" * 254, "Exists"), "matchExpressions[0].key", "no more than 63 bytes"),
        (
            expr("y", "Gt", "1"),
            "matchExpressions[0].operator",
            "not a valid label selector operator",
        ),
        (
            expr("z", "Lt", "6"),
            "matchExpressions[0].operator",
            "not a valid label selector operator",
        ),
        (expr("x", "In", "-bad"), "matchExpressions[0].values[0]", "alphanumeric"),
        (expr("x", "In", "v" * 64), "matchExpressions[0].values[0]", "no more than 63"),
        (expr("a/b/c", "Exists"), "matchExpressions[0].key", "a valid label key"),
        (expr("/name", "Exists"), "matchExpressions[0].key", "prefix part must be non-empty"),
        (expr("Example.com/x", "Exists"), "matchExpressions[0].key", "RFC 1123 subdomain"),
        (expr("example.com/", "Exists"), "matchExpressions[0].key", "name part must be non-empty"),
    ],
)
def test_invalid_requirements_are_rejected(
    requirement: LabelSelectorRequirement, field: str, message: str
) -> None:
    with pytest.raises(InputError, match=message) as caught:
        as_selector(exprs(requirement))
    assert caught.value.field == field


# The messages are upstream's field errors, values printed as Go prints them.
@pytest.mark.parametrize(
    ("requirement", "message"),
    [
        (
            expr("x", "In"),
            "Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be empty",
        ),
        (
            expr("baz", "Exists", "qux", "norf"),
            'Invalid value: []string{"qux", "norf"}: '
            "values set must be empty for exists and does not exist",
        ),
        (expr("y", "Gt", "1"), '"Gt" is not a valid label selector operator'),
        (expr("x", "In", "v" * 64), f'Invalid value: "{"v" * 64}": must be no more than 63 bytes'),
        (expr("/name", "Exists"), 'Invalid value: "/name": prefix part must be non-empty'),
    ],
)
def test_invalid_requirement_messages(requirement: LabelSelectorRequirement, message: str) -> None:
    with pytest.raises(InputError) as caught:
        as_selector(exprs(requirement))
    assert caught.value.message == message


def test_invalid_match_labels_name_the_entry() -> None:
    with pytest.raises(InputError) as caught:
        as_selector(LabelSelector(match_labels={"app": "has space"}))
    assert caught.value.field == "matchLabels.app"
    with pytest.raises(InputError) as caught:
        as_selector(LabelSelector(match_labels={"bad key": "v"}))
    assert caught.value.field == "matchLabels"


@pytest.mark.parametrize(
    "requirement",
    [
        expr("x", "In", "foo"),
        expr("x", "NotIn", "foo"),
        expr("x", "Exists"),
        expr("x", "DoesNotExist"),
        expr("1foo", "In", "bar"),
        expr("1234", "In", "bar"),
        expr("example.com/key-with_dash.1", "In", "v"),
    ],
)
def test_valid_requirements_compile(requirement: LabelSelectorRequirement) -> None:
    assert len(as_selector(exprs(requirement)).requirements) == 1


LABEL_KEYS = st.sampled_from(["a", "b", "c"])
LABEL_SETS = st.dictionaries(LABEL_KEYS, st.sampled_from(["1", "2", ""]), max_size=3)


@given(LABEL_SETS, LABEL_KEYS, st.lists(st.sampled_from(["1", "2", ""]), min_size=1, max_size=2))
def test_in_and_not_in_are_complements(labels: dict[str, str], key: str, values: list[str]) -> None:
    within = selector_matches(exprs(expr(key, "In", *values)), labels)
    outside = selector_matches(exprs(expr(key, "NotIn", *values)), labels)
    assert within != outside


@given(LABEL_SETS, LABEL_KEYS)
def test_exists_and_does_not_exist_are_complements(labels: dict[str, str], key: str) -> None:
    exists = selector_matches(exprs(expr(key, "Exists")), labels)
    assert exists == (key in labels)
    assert selector_matches(exprs(expr(key, "DoesNotExist")), labels) != exists


@given(LABEL_SETS)
def test_match_labels_is_a_subset_test(labels: dict[str, str]) -> None:
    for key, value in labels.items():
        assert selector_matches(LabelSelector(match_labels={key: value}), labels)
    assert selector_matches(LabelSelector(match_labels=dict(labels)), labels)
