"""A `kubectl get -o yaml` List read item by item, each item by a fast parser.

A cluster's dump is one YAML document: a `kind: List` whose `items` hold every
object. Read whole, the document becomes one tree of Python objects many times
the size of its text, and PyYAML builds it slowly. Laid out as kubectl prints
it (top-level keys at column 0, each item a `- ` entry at column 0), the items
can be cut apart in the text and read one at a time: memory then holds the
text, the objects kept, and one item's data.

Each item is read by `yaml_rs` (a compiled YAML parser) when its text holds no
plain scalar whose meaning differs between YAML 1.1, as PyYAML and Kubernetes
read it, and YAML 1.2 (`yes`, `0755`, `1e3`, numeric keys...) and no anchor,
alias or tag (`_RISKY`); other items are read by the exact reader of
`kubesched.api._text`. From the first item with an anchor or an alias on, and
whenever the fast parser refuses an item, the exact reader reads the whole text
and its items from there are used: it raises the error it always raised (same
message, line and field), resolves anchors across items, and where the parsers
disagree, its reading is the one kept. Without `yaml_rs`, or for any other
layout, nothing here applies and the exact reader reads the whole document.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from kubesched.api._text import MAX_DEPTH, TextError, depth_allows, parse_yaml, parse_yaml_item
from kubesched.errors import InputError

try:  # a compiled parser, with wheels for every supported Python; optional all the same
    import yaml_rs as _yaml_rs
except ImportError:  # pragma: no cover - exercised where the wheel is missing
    _yaml_rs = None  # type: ignore[assignment]

_ITEMS_KEY = "\nitems:\n"
_ITEM = "\n- "
_OUTSIDE_ITEMS = re.compile(r"\n(?:[^ \n-]|-[^ \n])")
"""A column-0 line that is not an item entry: the end of the items (or another layout)."""
_END = r"(?=[ \t]*(?:$|#|[,\]}]|:(?:[ \t]|$)))"
_RISKY = re.compile(
    # a plain scalar starts after a space, a line break or a flow indicator, with one of
    # the characters that start what follows (the look-ahead keeps the search fast):
    r"[ \t\n\[{,](?=[-+.0-9~!&*<yYnNoOtTfF])(?:"
    # anchors, aliases, tags, merge keys
    r"[!&*]|<<"
    # YAML 1.1 booleans
    rf"|(?i:yes|no|on|off){_END}"
    # keys that are not strings: booleans, null, numbers
    r"|(?i:true|false|null)[ \t]*:(?:[ \t]|$)|[-+]?[.0-9~][^:\n]*:(?:[ \t]|$)"
    # octal, sexagesimal and exponent numbers, and integers too long to convert alike
    r"|[-+]?(?:0[0-9o_][0-9a-fA-F_]*(?:\.[0-9_]*)?|[0-9][0-9_]*(?::[0-9_]+)+(?:\.[0-9_]*)?"
    r"|\.[0-9_]+(?:[eE][-+]?[0-9]+)?|[0-9][0-9_]*(?:\.[0-9_]*)?[eE][-+]?[0-9]+)"
    rf"{_END}|[-+]?[0-9]{{19}})",
    re.MULTILINE,
)
"""Text whose meaning may differ between the exact reader and yaml_rs (YAML 1.1 and 1.2)."""
_ANCHOR = re.compile(r"[ \t\n\[{,][&*]")
"""An anchor or an alias, which the whole text's reading resolves (and checks) across items."""


class ListText:
    """Where the items of a column-0 List are in a text: `outer` is the text without them
    (the List's own keys, `items: []` in their place), `starts` each item's offset."""

    def __init__(self, text: str, outer: str, starts: list[int], end: int) -> None:
        self.text = text
        self.outer = outer
        self.starts = starts
        self.end = end

    def item_text(self, index: int) -> str:
        """The text of item `index`: one `- ` entry and its lines."""
        stop = self.starts[index + 1] if index + 1 < len(self.starts) else self.end
        return self.text[self.starts[index] : stop]


