"""The one cattrs converter between Kubernetes JSON and the attrs models of `kubesched.api`.

Field names are camelCase on the wire (`nodeName`, `hostIP`) and snake_case in
the models; resource lists are quantity strings on the wire ("500m", "1Gi") and
integers in the models (CPU in millicores); times are RFC 3339 strings on the wire
and `Time` values (nanosecond precision) in the models. Types
are checked as strictly as Kubernetes' own decoder checks them (a number is not
a string, a string is not a list), fields the models do not have are ignored,
and `null` means "use the default". The first problem found is raised as one
`InputError` whose `field` is the JSON path (`spec.containers[0].resources.requests.cpu`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, get_origin

from cattrs import Converter

from kubesched.api._conversion import (
    JsonNames,
    WrongType,
    leaf_problems,
    register_times,
    strict_json_converter,
)
from kubesched.api._field_errors import child, index, json_text
from kubesched.api._quantity import format_quantity, parse_quantity
from kubesched.api._resources import ResourceList, is_integer_resource_name, is_milli_resource
from kubesched.errors import InputError

T = TypeVar("T")

_NAMES = JsonNames(
    {
        "host_ip": "hostIP",
        "host_ips": "hostIPs",
        "pod_ip": "podIP",
        "pod_ips": "podIPs",
    }
)
"""camelCase names, but for fields whose Kubernetes name is not the plain camelCase."""


def json_name(attribute: str) -> str:
    """The Kubernetes JSON name of a model attribute: `node_name` -> `nodeName`."""
    return _NAMES.of_name(attribute)


_JSON_KINDS: dict[type, str] = {
    str: "a string",
    bool: "a boolean",
    int: "a number",
    float: "a number",
    list: "a list",
    dict: "an object",
}


def _describe(value: object) -> str:
    """What a wrong value is, in JSON terms: `got a number (5)`, `got a boolean (true)`,
    `got null`; long values are cut."""
    if value is None:
        return "got null"
    return f"got {_JSON_KINDS.get(type(value), type(value).__name__)} ({json_text(value)})"


def _structure_int_or_string(value: Any, _: Any) -> int | str | None:
    """An IntOrString field (`minAvailable: 1` or `minAvailable: "50%"`)."""
    if value is None or type(value) in (int, str):
        return value  # type: ignore[no-any-return]
    raise WrongType("a number or a string", value, _describe)


def _structure_resource_list(value: Any, _: Any) -> ResourceList:
    """Parse every amount; a bad one raises an InputError whose field is its resource name."""
    if not isinstance(value, Mapping):
        raise TypeError(f"expected an object of resource quantities, {_describe(value)}")
    amounts: ResourceList = {}
    for name, amount in value.items():
        if not isinstance(name, str):
            raise InputError(f"expected a resource name, {_describe(name)}", field=str(name))
        text = amount.strip() if isinstance(amount, str) else amount  # as UnmarshalJSON trims
        try:
            amounts[name] = parse_quantity(text, milli=is_milli_resource(name))
            if is_integer_resource_name(name):
                _check_integral(name, text)
        except InputError as exc:
            raise type(exc)(exc.message, field=name) from None
    return amounts


def _check_integral(name: str, text: Any) -> None:
    """Pods and extended resources are counted whole (ValidateResourceQuantityValue): a
    fraction would be rounded up, so it is refused, as an API server refuses it."""
    thousandths = parse_quantity(text, milli=True)
    if thousandths % 1000:
        shown = format_quantity(thousandths, milli=True)
        raise InputError(f"Invalid value: {shown}: must be an integer", field=name)


def _unstructure_resource_list(amounts: ResourceList) -> dict[str, str]:
    return {name: format_quantity(v, milli=is_milli_resource(name)) for name, v in amounts.items()}


def _is_resource_list(tp: Any) -> bool:
    return bool(tp == ResourceList)


def _is_int_or_string(tp: Any) -> bool:
    return bool(tp == (int | str | None))


def _is_list(tp: Any) -> bool:
    return get_origin(tp) is list


def _is_dict(tp: Any) -> bool:
    return get_origin(tp) is dict


def _build(*, detailed: bool = True) -> Converter:
    converter = strict_json_converter(
        _NAMES,
        _describe,
        lists=_is_list,
        maps=_is_dict,
        list_expected="a list",
        forbid_extra=False,
        omit_defaults=True,
        detailed=detailed,
    )
    register_times(converter, _describe)
    converter.register_structure_hook_func(_is_resource_list, _structure_resource_list)
    converter.register_unstructure_hook_func(_is_resource_list, _unstructure_resource_list)
    converter.register_structure_hook_func(_is_int_or_string, _structure_int_or_string)
    return converter


CONVERTER = _build()
"""The converter itself, for callers that need cattrs directly (e.g. plugin args)."""
FAST_CONVERTER = _build(detailed=False)
"""The same hooks without cattrs' detailed validation: the same objects from the same
data, several times faster, but its errors carry no path. `structure` tries it first and
asks `CONVERTER` only when it raises, so every problem is still reported by one path."""


def _item(path: str, key: int | str) -> str:
    """A list index as `[0]`, a map key as a field (`labels.app`)."""
    return index(path, key) if isinstance(key, int) else child(path, key)


def _as_input_error(leaf: BaseException, path: str) -> InputError:
    if isinstance(leaf, InputError) and leaf.field:
        path = child(path, leaf.field)
    field = path or None
    if isinstance(leaf, InputError):
        return type(leaf)(leaf.message, field=field)
    if isinstance(leaf, KeyError):
        return InputError("required field missing", field=field)
    return InputError(str(leaf), field=field)


def structure(data: Mapping[str, Any], cls: type[T]) -> T:
    """Build a model object from Kubernetes JSON (as loaded from YAML or JSON).

    Raises `InputError` (`QuantityError` for a bad quantity) for the first problem.
    """
    try:
        return FAST_CONVERTER.structure(data, cls)
    except Exception:  # the exact converter says what is wrong, and where
        pass
    try:
        return CONVERTER.structure(data, cls)
    except Exception as exc:  # every failure, whatever cattrs raised, becomes one InputError
        path, leaf = next(leaf_problems(exc, "", _NAMES, _item))
        raise _as_input_error(leaf, path) from None


def unstructure(obj: object) -> dict[str, Any]:
    """Kubernetes JSON for a model object, omitting fields equal to their defaults."""
    data = CONVERTER.unstructure(obj)
    if not isinstance(data, dict):
        raise TypeError(f"not a kubesched.api object: {obj!r}")
    return data
