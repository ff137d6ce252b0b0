"""YAML and JSON text to plain data, strictly and within bounds.

Both manifests and configurations are read here. Duplicate mapping keys are
reported with their path (upstream's strict decoding); timestamps stay
strings, as Kubernetes' YAML-to-JSON step leaves them; and no input can hang
or exhaust the process: nesting deeper than `MAX_DEPTH` levels, or aliases
that expand a document to more than `MAX_EXPANSION` times the values it
spells out (a "billion laughs"), stop with one line, as upstream's decoders
stop.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from typing import Any

import numpy as np
import yaml

try:  # a compiled JSON reader, with wheels for every supported Python; optional all the same
    import msgspec
    import msgspec.json as _msgspec_json
except ImportError:  # pragma: no cover - exercised where the wheel is missing
    _msgspec_json = None  # type: ignore[assignment]

MAX_DEPTH = 100
"""Nesting levels a document may have (Kubernetes objects need about 20)."""
MAX_EXPANSION = 10
"""Values a document may build per value its text spells out, through YAML aliases."""
_SMALL = 10_000
"""Documents that build fewer values than this are never too expanded."""
_TIMESTAMP = "tag:yaml.org,2002:timestamp"
_MERGE = "tag:yaml.org,2002:merge"
_BRACKETS = b"[]{}"
_NOT_BRACKETS = bytes(b for b in range(256) if b not in _BRACKETS)


class TextError(Exception):
    """Text that is not data within bounds; `document` is the 0-based index it stopped at."""

    def __init__(self, message: str, document: int = 0, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.document = document
        self.field = field


_RESOLVERS = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != _TIMESTAMP]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


class _Loader(yaml.SafeLoader):
    """Safe YAML without the timestamp resolver, in Python: exact error positions, for the
    small documents configurations are."""

    yaml_implicit_resolvers = _RESOLVERS


class _FastLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
    """The same with libyaml's parser when present, for manifests of whole clusters."""

    yaml_implicit_resolvers = _RESOLVERS


def bracket_depth(text: str | bytes) -> int:
    """How deep `[`/`{` nest in `text` (or its UTF-8 bytes), strings included (an upper
    bound on flow nesting)."""
    data = text if isinstance(text, bytes) else text.encode("utf-8", "replace")
    brackets = np.frombuffer(data.translate(None, _NOT_BRACKETS), np.uint8)
    if not len(brackets):
        return 0
    steps = np.where((brackets == 0x5B) | (brackets == 0x7B), 1, -1)
    return int(np.cumsum(steps).max())


_BLOCK_PREFIX = re.compile(r"^[ ?-]*", re.MULTILINE)
_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_JSON_STRING_BYTES = re.compile(_JSON_STRING.pattern.encode())


def _digits_limit() -> str:
    return f"an integer longer than {sys.get_int_max_str_digits()} digits"


def _depth_bound(text: str) -> int:
    """An upper bound on how deep a YAML text nests: its flow brackets (strings included)
    plus twice the widest block indentation (each block level indents its content by at
    least one column; `- - x` nests two in two)."""
    widest = max(map(len, _BLOCK_PREFIX.findall(text)), default=0)
    return bracket_depth(text) + 2 * widest + 2


def _yaml_depth_error(text: str, loader: type[yaml.SafeLoader]) -> TextError | None:
    """How deep the YAML's collections really nest, from its parser's events (the parser
    keeps its own stack, so no depth makes it recurse); None within `MAX_DEPTH`."""
    depth = 0
    document = -1
    try:
        for event in yaml.parse(text, Loader=loader):
            if isinstance(event, yaml.DocumentStartEvent):
                document += 1
            elif isinstance(event, yaml.CollectionStartEvent):
                depth += 1
                if depth > MAX_DEPTH:
                    return TextError(f"nested deeper than {MAX_DEPTH} levels", max(document, 0))
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
    except yaml.YAMLError as exc:
        return TextError(_yaml_problem(exc), max(document, 0))
    return None


def _check_yaml_depth(text: str, loader: type[yaml.SafeLoader]) -> None:
    """Refuse deep nesting, flow or block, before a composer recurses into it (libyaml's
    C composer would overflow its stack, PyYAML's would raise RecursionError). The exact
    count runs only when the cheap bound allows too deep a document."""
    if _depth_bound(text) > MAX_DEPTH:
        problem = _yaml_depth_error(text, loader)
        if problem is not None:
            raise problem


