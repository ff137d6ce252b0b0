"""A JSON List file read from the disk item by item, never whole.

Pretty-printed JSON (`kubectl get -o json`, `json.dumps(..., indent=...)`) puts
each item of a List's `items` on lines of its own: `{` opens it at the end of
the `"items": [` line or on the next, and a line holding only `}` (or `},`) at
the indentation of its first line closes it. A JSON string never holds a line
break, so the file can be cut at those lines while it is read in chunks, and
each piece read by msgspec. A piece msgspec reads as one object is exactly one
item (an object ends where its opening brace's depth closes), so memory holds
a chunk, the objects kept and one item's data, not the file; fields no kind
reads are left out of the item (`kubesched.api._json_items`).

The List's own keys (the text before the items and after them) are read
first; when they are not a List of only the usual keys with `items` at its
top level, nothing here applies and the file is read whole. Keys given twice
are found as `kubesched.api._json_items` finds them (the text's key count
against the read data's), and from the first piece that is not one object,
or nests too deep, the whole text is read by the exact reader, which says
what is wrong as it always has.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np

from kubesched.api._json_items import read_item
from kubesched.api._list_items import LazyItems
from kubesched.api._reading import ReadError, open_regular, read_file
from kubesched.api._text import MAX_DEPTH, bracket_depth, key_count, parse_json
from kubesched.errors import InputError

try:  # a compiled JSON reader, with wheels for every supported Python; optional all the same
    import msgspec
except ImportError:  # pragma: no cover - exercised where the wheel is missing
    msgspec = None  # type: ignore[assignment]

_CHUNK = 1 << 22
"""Bytes read at a time."""
_HEAD = 1 << 16
"""How far into the file the `items` key is looked for."""
_FIRST_ITEM = re.compile(rb'"items": \[\n( *)\{\n')
_LAST_ITEM_END = re.compile(rb"\n( *)\}\n *\][^\]]*\Z")
_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"')


class StreamedFile:
    """A manifest file whose one document is a List streamed from the disk (`document`)."""

    def __init__(self, size: int, document: dict[str, Any]) -> None:
        self.size = size
        self.document = document


def stream_json_list(name: str, path: str | Path) -> StreamedFile | None:
    """The file's List, its items read from the disk as they are iterated over; None when
    it is not laid out so (or msgspec is missing): the caller reads the file whole.
    Raises `ReadError` as `read_file` does."""
    if msgspec is None:
        return None
    with open_regular(path) as handle:
        head = _read(handle, _HEAD)
        size = handle.seek(0, 2)
        first = _FIRST_ITEM.search(head)
        if first is None or not _at_top(head[: first.start() + 10]):
            return None
        indent = first.group(1)
        handle.seek(max(size - _HEAD, 0))
        end = handle.read()
    last = _LAST_ITEM_END.search(end)
    if last is None or last.group(1) != indent:
        return None
    tail_at = size - len(end) + last.start() + len(indent) + 2  # just past the last `}`
    tail = end[last.start() + len(indent) + 2 :]
    own = head[: first.start() + 10] + tail
    document = _outer(own)
    if document is None or first.end() - 2 >= tail_at:
        return None
    items = _StreamedItems(name, path, indent, first.end() - 2, tail_at)
    items.keys = key_count(own) - key_count(msgspec.json.encode(document))
    return StreamedFile(size, {**document, "items": items})  # `items` replaced


def _read(handle: BinaryIO, size: int) -> bytes:
    try:
        return handle.read(size)
    except OSError as exc:
        raise ReadError(exc.strerror or str(exc)) from None


def _at_top(head: bytes) -> bool:
    """Whether the `[` ending `head` opens a value of the top-level object."""
    bare = _STRING.sub(b"", head)
    opened = bare.count(b"{") + bare.count(b"[") - bare.count(b"}") - bare.count(b"]")
    return bare.lstrip().startswith(b"{") and opened == 2


def _outer(own: bytes) -> dict[str, Any] | None:
    """The List's own keys, `items` empty; None when it is not such a List."""
    try:
        document = msgspec.json.decode(own)
    except (msgspec.MsgspecError, ValueError):
        return None
    if not isinstance(document, dict) or document.get("items") != []:
        return None
    kind = document.get("kind")
    if not (isinstance(kind, str) and kind.endswith("List")):
        return None
    if set(document) - {"apiVersion", "kind", "metadata", "items"}:
        return None  # keys of its own: read whole, as `_json_list` leaves them
    return document


