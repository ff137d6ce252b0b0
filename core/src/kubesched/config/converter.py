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
from collections.abc import Callable, Mapping
from datetime import timedelta
from typing import Any, TypeVar, get_args, get_origin

import attrs
import cattrs
from cattrs.cols import (
    homogenous_tuple_structure_factory,
    is_mapping,
    is_sequence,
    list_structure_factory,
)
from cattrs.errors import (
    AttributeValidationNote,
    ClassValidationError,
    ForbiddenExtraKeysError,
    IterableValidationError,
)
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn, override

from kubesched.api._field_errors import child, index
from kubesched.config.duration import format_duration, parse_duration

T = TypeVar("T")


class StructureError(Exception):
    """Data that does not fit the model; `errors` holds one `<path>: <message>` line each."""

    def __init__(self, errors: list[str]) -> None:
        self.errors = errors
        super().__init__("\n".join(errors))


class _WrongType(TypeError):
    """A value of the wrong JSON type, described the way a user wrote it."""

    def __init__(self, expected: str, value: object) -> None:
        super().__init__(f"expected {expected}, got {describe_json(value)}")


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


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def json_name(attribute: attrs.Attribute[Any]) -> str:
    """The field's name in the file: its `json` metadata, else its camelCase name."""
    explicit = attribute.metadata.get("json")
    return explicit if isinstance(explicit, str) else _camel(attribute.name)


def _strict_int(value: object, _: type) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _WrongType("an integer", value)
    return value


def _strict_float(value: object, _: type) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise _WrongType("a number", value)
    return float(value)


def _strict_str(value: object, _: type) -> str:
    if not isinstance(value, str):
        raise _WrongType("a string", value)
    return value


def _strict_bool(value: object, _: type) -> bool:
    if not isinstance(value, bool):
        raise _WrongType("a boolean", value)
    return value


def _duration(value: object, _: type) -> timedelta:
    if not isinstance(value, str):
        raise _WrongType('a duration string such as "15s"', value)
    return parse_duration(value)


def _json_number(value: float) -> float | int:
    """50.0 prints as 50, as Go prints a whole float."""
    return int(value) if value.is_integer() else value


def _any(value: object, _: type) -> Any:
    return value


def _attrs_hook(converter: cattrs.Converter) -> Callable[[type], Callable[[Any, type], Any]]:
    def factory(cls: type) -> Callable[[Any, type], Any]:
        renames: dict[str, Any] = {a.name: override(rename=json_name(a)) for a in attrs.fields(cls)}
        base: Callable[[Any, type], Any] = make_dict_structure_fn(
            cls, converter, _cattrs_forbid_extra_keys=True, **renames
        )

        def structure(value: Any, _: type) -> Any:
            if not isinstance(value, Mapping):
                raise _WrongType("an object", value)
            return base({k: v for k, v in value.items() if v is not None}, cls)

        return structure

    return factory


def _sequence_hook(converter: cattrs.Converter) -> Callable[[type], Callable[[Any, type], Any]]:
    def factory(kind: type) -> Callable[[Any, type], Any]:
        args = get_args(kind)
        if get_origin(kind) is tuple and len(args) == 2 and args[1] is Ellipsis:
            base = homogenous_tuple_structure_factory(kind, converter)
        else:
            base = list_structure_factory(kind, converter)

        def structure(value: Any, _: type) -> Any:
            if not isinstance(value, list):
                raise _WrongType("an array", value)
            return base(value, kind)

        return structure

    return factory


class _MappingErrors(Exception):
    """Problems with some values of a map, by key."""

    def __init__(self, failures: list[tuple[Any, Exception]]) -> None:
        self.failures = failures
        super().__init__(f"{len(failures)} invalid map values")


def _mapping_hook(converter: cattrs.Converter) -> Callable[[type], Callable[[Any, type], Any]]:
    def factory(kind: type) -> Callable[[Any, type], Any]:
        key_type, value_type = get_args(kind) or (Any, Any)

        def structure(value: Any, _: type) -> Any:
            if not isinstance(value, Mapping):
                raise _WrongType("an object", value)
            result: dict[Any, Any] = {}
            failures: list[tuple[Any, Exception]] = []
            for key, item in value.items():
                try:
                    result[converter.structure(key, key_type)] = converter.structure(
                        item, value_type
                    )
                except Exception as exc:
                    failures.append((key, exc))
            if failures:
                raise _MappingErrors(failures)
            return result

        return structure

    return factory


def _unstructure_attrs(converter: cattrs.Converter) -> Callable[[type], Callable[[Any], Any]]:
    def factory(cls: type) -> Callable[[Any], Any]:
        renames: dict[str, Any] = {a.name: override(rename=json_name(a)) for a in attrs.fields(cls)}
        unstructure_fn: Callable[[Any], Any] = make_dict_unstructure_fn(cls, converter, **renames)
        return unstructure_fn

    return factory


def make_converter() -> cattrs.Converter:
    """A converter with Kubernetes' strict decoding rules (see the module docstring)."""
    converter = cattrs.Converter(detailed_validation=True, forbid_extra_keys=True)
    for kind, hook in (
        (int, _strict_int),
        (float, _strict_float),
        (str, _strict_str),
        (bool, _strict_bool),
        (timedelta, _duration),
        (Any, _any),
    ):
        converter.register_structure_hook(kind, hook)
    converter.register_structure_hook_factory(attrs.has, _attrs_hook(converter))
    converter.register_structure_hook_factory(is_sequence, _sequence_hook(converter))
    converter.register_structure_hook_factory(is_mapping, _mapping_hook(converter))
    converter.register_unstructure_hook(timedelta, format_duration)
    converter.register_unstructure_hook(float, _json_number)
    converter.register_unstructure_hook_factory(attrs.has, _unstructure_attrs(converter))
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
    if isinstance(exc, ClassValidationError):
        with_notes, without = exc.group_exceptions()
        lines: list[str] = []
        for sub, note in with_notes:
            lines += _error_lines(sub, _attribute_path(path, exc.cl, note))
        for sub in without:
            lines += _error_lines(sub, path)
        return lines
    if isinstance(exc, IterableValidationError):
        items, rest = exc.group_exceptions()
        lines = []
        for sub, item_note in items:
            lines += _error_lines(sub, index(path, item_note.index))
        for sub in rest:
            lines += _error_lines(sub, path)
        return lines
    if isinstance(exc, _MappingErrors):
        return [line for key, sub in exc.failures for line in _error_lines(sub, index(path, key))]
    if isinstance(exc, ForbiddenExtraKeysError):
        known = [json_name(a) for a in attrs.fields(exc.cl)]
        return [_unknown_field(child(path, key), key, known) for key in sorted(exc.extra_fields)]
    if isinstance(exc, KeyError):
        return [f"{path}: Required value"]
    return [f"{path or '<root>'}: {exc}"]


def _attribute_path(path: str, cls: type, note: AttributeValidationNote) -> str:
    attribute = attrs.fields_dict(cls).get(note.name)
    return child(path, json_name(attribute) if attribute is not None else note.name)


def _unknown_field(path: str, key: str, known: list[str]) -> str:
    close = difflib.get_close_matches(key, known, n=1)
    hint = f', did you mean "{close[0]}"?' if close else ""
    return f"{path}: unknown field{hint}"
