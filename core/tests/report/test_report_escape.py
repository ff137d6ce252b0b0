"""Data embedded in an inline script cannot end the script or be read as markup."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from kubesched.report._escape import script_json

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=20,
)
DANGEROUS = st.text(alphabet="<>&/\"' \u2028\u2029ascript!-", max_size=30)


@given(JSON)
def test_round_trips_through_a_json_parser(value: Any) -> None:
    assert json.loads(script_json(value)) == value


@given(st.one_of(JSON, st.lists(DANGEROUS)))
def test_never_contains_markup_characters_or_line_separators(value: Any) -> None:
    text = script_json(value)
    for bad in ("<", ">", "&", "\u2028", "\u2029"):
        assert bad not in text


def test_a_closing_script_tag_in_a_name_is_escaped() -> None:
    text = script_json({"pod": "default/</script><script>alert('x')</script>"})
    assert "</script" not in text.lower()
    assert "\\u003c/script\\u003e" in text
    assert json.loads(text)["pod"] == "default/</script><script>alert('x')</script>"
