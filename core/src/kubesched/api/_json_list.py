"""A `kubectl get -o json` List read item by item.

msgspec (a compiled JSON reader) reads the List's own keys and leaves each item
as a slice of the text (`msgspec.Raw`); an item becomes Python data only when
iterated over, so memory holds the text, the objects kept and one item's data,
not the whole document's; fields no kind reads are left out of it
(`kubesched.api._json_items`). When an item's reading lost a key, or the List's
own reading holds fewer keys than its text, a key was given twice: once the
items are read, the
standard library's reader reads the whole text and says which key, as it
always has (objects are checked as they are read, so a wrong object before it
is reported first). A List with keys of its own other than `apiVersion`,
`kind`, `metadata` and `items` is left to the whole-text readers of
`kubesched.api._text`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from kubesched.api._json_items import read_item
from kubesched.api._list_items import LazyItems
from kubesched.api._text import check_json_depth, key_count, parse_json

try:  # a compiled JSON reader, with wheels for every supported Python; optional all the same
    import msgspec
except ImportError:  # pragma: no cover - exercised where the wheel is missing
    msgspec = None  # type: ignore[assignment]


if msgspec is not None:

    class _Outer(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
        """A List's own keys; its items stay text."""

        apiVersion: Any = msgspec.UNSET
        kind: Any = msgspec.UNSET
        metadata: Any = msgspec.UNSET
        items: list[msgspec.Raw] | msgspec.UnsetType = msgspec.UNSET


def json_list_document(name: str, text: str | bytes) -> dict[str, Any] | None:
    """The List `text` holds (UTF-8 bytes or text), its items read one by one as they are
    iterated over; None when it is no List of items with only the usual keys of its own."""
    opening = b"{" if isinstance(text, bytes) else "{"
    if msgspec is None or not text.lstrip().startswith(opening):  # type: ignore[arg-type]
        return None
    check_json_depth(text)
    try:
        outer = msgspec.json.decode(text, type=_Outer)
    except (msgspec.MsgspecError, ValueError):
        return None
    items = outer.items
    kind = outer.kind
    if isinstance(items, msgspec.UnsetType) or not (
        isinstance(kind, str) and kind.endswith("List")
    ):
        return None
    own = msgspec.json.encode(msgspec.structs.replace(outer, items=[]))
    document = msgspec.json.decode(own)
    assert isinstance(document, dict)
    return {**document, "items": _JsonItems(items, text, name, key_count(text) - key_count(own))}


_REFUSED = object()


class _JsonItems(LazyItems):
    """A JSON List's items, each decoded when iterated over; `keys` is how many keys the
    text gives them in all."""

    def __init__(self, items: list[Any], text: str | bytes, name: str, keys: int) -> None:
        self._raw = items
        self._text = text
        self._name = name
        self._keys = keys

    def __len__(self) -> int:
        return len(self._raw)

    def _items(self) -> Iterator[Any]:
        decoded = 0
        for index, raw in enumerate(self._raw):
            piece = bytes(raw)
            try:
                value, whole = read_item(piece)
            except (msgspec.MsgspecError, ValueError):
                yield from _exact_rest(self._text, index)  # says what is wrong
                return
            decoded += key_count(piece) if whole else 0  # a key twice: counts differ
            yield value
        if decoded != self._keys:  # a key given twice (or text the count misread)
            parse_json(_as_text(self._text))  # raises TextError naming the key, if one repeats


def _as_text(text: str | bytes) -> str:
    return text.decode("utf-8") if isinstance(text, bytes) else text


def _exact_rest(text: str | bytes, index: int) -> Iterator[Any]:
    """Items `index` on, from the standard library's reader of the whole text."""
    document = parse_json(_as_text(text))
    yield from document["items"][index:]
