"""`json.dumps(document, indent=2)`, byte for byte, in a fraction of the time.

The CLI's JSON documents are a public API, so their text must not change: the
fast encoder (orjson) is used only for documents made of the plain values whose
text it writes exactly as the standard library does (str, int within 64 bits,
bool, None, finite floats written without an exponent, lists and dicts with str
keys), and only when the text it wrote is printable ASCII: the standard library
escapes everything outside U+0020..U+007E, DEL included, which orjson writes
raw, and orjson refuses lone surrogates. Anything else goes through `json.dumps`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import orjson

_INT_MIN, _INT_MAX = -(2**63), 2**64 - 1
_SCALARS = (str, bool, type(None))


def _plain(value: Any) -> bool:
    """Does orjson write `value` as json.dumps does?"""
    stack = [value]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind in _SCALARS:
            continue
        if kind is dict:
            for key, child in item.items():
                if type(key) is not str:
                    return False
                stack.append(child)
        elif kind is list:
            stack.extend(item)
        elif kind is int:
            if not _INT_MIN <= item <= _INT_MAX:
                return False
        elif kind is float:
            text = repr(item)
            if "e" in text or "n" in text:  # exponent, inf or nan: orjson writes those otherwise
                return False
        else:
            return False
    return True


def _orjson_text(document: Any) -> str | None:
    """orjson's text of a plain document, or None where it would differ from json.dumps."""
    try:
        text = orjson.dumps(document, option=orjson.OPT_INDENT_2)
    except orjson.JSONEncodeError:  # a lone surrogate, which json.dumps escapes
        return None
    if not text.isascii() or b"\x7f" in text:
        return None
    return text.decode("ascii")


def dumps_indented(document: Any) -> str:
    """The text of `json.dumps(document, indent=2)`."""
    text = _orjson_text(document) if _plain(document) else None
    return json.dumps(document, indent=2) if text is None else text


def write_indented(
    write: Callable[[str], object],
    head: Mapping[str, Any],
    key: str,
    items: Iterable[Any],
    tail: Mapping[str, Any],
) -> None:
    """Write the text of `json.dumps({**head, key: [*items], **tail}, indent=2)` and a line
    break, one item at a time: only one item's text is ever held (`--explain` on every pod
    of a large cluster writes gigabytes)."""
    lead = "\n"

    def entry(name: str, text: str) -> None:
        nonlocal lead
        write(f"{lead}  {json.dumps(name)}: {text.replace(chr(10), chr(10) + '  ')}")
        lead = ",\n"

    write("{")
    for name, value in head.items():
        entry(name, dumps_indented(value))
    write(f"{lead}  {json.dumps(key)}: [")
    lead, opened = "\n", False
    for item in items:
        write(f"{lead}    {dumps_indented(item).replace(chr(10), chr(10) + '    ')}")
        lead, opened = ",\n", True
    write("\n  ]" if opened else "]")
    lead = ",\n"
    for name, value in tail.items():
        entry(name, dumps_indented(value))
    write("\n}\n")