def check_json_depth(text: str | bytes) -> None:
    """Refuse deep JSON nesting (text or UTF-8 bytes) before the decoder recurses; brackets
    inside strings are not nesting, and are left out of the count when the quick bound is
    too high."""
    if bracket_depth(text) <= MAX_DEPTH:
        return
    bare = (
        _JSON_STRING_BYTES.sub(b"", text) if isinstance(text, bytes) else _JSON_STRING.sub("", text)
    )
    if bracket_depth(bare) > MAX_DEPTH:
        raise TextError(f"nested deeper than {MAX_DEPTH} levels")


class _DuplicateKey(Exception):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _strict_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object; a key given twice stops the decoding, as YAML's duplicates do."""
    result = dict(pairs)
    if len(result) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _DuplicateKey(key)
            seen.add(key)
    return result


def _json_duplicate(text: str, key: str) -> TextError:
    """`<path>: duplicate field (line L)` for a JSON text with a repeated key: the YAML
    reader, which reads JSON too, names the path and line; the key alone when it cannot."""
    try:
        for _, _, problems in parse_yaml(text):
            if problems:
                field, _, message = problems[0].partition(": ")
                return TextError(message, field=field)
    except TextError:
        pass
    return TextError("duplicate field", field=key)


def key_count(text: str | bytes) -> int:
    """How many `":` a JSON text holds whose quote is not escaped (an odd run of
    backslashes before it): the object keys, give or take strings that begin with `:`,
    which a text and its re-encoding hold alike."""
    quote_colon = '":' if isinstance(text, str) else b'":'
    backslash = "\\" if isinstance(text, str) else b"\\"
    total, sign, run = 0, 1, 0
    while True:
        found = text.count(backslash * run + quote_colon)  # type: ignore[operator,arg-type]
        if not found:
            return total
        total += sign * found
        sign, run = -sign, run + 1


_NOT_READ = object()


def _fast_json(text: str) -> Any:
    """The document read by msgspec (a compiled JSON reader), when it reads it and its
    re-encoding holds as many keys as the text (so that no key was given twice);
    `_NOT_READ` otherwise."""
    if _msgspec_json is None:
        return _NOT_READ
    try:
        document = _msgspec_json.decode(text)
    except (msgspec.MsgspecError, ValueError):
        return _NOT_READ
    if isinstance(document, (dict, list)) and key_count(text) != key_count(
        _msgspec_json.encode(document)
    ):
        return _NOT_READ
    return document


def parse_json(text: str) -> Any:
    """One JSON document; a duplicate key raises TextError whose message starts with the
    field path (`metadata: duplicate field (line 4)`). msgspec reads it when it can
    (`_fast_json`); the standard library's reader, when it cannot, says why."""
    check_json_depth(text)
    document = _fast_json(text)
    if document is not _NOT_READ:
        return document
    try:
        return json.loads(text, object_pairs_hook=_strict_object)
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno}, column {exc.colno}"
        raise TextError(f"{where}: invalid JSON: {exc.msg}") from None
    except _DuplicateKey as exc:
        raise _json_duplicate(text, exc.key) from None
    except ValueError:
        raise TextError(f"invalid JSON: {_digits_limit()}") from None


def parse_yaml_document(text: str) -> tuple[Any, list[str]]:
    """The one YAML document of `text` (None when empty) and its duplicate-field problems."""
    _check_yaml_depth(text, _Loader)
    try:
        node = yaml.compose(text, Loader=_Loader)
        if node is None:
            return None, []
        builder = _Builder()
        return builder.build(node, "", 0), builder.problems
    except yaml.YAMLError as exc:
        raise TextError(_yaml_problem(exc)) from None


def parse_yaml(text: str) -> Iterator[tuple[int, Any, list[str]]]:
    """Every YAML document: (index, data or None when empty, duplicate-field problems)."""
    _check_yaml_depth(text, _FastLoader)
    index = 0
    try:
        for node in yaml.compose_all(text, Loader=_FastLoader):
            if node is not None:
                builder = _Builder()
                data = builder.build(node, "", 0)
                yield index, data, builder.problems
            index += 1
    except yaml.YAMLError as exc:
        raise TextError(_yaml_problem(exc), index) from None
    except TextError as exc:
        raise TextError(exc.message, index, exc.field) from None


