"""The base both strict cattrs converters derive from: Kubernetes objects (`kubesched.api`)
and config files and plugin args (`kubesched.config`).

What they share: JSON names (camelCase, a field's `json` metadata, or a fixed name for
acronyms), scalars of exactly the right JSON type, times (`Time`, RFC 3339 strings with
up to nanoseconds), objects, lists and maps that say what they expected when given
something else, `null` meaning "the default", and the
walk over cattrs' validation error tree (`ClassValidationError.group_exceptions()`) to
every leaf problem with its JSON path. How a wrong value is described, how a map key
is shown in a path and how problems are reported stay with each converter.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from types import UnionType
from typing import Any, Union, get_args, get_origin

import attrs
import cattrs
from cattrs.cols import homogenous_tuple_structure_factory, list_structure_factory
from cattrs.errors import ClassValidationError, IterableValidationError
from cattrs.gen import (
    make_dict_structure_fn,
    make_dict_unstructure_fn,
    mapping_structure_factory,
    override,
)

from kubesched.api._field_errors import child
from kubesched.api._time import EXAMPLE, InvalidTime, Time, format_time, parse_time

Describe = Callable[[object], str]
"""How a converter words a wrong value after `expected <what>, `."""
StructureHook = Callable[[Any, Any], Any]
PathStep = Callable[[str, int | str], str]


class WrongType(TypeError):
    """A value of the wrong JSON type: `expected <what>, <description of the value>`."""

    def __init__(self, expected: str, value: object, describe: Describe) -> None:
        super().__init__(f"expected {expected}, {describe(value)}")


def camel(name: str) -> str:
    """`node_name` -> `nodeName`."""
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


@attrs.frozen
class JsonNames:
    """A field's JSON name: its `json` metadata, else a fixed name for its attribute name
    (`host_ip` -> `hostIP`), else its camelCase name."""

    fixed: Mapping[str, str] = attrs.field(factory=dict)

    def of_name(self, name: str) -> str:
        return self.fixed.get(name) or camel(name)

    def of(self, attribute: attrs.Attribute[Any]) -> str:
        explicit = attribute.metadata.get("json")
        return explicit if isinstance(explicit, str) else self.of_name(attribute.name)

    def of_field(self, cls: type, name: str) -> str:
        """The JSON name of `cls`'s attribute `name` (the plain one if it has none)."""
        attribute = attrs.fields_dict(cls).get(name) if attrs.has(cls) else None
        return self.of(attribute) if attribute is not None else self.of_name(name)

    def renames(self, cls: type) -> dict[str, Any]:
        """cattrs overrides giving every attribute of `cls` its JSON name."""
        return {a.name: override(rename=self.of(a)) for a in attrs.fields(cls)}


def strict_scalar(
    expected: str, kinds: tuple[type, ...], describe: Describe, convert: Callable[[Any], Any]
) -> StructureHook:
    """A hook taking only values of `kinds` (a boolean is never a number). A value of
    exactly the first kind, as JSON readers give it, is taken as it is when `convert` is
    `_same`, without a call."""
    takes_bool = bool in kinds
    exact = kinds[0]

    def check(value: Any, _: Any) -> Any:
        if not isinstance(value, kinds) or (isinstance(value, bool) and not takes_bool):
            raise WrongType(expected, value, describe)
        return convert(value)

    if convert is not _same:
        return check

    def check_exact(value: Any, target: Any) -> Any:
        if type(value) is exact:
            return value
        return check(value, target)

    return check_exact


def register_strict_scalars(converter: cattrs.Converter, describe: Describe) -> None:
    """Strings, integers, numbers and booleans exactly as JSON typed them."""
    for kind, kinds, expected, convert in (
        (str, (str,), "a string", _same),
        (int, (int,), "an integer", _same),
        (float, (int, float), "a number", float),
        (bool, (bool,), "a boolean", _same),
    ):
        converter.register_structure_hook(kind, strict_scalar(expected, kinds, describe, convert))


def _same(value: Any) -> Any:
    return value


def time_hook(describe: Describe) -> StructureHook:
    """A `Time` from an RFC 3339 string, read as `metav1.Time` reads it; a string that is
    not one is `expected an RFC 3339 time like ...`, a field out of range (`month`, `day`,
    ...) is `invalid time '...': month out of range`."""
    expected = f"an RFC 3339 time like {EXAMPLE}"

    def structure(value: Any, _: Any) -> Time:
        if type(value) is not str:
            raise WrongType(expected, value, describe)
        try:
            return parse_time(value)
        except InvalidTime as exc:
            if exc.problem is None:
                raise WrongType(expected, value, describe) from None
            raise ValueError(str(exc)) from None

    return structure


def register_times(converter: cattrs.Converter, describe: Describe) -> None:
    """`Time` fields from and to RFC 3339 strings (UTC, the fraction's trailing zeros
    trimmed, as Go's RFC3339Nano prints). Whole seconds, all a real API server stores,
    print exactly as metav1.Time marshals them; a fraction, which metav1.Time would drop,
    is kept so that what is written reads back the same."""
    converter.register_structure_hook(Time, time_hook(describe))
    converter.register_unstructure_hook(Time, format_time)


def _checked(inner: StructureHook, test: type, expected: str, describe: Describe) -> StructureHook:
    exact = list if test is list else dict  # what JSON readers give, checked first (quicker)

    def structure(value: Any, target: Any) -> Any:
        if type(value) is not exact and not isinstance(value, test):
            raise WrongType(expected, value, describe)
        return inner(value, target)

    return structure


