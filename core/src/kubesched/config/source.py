"""YAML or JSON text to plain data, strictly: duplicate keys are errors, as upstream's decoder says.

The YAML is read as kube-scheduler reads it (YAML 1.1 scalars, one
document), except that dates stay strings, since JSON has none.
"""

from __future__ import annotations

from typing import Any

import yaml

from kubesched.api._field_errors import child, index
from kubesched.config.converter import StructureError

_TIMESTAMP = "tag:yaml.org,2002:timestamp"
_MERGE = "tag:yaml.org,2002:merge"


class _Loader(yaml.SafeLoader):
    """SafeLoader without the timestamp resolver."""

    yaml_implicit_resolvers = {
        first: [(tag, regexp) for tag, regexp in resolvers if tag != _TIMESTAMP]
        for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
    }


def parse_document(text: str) -> Any:
    """The single YAML/JSON document in `text`; StructureError for syntax errors and
    duplicate keys (each line says where)."""
    errors: list[str] = []
    try:
        node = yaml.compose(text, Loader=_Loader)
        data = None if node is None else _to_data(node, "", _Loader(""), errors)
    except yaml.MarkedYAMLError as exc:
        raise StructureError([_syntax_message(exc)]) from exc
    except yaml.YAMLError as exc:
        raise StructureError([f"invalid YAML: {exc}"]) from exc
    if errors:
        raise StructureError(errors)
    return data


def _syntax_message(exc: yaml.MarkedYAMLError) -> str:
    mark = exc.problem_mark or exc.context_mark
    where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark is not None else ""
    what = " ".join(part for part in (exc.context, exc.problem) if part)
    return f"{where}invalid YAML: {what}"


def _to_data(node: yaml.Node, path: str, loader: _Loader, errors: list[str]) -> Any:
    if isinstance(node, yaml.MappingNode):
        merged: dict[str, Any] = {}
        result: dict[str, Any] = {}
        for key_node, value_node in node.value:
            if key_node.tag == _MERGE:
                _merge_into(merged, value_node, path, loader, errors)
                continue
            key = str(loader.construct_object(key_node))
            if key in result:
                line = key_node.start_mark.line + 1
                errors.append(f"{child(path, key)}: duplicate field (line {line})")
                continue
            result[key] = _to_data(value_node, child(path, key), loader, errors)
        return {**merged, **result}
    if isinstance(node, yaml.SequenceNode):
        return [_to_data(item, index(path, i), loader, errors) for i, item in enumerate(node.value)]
    return loader.construct_object(node)


def _merge_into(
    merged: dict[str, Any], node: yaml.Node, path: str, loader: _Loader, errors: list[str]
) -> None:
    """A YAML merge key (`<<: *base` or `<<: [*a, *b]`): earlier sources win, and keys the
    mapping sets itself win over all of them."""
    sources = node.value if isinstance(node, yaml.SequenceNode) else [node]
    for source in sources:
        data = _to_data(source, path, loader, errors)
        if not isinstance(data, dict):
            line = source.start_mark.line + 1
            errors.append(f"{path or '<root>'}: a merge key needs a mapping (line {line})")
            continue
        for key, value in data.items():
            merged.setdefault(key, value)
