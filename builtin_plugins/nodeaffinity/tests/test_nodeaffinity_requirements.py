"""Requirement parsing and matching, with upstream's labels.NewRequirement rules and
messages, and Go's integer parsing that Gt and Lt use. A bad key or value is one error at
its path joining every problem the name checks find (their wording is tested with
kubesched.api)."""

from __future__ import annotations

import pytest

from kubesched.api import NodeSelectorRequirement as R
from kubesched.api import label_value_errors, qualified_name_errors
from kubesched_nodeaffinity.requirements import (
    FieldRequirement,
    LabelRequirement,
    parse_field_requirement,
    parse_go_int64,
    parse_label_requirement,
)


def key_problems(key: str) -> str:
    return "; ".join(qualified_name_errors(key))


def value_problems(value: str) -> str:
    return "; ".join(label_value_errors(value))


def messages(requirement: R) -> list[str]:
    parsed = parse_label_requirement(requirement, "p")
    assert isinstance(parsed, list)
    return [str(e) for e in parsed]


@pytest.mark.parametrize(
    ("requirement", "expected"),
    [
        (
            R("foo", "Foo", ["bar"]),
            [
                'p.operator: Unsupported value: "Foo": supported values: "In", "NotIn", '
                '"Exists", "DoesNotExist", "Gt", "Lt"'
            ],
        ),
        (
            R("foo", "In", []),
            [
                "p.values: Invalid value: []string(nil): "
                "for 'in', 'notin' operators, values set can't be empty"
            ],
        ),
        (
            R("foo", "DoesNotExist", ["x"]),
            [
                'p.values: Invalid value: []string{"x"}: '
                "values set must be empty for exists and does not exist"
            ],
        ),
        (
            R("foo", "Gt", ["1", "2"]),
            [
                'p.values: Invalid value: []string{"1", "2"}: '
                "for 'Gt', 'Lt' operators, exactly one value is required"
            ],
        ),
        (
            R("foo", "Lt", ["1.5"]),
            [
                'p.values[0]: Invalid value: "1.5": '
                "for 'Gt', 'Lt' operators, the value must be an integer"
            ],
        ),
        (
            R("foo", "Gt", ["a b"]),
            [
                "p.values[0]: Invalid value: \"a b\": for 'Gt', 'Lt' operators, the value must be "
                "an integer",
                f'p.values[0][foo]: Invalid value: "a b": {value_problems("a b")}',
            ],
        ),
        (
            R("a/", "In", ["-x"]),
            [
                f'p.key: Invalid value: "a/": {key_problems("a/")}',
                f'p.values[0][a/]: Invalid value: "-x": {value_problems("-x")}',
            ],
        ),
        (
            R("foo", "In", ["x" * 64, "-x"]),
            [
                f'p.values[0][foo]: Invalid value: "{"x" * 64}": {value_problems("x" * 64)}',
                f'p.values[1][foo]: Invalid value: "-x": {value_problems("-x")}',
            ],
        ),
    ],
)
def test_label_requirement_errors(requirement: R, expected: list[str]) -> None:
    assert messages(requirement) == expected


@pytest.mark.parametrize("key", ["a/b/c", "/a", "Ex.com/a", "a/", "a" * 64, "-a"])
def test_bad_keys_are_one_error(key: str) -> None:
    assert messages(R(key, "Exists")) == [f'p.key: Invalid value: "{key}": {key_problems(key)}']


@pytest.mark.parametrize(
    ("requirement", "expected"),
    [
        (
            R("metadata.name", "Exists"),
            ['p.operator: Unsupported value: "Exists": supported values: "In", "NotIn"'],
        ),
        (
            R("metadata.name", "NotIn", []),
            ["p.values: Invalid value: []string(nil): must have one element"],
        ),
    ],
)
def test_field_requirement_errors(requirement: R, expected: list[str]) -> None:
    parsed = parse_field_requirement(requirement, "p")
    assert isinstance(parsed, list)
    assert [str(e) for e in parsed] == expected


def test_field_requirement_parses_one_value() -> None:
    parsed = parse_field_requirement(R("metadata.name", "NotIn", ["n1"]), "p")
    assert parsed == FieldRequirement("metadata.name", "NotIn", "n1")
    assert isinstance(parsed, FieldRequirement)
    assert (parsed.matches("n1"), parsed.matches("n2")) == (False, True)


@pytest.mark.parametrize(
    ("requirement", "labels", "want"),
    [
        (R("k", "In", ["a", "b"]), {"k": "b"}, True),
        (R("k", "In", ["a", "b"]), {"k": "c"}, False),
        (R("k", "In", ["a"]), {}, False),
        (R("k", "NotIn", ["a"]), {}, True),
        (R("k", "NotIn", ["a"]), {"k": "a"}, False),
        (R("k", "Exists"), {"k": ""}, True),
        (R("k", "DoesNotExist"), {"k": ""}, False),
        (R("k", "DoesNotExist"), {"j": ""}, True),
        (R("k", "Gt", ["5"]), {"k": "6"}, True),
        (R("k", "Gt", ["5"]), {"k": "5"}, False),
        (R("k", "Gt", ["0"]), {"k": "+1"}, True),
        (R("k", "Lt", ["0"]), {"k": "-3"}, True),
        (R("k", "Lt", ["5"]), {"k": "0004"}, True),
        (R("k", "Lt", ["5"]), {"k": "1e2"}, False),
        (R("k", "Gt", ["5"]), {"k": "9223372036854775808"}, False),
        (R("k", "Lt", ["5"]), {}, False),
    ],
)
def test_label_requirement_matches(requirement: R, labels: dict[str, str], want: bool) -> None:
    parsed = parse_label_requirement(requirement, "")
    assert isinstance(parsed, LabelRequirement)
    assert parsed.matches(labels) is want


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("0", 0),
        ("-12", -12),
        ("+7", 7),
        ("007", 7),
        ("9223372036854775807", 2**63 - 1),
        ("-9223372036854775808", -(2**63)),
        ("9223372036854775808", None),
        ("", None),
        ("1_000", None),
        (" 1", None),
        ("0x10", None),
        ("\u0661", None),
    ],
)
def test_parse_go_int64(text: str, value: int | None) -> None:
    assert parse_go_int64(text) == value
