"""Field errors as apimachinery prints them: field/errors_test.go's TestErrorBody,
TestNotSupported, TestErrorUsefulMessage and TestToAggregate as data, strconv.Quote's
escapes, and the aggregate's wording."""

from __future__ import annotations

import ast
from datetime import timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kubesched.api._field_errors import (
    FieldError,
    Shown,
    aggregate_message,
    child,
    duplicate,
    go_quote,
    go_string_slice,
    go_value,
    index,
    invalid,
    not_supported,
    required,
    unique_messages,
)


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        (child("", "parallelism"), "parallelism"),
        (child("profiles[0]", "schedulerName"), "profiles[0].schedulerName"),
        (index("profiles", 2), "profiles[2]"),
        (index(index("values", 0), "key"), "values[0][key]"),
        (child(index(child("args", "shape"), 1), "score"), "args.shape[1].score"),
    ],
)
def test_paths(path: str, expected: str) -> None:
    assert path == expected


@pytest.mark.parametrize(
    ("text", "quoted"),
    [
        ("plain", '"plain"'),
        ("", '""'),
        ('say "hi"\\', '"say \\"hi\\"\\\\"'),
        ("tab\there\n", '"tab\\there\\n"'),
        ("\a\b\f\r\v", '"\\a\\b\\f\\r\\v"'),
        ("\x00\x7f", '"\\x00\\x7f"'),
        ("é中", '"é中"'),
        ("\u200b", '"\\u200b"'),
        ("\U000e0001", '"\\U000e0001"'),
    ],
)
def test_go_quote(text: str, quoted: str) -> None:
    assert go_quote(text) == quoted


@given(st.text())
def test_go_quote_reads_back_as_the_text(text: str) -> None:
    # Every escape strconv.Quote writes is also a Python string-literal escape.
    quoted = go_quote(text)
    assert quoted.isprintable()
    assert ast.literal_eval(quoted) == text


def test_go_string_slice() -> None:
    assert go_string_slice([]) == "[]string(nil)"
    assert go_string_slice(["a", 'b"']) == '[]string{"a", "b\\""}'


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (2, "2"),
        (-1, "-1"),
        (0.5, "0.5"),
        (True, "true"),
        (False, "false"),
        ("bar", '"bar"'),
        (None, '"null"'),
        (Shown("stringer"), "stringer"),
        (Shown("15s"), "15s"),
        (["host_1", "host_2"], '[]string{"host_1", "host_2"}'),
        (("x",), '[]string{"x"}'),
        ([], "[]string(nil)"),
        ([1, 2], "[1,2]"),
        ({"enabled": ["A"], "disabled": []}, '{"enabled":["A"],"disabled":[]}'),
        ({"name": "é"}, '{"name":"é"}'),
        ({"after": timedelta(seconds=1)}, '{"after":"0:00:01"}'),
    ],
)
def test_go_value(value: object, shown: str) -> None:
    assert go_value(value) == shown


@pytest.mark.parametrize(
    ("error", "message"),
    [
        (invalid("bla", 2, "details"), "bla: Invalid value: 2: details"),
        (invalid("bla", None, "details"), 'bla: Invalid value: "null": details'),
        (invalid("bla", Shown("stringer"), "details"), "bla: Invalid value: stringer: details"),
        (invalid("foo", "bar", "deet"), 'foo: Invalid value: "bar": deet'),
        (invalid("", None, ""), ': Invalid value: "null"'),
        (required("profiles"), "profiles: Required value"),
        (required("f", "d"), "f: Required value: d"),
        (
            duplicate("profiles[1].schedulerName", "other"),
            'profiles[1].schedulerName: Duplicate value: "other"',
        ),
        (
            not_supported("f", "v", ["a", "b", "c"]),
            'f: Unsupported value: "v": supported values: "a", "b", "c"',
        ),
        (not_supported("f", "v", []), 'f: Unsupported value: "v"'),
    ],
)
def test_messages(error: FieldError, message: str) -> None:
    assert str(error) == message
    assert message == f"{error.path}: {error.body}"


def test_errors_compare_by_content() -> None:
    assert invalid("f", ["v"], "d") == invalid("f", ["v"], "d")
    assert len({invalid("f", ["v"], "d"), invalid("f", ["v"], "d")}) == 1


F = invalid("f", "v", "d")
OTHER = required("g", "e")


@pytest.mark.parametrize(
    ("errors", "messages", "aggregate"),
    [
        ([F], ['f: Invalid value: "v": d'], 'f: Invalid value: "v": d'),
        ([F, F], ['f: Invalid value: "v": d'], 'f: Invalid value: "v": d'),
        (
            [F, OTHER, F],
            ['f: Invalid value: "v": d', "g: Required value: e"],
            '[f: Invalid value: "v": d, g: Required value: e]',
        ),
    ],
)
def test_aggregate(errors: list[FieldError], messages: list[str], aggregate: str) -> None:
    assert unique_messages(errors) == messages
    assert aggregate_message(errors) == aggregate