def sequence_factory(
    converter: cattrs.Converter, expected: str, describe: Describe
) -> Callable[[Any], StructureHook]:
    """Lists and homogeneous tuples from JSON arrays only."""

    def factory(kind: Any) -> StructureHook:
        args = get_args(kind)
        if get_origin(kind) is tuple and len(args) == 2 and args[1] is Ellipsis:
            inner = homogenous_tuple_structure_factory(kind, converter)
        else:
            inner = list_structure_factory(kind, converter)
        return _checked(inner, list, expected, describe)

    return factory


def mapping_factory(
    converter: cattrs.Converter, expected: str, describe: Describe
) -> Callable[[Any], StructureHook]:
    """Maps from JSON objects only; every bad key or value reported under its key."""

    def factory(kind: Any) -> StructureHook:
        return _checked(mapping_structure_factory(kind, converter), Mapping, expected, describe)

    return factory


def object_factory(
    converter: cattrs.Converter, names: JsonNames, describe: Describe, *, forbid_extra: bool
) -> Callable[[type], StructureHook]:
    """attrs classes from JSON objects under their JSON names; `null` fields take their
    defaults; unknown fields are errors when `forbid_extra`."""

    def factory(cls: type) -> StructureHook:
        inner: StructureHook = make_dict_structure_fn(
            cls, converter, _cattrs_forbid_extra_keys=forbid_extra, **names.renames(cls)
        )

        def structure(value: Any, target: Any) -> Any:
            if type(value) is not dict and not isinstance(value, Mapping):
                raise WrongType("an object", value, describe)
            if type(value) is dict and not _holds_null(value):
                return inner(value, target)  # nothing to drop: no copy
            return inner({k: v for k, v in value.items() if v is not None}, target)

        return structure

    return factory


def _holds_null(value: dict[Any, Any]) -> bool:
    """Whether a JSON object has a `null` value (JSON data compares unequal to None unless
    it is None, so the membership test is exact)."""
    return None in value.values()


def _is_optional(kind: Any) -> bool:
    """`X | None` (or `Optional[X]`), one type besides None."""
    args = get_args(kind)
    return len(args) == 2 and type(None) in args and get_origin(kind) in (Union, UnionType)


def _optional_factory(converter: cattrs.Converter) -> Callable[[Any], StructureHook]:
    """`X | None`: None, else X's hook, looked up once (cattrs' own looks it up on every
    value); looked up on first use, so that a class may refer to itself."""

    def factory(kind: Any) -> StructureHook:
        first, second = get_args(kind)
        other = second if first is type(None) else first
        found: list[StructureHook] = []

        def structure(value: Any, _: Any) -> Any:
            if value is None:
                return None
            if not found:
                found.append(converter.get_structure_hook(other))
            return found[0](value, other)

        return structure

    return factory


def object_unstructure_factory(
    converter: cattrs.Converter, names: JsonNames, *, omit_defaults: bool
) -> Callable[[type], Callable[[Any], Any]]:
    """attrs classes to JSON objects under their JSON names."""

    def factory(cls: type) -> Callable[[Any], Any]:
        fn: Callable[[Any], Any] = make_dict_unstructure_fn(
            cls, converter, _cattrs_omit_if_default=omit_defaults, **names.renames(cls)
        )
        return fn

    return factory


def strict_json_converter(
    names: JsonNames,
    describe: Describe,
    *,
    lists: Callable[[Any], bool],
    maps: Callable[[Any], bool],
    list_expected: str,
    forbid_extra: bool,
    omit_defaults: bool,
    detailed: bool = True,
) -> cattrs.Converter:
    """A converter with the strict scalars, lists (types `lists` accepts), maps (`maps`)
    and attrs objects above; register more specific hooks on it afterwards. `detailed`
    converters collect every problem with its path (`leaf_problems`); the others take the
    same values to the same objects, faster, and raise whatever the first problem raised."""
    converter = cattrs.Converter(detailed_validation=detailed, forbid_extra_keys=forbid_extra)
    register_strict_scalars(converter, describe)
    converter.register_structure_hook_factory(_is_optional, _optional_factory(converter))
    converter.register_structure_hook_factory(
        attrs.has, object_factory(converter, names, describe, forbid_extra=forbid_extra)
    )
    converter.register_structure_hook_factory(
        lists, sequence_factory(converter, list_expected, describe)
    )
    converter.register_structure_hook_factory(
        maps, mapping_factory(converter, "an object", describe)
    )
    converter.register_unstructure_hook_factory(
        attrs.has, object_unstructure_factory(converter, names, omit_defaults=omit_defaults)
    )
    return converter


def leaf_problems(
    exc: BaseException, path: str, names: JsonNames, item: PathStep
) -> Iterator[tuple[str, BaseException]]:
    """Every leaf of a cattrs error tree with its JSON path, in order: the problems in
    fields and items (by their JSON names, `item(path, index or key)`) before the others.
    Lazy, so a converter that reports one problem walks only to the first."""
    if isinstance(exc, ClassValidationError):
        in_fields, elsewhere = exc.group_exceptions()
        for sub, note in in_fields:
            yield from leaf_problems(
                sub, child(path, names.of_field(exc.cl, note.name)), names, item
            )
        for other in elsewhere:
            yield from leaf_problems(other, path, names, item)
        return
    if isinstance(exc, IterableValidationError):
        in_items, rest = exc.group_exceptions()
        for sub, item_note in in_items:
            yield from leaf_problems(sub, item(path, item_note.index), names, item)
        for other in rest:
            yield from leaf_problems(other, path, names, item)
        return
    yield path, exc