_BRACKETS = b"[]{}"
_NOT_BRACKETS = bytes(b for b in range(256) if b not in _BRACKETS)


def _within_depth(piece: bytes) -> bool:
    """Whether an item nests within `MAX_DEPTH` in its List (two levels more). Quick: its
    brackets, innermost pairs dropped twice a round, are gone within the rounds that
    allow; else as `check_json_depth` measures (brackets in strings left out)."""
    brackets = piece.translate(None, _NOT_BRACKETS)
    for _ in range((MAX_DEPTH - 2) // 2):
        if not brackets:
            return True
        brackets = brackets.replace(b"{}", b"").replace(b"[]", b"")
    if not brackets:
        return True
    return bracket_depth(piece) + 2 <= MAX_DEPTH or (
        bracket_depth(_STRING.sub(b"", piece)) + 2 <= MAX_DEPTH
    )


class _Depth:
    """How deep brackets nest in a text read chunk by chunk, from `start` levels."""

    def __init__(self, start: int) -> None:
        self.level = start
        self.within = True

    def add(self, chunk: bytes) -> None:
        brackets = np.frombuffer(chunk.translate(None, _NOT_BRACKETS), np.int8)
        if not len(brackets):
            return
        steps = np.where((brackets == 0x5B) | (brackets == 0x7B), 1, -1)
        levels = np.cumsum(steps) + self.level
        self.within = self.within and int(levels.max()) <= MAX_DEPTH
        self.level = int(levels[-1])


class _StreamedItems(LazyItems):
    """The items between byte offsets `start` (the first `{`) and `end` (past the last
    `}`) of a file; `keys` is how many keys the List's own text holds beyond what its
    reading kept (a key given twice there)."""

    def __init__(self, name: str, path: str | Path, indent: bytes, start: int, end: int) -> None:
        self._name = name
        self._path = path
        self._start = start
        self._end = end
        self._cut = b"\n" + indent + b"},\n" + indent + b"{"
        self._close = len(indent) + 2  # from a cut's start to just past its `}`
        self._length: int | None = None
        self.keys = 0

    def __len__(self) -> int:
        if self._length is None:
            self._length = sum(1 for _ in self._pieces())
        return self._length

    def _pieces(self) -> Iterator[tuple[bytes, bool]]:
        """Each item's bytes, from `{` to `}`, as the cuts give them, and whether the text
        read so far surely nests within `MAX_DEPTH` (its brackets, strings included)."""
        cut, close = self._cut, self._close
        depth = _Depth(2)  # within the List's `{` and its items' `[`
        with open_regular(self._path) as handle:
            handle.seek(self._start)
            left = self._end - self._start
            buffer = b""
            while True:
                chunk = _read(handle, min(_CHUNK, left))
                left -= len(chunk)
                depth.add(chunk)
                buffer += chunk
                at = 0
                found = buffer.find(cut)
                while found >= 0:
                    yield buffer[at : found + close], depth.within
                    at = found + len(cut) - 1
                    found = buffer.find(cut, at)
                buffer = buffer[at:]
                if not chunk or left <= 0:
                    break
            yield buffer, depth.within

    def _items(self) -> Iterator[Any]:
        repeated = self.keys != 0
        for index, (piece, shallow) in enumerate(self._pieces()):
            try:
                if not (shallow or _within_depth(piece)):
                    raise ValueError("nested too deep")
                value, whole = read_item(piece)
                if not isinstance(value, dict):
                    raise ValueError("not an object")
            except (msgspec.MsgspecError, ValueError):
                yield from self._exact_rest(index)  # says what is wrong
                return
            repeated = repeated or not whole
            yield value
        if repeated:  # a key given twice (or text the count misread)
            parse_json(self._text())  # raises TextError naming the key, if one repeats

    def _text(self) -> str:
        try:
            return read_file(self._path)
        except ReadError as exc:
            raise InputError(f"cannot read: {exc.message}", file=self._name) from None

    def _exact_rest(self, index: int) -> Iterator[Any]:
        """Items `index` on, from the standard library's reader of the whole text."""
        document = parse_json(self._text())
        yield from document["items"][index:]
