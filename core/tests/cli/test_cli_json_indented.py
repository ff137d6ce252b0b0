"""The CLI's JSON text is json.dumps(document, indent=2) byte for byte, whichever encoder
writes it (a public API: its text must not depend on the speed-up)."""

from __future__ import annotations

import json
import math
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from kubesched.cli._json import _plain, dumps_indented, write_indented

# Every code point json.dumps escapes that is easy to get wrong: C0 controls, DEL, C1
# controls, lone surrogates and the non-characters (U+FDD0..U+FDEF and the last two of
# every plane).
ODD_CODE_POINTS = [
    *range(0x00, 0x20),
    *range(0x7F, 0xA0),
    *range(0xD800, 0xE000),
    *range(0xFDD0, 0xFDF0),
    *(plane + last for plane in range(0, 0x110000, 0x10000) for last in (0xFFFE, 0xFFFF)),
]
odd_text = st.lists(st.sampled_from(ODD_CODE_POINTS).map(chr), max_size=6).map("".join)

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(),
    st.text(alphabet=st.characters(max_codepoint=127)),
    st.text(alphabet=st.characters(categories=["Cc", "Cs", "Cn"])),
    odd_text,
)
documents = st.recursive(
    scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=5),
        st.dictionaries(st.one_of(st.text(max_size=8), odd_text), children, max_size=5),
    ),
    max_leaves=40,
)


@given(documents)
@settings(max_examples=400, deadline=None)
def test_same_text_as_the_standard_library(document: Any) -> None:
    assert dumps_indented(document) == json.dumps(document, indent=2)


def test_every_control_surrogate_and_non_character_is_escaped_as_json_dumps_does() -> None:
    for code_point in ODD_CODE_POINTS:
        for text in (chr(code_point), f"a{chr(code_point)}b"):
            document = {"k": [text]}
            assert dumps_indented(document) == json.dumps(document, indent=2), hex(code_point)


def test_the_fast_encoder_takes_plain_documents_only() -> None:
    plain = {"a": [1, 2.5, None, True, "x", {"b": []}], "c": {}, "d": 2**64 - 1}
    assert _plain(plain)
    assert dumps_indented(plain) == json.dumps(plain, indent=2)
    for odd in (math.inf, math.nan, 1e300, 2**64, (1, 2), {1: "a"}, {"a": object()}):
        assert not _plain({"k": [odd]})
    assert dumps_indented({"k": (1, 2)}) == json.dumps({"k": (1, 2)}, indent=2)
    assert dumps_indented({"k": "é"}) == '{\n  "k": "\\u00e9"\n}'  # escaped as json.dumps does


@settings(max_examples=200, deadline=None)
@given(
    st.dictionaries(st.text(max_size=5), documents, max_size=3),
    st.lists(documents, max_size=4),
    st.dictionaries(st.text(max_size=5), documents, max_size=3),
)
def test_streamed_text_is_json_dumps_of_the_whole_document(
    head: dict[str, Any], items: list[Any], tail: dict[str, Any]
) -> None:
    tail = {k: v for k, v in tail.items() if k not in head and k != "results"}
    head = {k: v for k, v in head.items() if k != "results"}
    pieces: list[str] = []
    write_indented(pieces.append, head, "results", iter(items), tail)
    expected = json.dumps({**head, "results": items, **tail}, indent=2) + "\n"
    assert "".join(pieces) == expected
    assert len(pieces) >= len(items) + 2  # written piece by piece, not whole