def split_list(text: str) -> ListText | None:
    """The items of `text` when it is one List laid out as kubectl prints it, else None."""
    if _yaml_rs is None:
        return None
    at = 0 if text.startswith(_ITEMS_KEY[1:]) else text.find(_ITEMS_KEY)
    if at < 0 or "\n---" in text or "\n..." in text:
        return None
    first = at + len(_ITEMS_KEY) - (1 if at == 0 else 0) - 1  # the newline before "- "
    if not text.startswith(_ITEM, first):
        return None
    beyond = _OUTSIDE_ITEMS.search(text, first + 1)
    end = beyond.start() + 1 if beyond else len(text)
    if beyond and text.find(_ITEM, end - 1) >= 0:
        return None  # more items after other keys: not kubectl's layout
    starts = []
    position = first
    while position >= 0:
        starts.append(position + 1)
        position = text.find(_ITEM, position + 1, end)
    head = text[: at + 1] if at else ""
    return ListText(text, f"{head}items: []\n{text[end:]}", starts, end)


def list_document(name: str, text: str) -> dict[str, Any] | None:
    """The List `text` holds, its items read one by one as they are iterated over
    (`LazyItems`), when it is laid out as kubectl prints it; None for the exact reader."""
    listed = split_list(text)
    if listed is None:
        return None
    try:
        outer = list(parse_yaml(listed.outer))
    except TextError:
        return None
    if len(outer) != 1 or not isinstance(outer[0][1], dict) or outer[0][2]:
        return None
    document = outer[0][1]
    kind = document.get("kind")
    if document.get("items") != [] or not (isinstance(kind, str) and kind.endswith("List")):
        return None
    return {**document, "items": LazyItems(listed, name)}


class LazyItems:
    """A List's items, each read when iterated over (see the module)."""

    def __init__(self, listed: ListText, name: str) -> None:
        self._listed = listed
        self._name = name

    def __len__(self) -> int:
        return len(self._listed.starts)

    def __iter__(self) -> Iterator[Any]:
        try:
            yield from self._items()
        except TextError as exc:
            raise InputError(
                exc.message, file=self._name, document=exc.document, field=exc.field
            ) from None

    def _items(self) -> Iterator[Any]:
        listed = self._listed
        line, counted = 0, 0  # the line the text up to offset `counted` ends on
        for index, start in enumerate(listed.starts):
            item = listed.item_text(index)
            risky = _RISKY.search(item) is not None
            if risky and _ANCHOR.search(item):  # anchors span items: read them all exactly
                yield from _exact_rest(listed, index)
                return
            value = _fast(item) if not risky and _shallow(item) else None
            if value is None:
                line += listed.text.count("\n", counted, start)
                counted = start
                value = _exact(item, line, index)
            if value is None:  # refused: the exact reader reads the rest, or says why not
                yield from _exact_rest(listed, index)
                return
            yield value


_DEEP_LINES: dict[int, re.Pattern[str]] = {}
_LINE_PREFIX = re.compile(r"[ ?-]*")


def _shallow(item: str) -> bool:
    """Whether an item surely nests within `MAX_DEPTH` (`depth_allows`'s bound, with every
    bracket counted as a level and a search for one line indented too far, which is
    quicker than measuring each line)."""
    widest = (MAX_DEPTH - 2 - item.count("[") - item.count("{")) // 2
    if widest < 0:
        return depth_allows(item)
    pattern = _DEEP_LINES.get(widest)
    if pattern is None:
        pattern = _DEEP_LINES[widest] = re.compile(f"\\n[ ?-]{{{widest + 1}}}")
    first = _LINE_PREFIX.match(item)
    within = first is not None and first.end() <= widest and pattern.search(item) is None
    return within or depth_allows(item)


def _fast(item: str) -> Any:
    """The item read by yaml_rs; None when it refuses it or reads something else than one
    mapping."""
    assert _yaml_rs is not None
    try:
        value = _yaml_rs.loads(item, parse_datetime=False)
    except Exception:  # any refusal: the exact reader says what is wrong, or disagrees
        return None
    if isinstance(value, list) and len(value) == 1 and isinstance(value[0], dict):
        return value[0]
    return None


def _exact(item: str, line: int, index: int) -> Any:
    """The item read by the exact reader (lines counted as in the whole text); None when it
    finds a problem, which the whole text's reading then reports."""
    try:
        value, problems = parse_yaml_item(item, line, f"items[{index}]")
    except TextError:
        return None
    return None if problems else value


def _exact_rest(listed: ListText, index: int) -> Iterator[Any]:
    """Items `index` on, from the exact reader of the whole text (which raises the first
    problem in it, as it always has)."""
    for _, document, problems in parse_yaml(listed.text):
        if problems:
            field, _, message = problems[0].partition(": ")
            raise TextError(message, 0, field)
        yield from document["items"][index:]
