"""The strict cattrs converter for config files and plugin args.

Structuring follows Kubernetes' strict decoding: file names are camelCase
(`json` field metadata overrides), an unknown field is an error, scalars must
have the right JSON type (no `"16"` for an integer, no `1` for a boolean),
durations are Go strings, and `null` means "not set". Every problem is
reported, each as one `<field path>: <message>` line
(`profiles[0].plugins.score.enabled[1].wieght: unknown field, did you mean "weight"?`).
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from datetime import timedelta
from typing import Any, TypeVar

import attrs
import cattrs
from cattrs.cols import is_mapping, is_sequence
from cattrs.errors import ForbiddenExtraKeysError

from kubesched.api._conversion import JsonNames, WrongType, leaf_problems, strict_json_converter
from kubesched.api._field_errors import child, index
from kubesched.config.duration import format_duration, parse_duration

T = TypeVar("T")


class StructureError(Exception):
    """Data that does not fit the model; `errors` holds one `<path>: <message>` line each."""

    def __init__(self, errors: list[str]) -> None:
        self.errors = errors
        super().__init__("\n".join(errors))


def describe_json(value: object) -> str:
    """`string "abc"`, `number 1.5`, `boolean true`, `array`, `object`, `null`."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"boolean {'true' if value else 'false'}"
    if isinstance(value, str):
        return f'string "{value}"'
    if isinstance(value, int | float):
        return f"number {value}"
    if isinstance(value, list):
        return "array"
    if isinstance(value, Mapping):
        return "object"
    return type(value).__name__


_NAMES = JsonNames()


def json_name(attribute: attrs.Attribute[Any]) -> str:
    """The field's name in the file: its `json` metadata, else its camelCase name."""
    return _NAMES.of(attribute)


def _got(value: object) -> str:
    return f"got {describe_json(value)}"


def _duration(value: object, _: type) -> timedelta:
    if not isinstance(value, str):
        raise WrongType('a duration string such as "15s"', value, _got)
    return parse_duration(value)


def _json_number(value: float) -> float | int:
    """50.0 prints as 50, as Go prints a whole float."""
    return int(value) if value.is_integer() else value


def _any(value: object, _: type) -> Any:
    return value


def make_converter() -> cattrs.Converter:
    """A converter with Kubernetes' strict decoding rules (see the module docstring)."""
    converter = strict_json_converter(
        _NAMES,
        _got,
        lists=is_sequence,
        maps=is_mapping,
        list_expected="an array",
        forbid_extra=True,
        omit_defaults=False,
    )
    converter.register_structure_hook(timedelta, _duration)
    # a predicate, not the type: on Python 3.10 functools.singledispatch refuses typing.Any
    converter.register_structure_hook_func(lambda kind: kind is Any, _any)
    converter.register_unstructure_hook(timedelta, format_duration)
    converter.register_unstructure_hook(float, _json_number)
    return converter


CONVERTER = make_converter()


def structure(data: Any, cls: type[T], path: str = "") -> T:
    """`data` as a `cls`; StructureError listing every problem, paths under `path`."""
    try:
        return CONVERTER.structure(data, cls)
    except Exception as exc:
        raise StructureError(_error_lines(exc, path)) from exc


def unstructure(obj: Any) -> Any:
    """Plain data with the file's camelCase names; durations as Go strings."""
    return CONVERTER.unstructure(obj)


def omit_empty(value: Any) -> Any:
    """Unstructured data without nulls, empty lists and empty objects (Go's `omitempty`)."""
    if isinstance(value, dict):
        items = ((k, omit_empty(v)) for k, v in value.items())
        return {k: v for k, v in items if v is not None and v != [] and v != {}}
    if isinstance(value, list):
        return [omit_empty(v) for v in value]
    return value


def _error_lines(exc: BaseException, path: str) -> list[str]:
    """One line per leaf problem in a cattrs exception tree."""
    return [
        line for at, leaf in leaf_problems(exc, path, _NAMES, index) for line in _lines(at, leaf)
    ]


def _lines(path: str, leaf: BaseException) -> list[str]:
    if isinstance(leaf, ForbiddenExtraKeysError):
        known = [json_name(a) for a in attrs.fields(leaf.cl)]
        return [_unknown_field(child(path, key), key, known) for key in sorted(leaf.extra_fields)]
    if isinstance(leaf, KeyError):
        return [f"{path}: Required value"]
    return [f"{path or '<root>'}: {leaf}"]


def _unknown_field(path: str, key: str, known: list[str]) -> str:
    close = difflib.get_close_matches(key, known, n=1)
    hint = f', did you mean "{close[0]}"?' if close else ""
    return f"{path}: unknown field{hint}"
