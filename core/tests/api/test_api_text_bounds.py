"""Depth and duplicate checks of the YAML and JSON readers, flow and block style alike."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kubesched.api._text import MAX_DEPTH, TextError, parse_json, parse_yaml, parse_yaml_document


def block_sequences(depth: int) -> str:
    """`depth` nested block sequences, as `- - - x` on one line."""
    return "- " * depth + "x\n"


def block_mappings(depth: int) -> str:
    """`depth` nested block mappings, one indented key a line."""
    return "".join(" " * i + f"k{i}:\n" for i in range(depth - 1)) + " " * (depth - 1) + "k: v\n"


@given(st.integers(min_value=1, max_value=2 * MAX_DEPTH))
@pytest.mark.parametrize("style", [block_sequences, block_mappings])
def test_block_nesting_is_refused_exactly_beyond_the_limit(style: object, depth: int) -> None:
    text = style(depth)  # type: ignore[operator]
    if depth <= MAX_DEPTH:
        assert parse_yaml_document(text)[0] is not None
        assert len(list(parse_yaml(text))) == 1
    else:
        for parse in (parse_yaml_document, lambda t: list(parse_yaml(t))):
            with pytest.raises(TextError, match=f"nested deeper than {MAX_DEPTH} levels"):
                parse(text)


@given(st.text(alphabet="[]{}ab", max_size=400))
def test_brackets_in_strings_are_not_nesting(inside: str) -> None:
    document = {"metadata": {"annotations": {"a": inside * 3}}}
    assert parse_json(json.dumps(document)) == document
    assert parse_yaml_document(json.dumps(document))[0] == document


@given(st.lists(st.sampled_from("abcde"), min_size=1, max_size=8))
def test_a_json_key_given_twice_is_refused_as_in_yaml(keys: list[str]) -> None:
    text = "{" + ", ".join(f'"{k}": {i}' for i, k in enumerate(keys)) + "}"
    _, yaml_problems = parse_yaml_document(text)
    if len(set(keys)) == len(keys):
        assert parse_json(text) == {k: i for i, k in enumerate(keys)}
        assert yaml_problems == []
    else:
        with pytest.raises(TextError) as info:
            parse_json(text)
        assert f"{info.value.field}: {info.value.message}" == yaml_problems[0]


def test_a_deep_block_document_does_not_crash_the_c_parser() -> None:
    with pytest.raises(TextError) as info:
        list(parse_yaml("a:\n  " + "- " * 30_000 + "x\n"))
    assert (info.value.message, info.value.document) == (
        f"nested deeper than {MAX_DEPTH} levels",
        0,
    )