def depth_allows(text: str) -> bool:
    """Whether the cheap bound on a YAML text's nesting is within `MAX_DEPTH` (when it is
    not, only the exact count tells)."""
    return _depth_bound(text) <= MAX_DEPTH


def parse_yaml_item(text: str, line: int, path: str) -> tuple[Any, list[str]]:
    """The one entry of a block sequence cut from a larger text (`- ...` lines starting on
    0-based `line` of it), read as `parse_yaml` reads it there: its problems name fields
    under `path` and lines of the whole text."""
    _check_yaml_depth(text, _FastLoader)
    try:
        node = yaml.compose(text, Loader=_FastLoader)
    except yaml.YAMLError as exc:
        raise TextError(_yaml_problem(exc, line)) from None
    if not isinstance(node, yaml.SequenceNode) or len(node.value) != 1:
        raise TextError("not one sequence entry")
    builder = _Builder(line)
    return builder.build(node.value[0], path, 2), builder.problems


def _yaml_problem(exc: yaml.YAMLError, lines_before: int = 0) -> str:
    """`line L, column C: invalid YAML: <what>`, as a parser's error says it (its text
    cut from a larger one after `lines_before` lines)."""
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    where = f"line {mark.line + lines_before + 1}, column {mark.column + 1}: " if mark else ""
    parts = [getattr(exc, "context", None), getattr(exc, "problem", None)]
    what = " ".join(p for p in parts if p) or str(exc)
    return f"{where}invalid YAML: {what}"


class _Builder:
    """Plain data from a composed YAML document, counting what aliases expand to; lines
    named in problems count `lines_before` lines more (for a text cut from a larger one)."""

    def __init__(self, lines_before: int = 0) -> None:
        self._lines_before = lines_before
        self.problems: list[str] = []
        self._constructor = _Loader("")
        self._seen: set[int] = set()
        self._built = 0

    def build(self, node: yaml.Node, path: str, depth: int) -> Any:
        if depth > MAX_DEPTH:
            raise TextError(f"nested deeper than {MAX_DEPTH} levels")
        self._seen.add(id(node))
        self._built += 1
        if self._built > _SMALL and self._built > MAX_EXPANSION * len(self._seen):
            raise TextError(
                f"YAML aliases expand the document beyond {MAX_EXPANSION} times its size"
            )
        if isinstance(node, yaml.MappingNode):
            return self._mapping(node, path, depth)
        if isinstance(node, yaml.SequenceNode):
            return [
                self.build(item, f"{path}[{i}]", depth + 1) for i, item in enumerate(node.value)
            ]
        try:
            return self._constructor.construct_object(node)
        except ValueError:  # an integer beyond Python's conversion limit
            line = node.start_mark.line + self._lines_before + 1
            raise TextError(f"{_digits_limit()} (line {line})", field=path or None) from None

    def _mapping(self, node: yaml.MappingNode, path: str, depth: int) -> dict[str, Any]:
        merged: dict[str, Any] = {}
        result: dict[str, Any] = {}
        for key_node, value_node in node.value:
            if key_node.tag == _MERGE:
                self._merge_into(merged, value_node, path, depth)
                continue
            key = str(self._constructor.construct_object(key_node))
            where = f"{path}.{key}" if path else key
            if key in result:
                line = key_node.start_mark.line + self._lines_before + 1
                self.problems.append(f"{where}: duplicate field (line {line})")
                continue
            result[key] = self.build(value_node, where, depth + 1)
        return {**merged, **result} if merged else result

    def _merge_into(self, merged: dict[str, Any], node: yaml.Node, path: str, depth: int) -> None:
        """`<<: *base` or `<<: [*a, *b]`: earlier sources win; the mapping's own keys win."""
        sources = node.value if isinstance(node, yaml.SequenceNode) else [node]
        for source in sources:
            data = self.build(source, path, depth + 1)
            if not isinstance(data, dict):
                line = source.start_mark.line + self._lines_before + 1
                self.problems.append(
                    f"{path or '<root>'}: a merge key needs a mapping (line {line})"
                )
                continue
            for key, value in data.items():
                merged.setdefault(key, value)
