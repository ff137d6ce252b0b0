"""Upstream's CEL environment for device selectors, on the `common-expression-language`
package (the Rust `cel` interpreter behind Python bindings, Python 3.11 and newer), or on
`cel-python` (pure Python) where that package has no build (Python 3.10).

An expression sees one variable, `device`, with:

- `device.driver`: the driver's name;
- `device.attributes[domain][id]`: the attributes by domain (an unqualified attribute
  belongs to the driver's domain), as int, bool, string or semantic version;
- `device.capacity[domain][id]`: the capacities, as quantities;
- `device.allowMultipleAllocations`: whether the device can be shared.

Quantities are compared with upstream's quantity library: `quantity("40Gi")`,
`isQuantity`, `compareTo`, `isGreaterThan`, `isLessThan`, `asInteger`, `sign`,
`add`, `sub`; versions with `semver("1.2.3")`, `isSemver`, `compareTo`,
`isGreaterThan`, `isLessThan`, `major`, `minor`, `patch`. Equality of two
quantities or two versions is by value, as upstream's.

An expression is compiled once (`compile_selector` is cached); a device's
variable is built once per device object and each (expression, device) result is
kept while the device lives, so a cluster's devices are evaluated once per
selector, not once per pod and node.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any

from attrs import frozen

from kubesched.api import Device, parse_quantity

QUANTITY_KEY = "__quantity_milli"
"""A quantity in CEL: a map holding its value in thousandths."""
SEMVER_KEY = "__semver"
"""A version in CEL: a map holding [major, minor, patch, pre-release]."""
_SEMVER = re.compile(
    r"^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)"
    r"(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?"
    r"(?:\+[0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*)?$"
)


class CELError(Exception):
    """A selector that does not compile, or fails while it runs."""


def _quantity(milli: int) -> dict[str, int]:
    return {QUANTITY_KEY: milli}


def _parse_quantity(text: str) -> dict[str, int]:
    try:
        return _quantity(parse_quantity(text, milli=True))
    except Exception as err:
        raise ValueError(f"quantities must match the regular expression: {err}") from None


def _is_quantity(text: str) -> bool:
    try:
        parse_quantity(text)
    except Exception:
        return False
    return True


def _semver_parts(text: str) -> list[Any] | None:
    match = _SEMVER.match(text)
    if match is None:
        return None
    return [int(match[1]), int(match[2]), int(match[3]), match[4] or ""]


def _parse_semver(text: str) -> dict[str, list[Any]]:
    parts = _semver_parts(text)
    if parts is None:
        raise ValueError(f"invalid semver: {text}")
    return {SEMVER_KEY: parts}


def _pre_key(pre: str) -> tuple[int, list[tuple[int, int, str]]]:
    """Semver precedence of a pre-release: none sorts after any."""
    if not pre:
        return (1, [])
    fields = [(0, int(p), "") if p.isdigit() else (1, 0, p) for p in pre.split(".")]
    return (0, fields)


def _cmp(a: Any, b: Any) -> int:
    if isinstance(a, Mapping) and QUANTITY_KEY in a and isinstance(b, Mapping):
        if QUANTITY_KEY not in b:
            raise ValueError("compareTo: both operands must be quantities")
        x, y = int(a[QUANTITY_KEY]), int(b[QUANTITY_KEY])
        return (x > y) - (x < y)
    if isinstance(a, Mapping) and SEMVER_KEY in a and isinstance(b, Mapping):
        p, q = a[SEMVER_KEY], b.get(SEMVER_KEY)
        if q is None:
            raise ValueError("compareTo: both operands must be versions")
        left = (p[0], p[1], p[2], _pre_key(p[3]))
        right = (q[0], q[1], q[2], _pre_key(q[3]))
        return (left > right) - (left < right)
    raise ValueError("compareTo: no such overload")


def _milli(a: Any) -> int:
    if isinstance(a, Mapping) and QUANTITY_KEY in a:
        return int(a[QUANTITY_KEY])
    raise ValueError("no such overload: expected a quantity")


def _as_integer(a: Any) -> int:
    milli = _milli(a)
    if milli % 1000:
        raise ValueError("cannot convert value to integer")
    return milli // 1000


def _semver_field(index: int) -> Callable[[Any], int]:
    def read(a: Any) -> int:
        if isinstance(a, Mapping) and SEMVER_KEY in a:
            parts: list[Any] = a[SEMVER_KEY]
            return int(parts[index])
        raise ValueError("no such overload: expected a version")

    return read


def _sum(a: Any, b: Any) -> dict[str, int]:
    return _quantity(_milli(a) + (b * 1000 if isinstance(b, int) else _milli(b)))


def _difference(a: Any, b: Any) -> dict[str, int]:
    return _quantity(_milli(a) - (b * 1000 if isinstance(b, int) else _milli(b)))


FUNCTIONS: Mapping[str, Callable[..., Any]] = {
    "quantity": _parse_quantity,
    "isQuantity": _is_quantity,
    "semver": _parse_semver,
    "isSemver": lambda text: _semver_parts(text) is not None,
    "compareTo": _cmp,
    "isGreaterThan": lambda a, b: _cmp(a, b) > 0,
    "isLessThan": lambda a, b: _cmp(a, b) < 0,
    "asInteger": _as_integer,
    "isInteger": lambda a: _milli(a) % 1000 == 0,
    "sign": lambda a: (_milli(a) > 0) - (_milli(a) < 0),
    "add": _sum,
    "sub": _difference,
    "major": _semver_field(0),
    "minor": _semver_field(1),
    "patch": _semver_field(2),
}
"""The extension functions of upstream's environment that selectors use."""


class _RustBackend:
    """common-expression-language: one Context holding the functions; `device` is set per
    evaluation."""

    name = "common-expression-language"

    def __init__(self, module: Any) -> None:
        self._module = module
        self._context = module.Context()
        for function_name, function in FUNCTIONS.items():
            self._context.add_function(function_name, function)

    def compile(self, expression: str) -> Any:
        return self._module.compile(expression)

    def evaluate(self, program: Any, device: dict[str, Any]) -> Any:
        self._context.add_variable("device", device)
        return program.execute(self._context)


class _PurePythonBackend:
    """cel-python: values cross as its own types (converted from and to JSON-like data)."""

    name = "cel-python"

    def __init__(self, module: Any) -> None:
        self._module = module
        self._env = module.Environment()
        to_cel = module.json_to_cel
        self._functions = {
            function_name: _converting(function, to_cel)
            for function_name, function in FUNCTIONS.items()
        }

    def compile(self, expression: str) -> Any:
        return self._env.program(self._env.compile(expression), functions=self._functions)

    def evaluate(self, program: Any, device: dict[str, Any]) -> Any:
        value = program.evaluate({"device": self._module.json_to_cel(device)})
        if isinstance(value, Exception):
            raise value
        return bool(value) if type(value).__name__ == "BoolType" else value


def _converting(function: Callable[..., Any], to_cel: Callable[[Any], Any]) -> Callable[..., Any]:
    def call(*args: Any) -> Any:
        return to_cel(function(*args))

    return call


def _load_backend() -> _RustBackend | _PurePythonBackend:
    try:
        return _RustBackend(importlib.import_module("cel"))
    except ImportError:
        return _PurePythonBackend(importlib.import_module("celpy"))


BACKEND = _load_backend()
"""The CEL implementation in use."""


_DOMAIN_LOOKUP = re.compile(r"""\b(attributes|capacity)\s*\[\s*(?:"([^"]*)"|'([^']*)')\s*\]""")


@frozen
class CompiledSelector:
    """An expression, compiled; `error` says why it does not compile. `domains` are the
    (map, domain) pairs the expression looks up by a literal key: upstream's maps give an
    empty map for a domain the device has none of, so these are filled in."""

    expression: str
    program: Any
    error: str
    domains: tuple[tuple[str, str], ...] = ()


@lru_cache(maxsize=1024)
def compile_selector(expression: str) -> CompiledSelector:
    """The expression compiled (cached: each distinct expression is compiled once)."""
    try:
        program = BACKEND.compile(expression)
    except Exception as err:
        return CompiledSelector(expression, None, f"compilation failed: {_first_line(err)}")
    domains = tuple(
        dict.fromkeys(
            (m[1], m[2] if m[2] is not None else m[3]) for m in _DOMAIN_LOOKUP.finditer(expression)
        )
    )
    return CompiledSelector(expression, program, "", domains)


def _first_line(err: BaseException) -> str:
    text = str(err).strip()
    return text.splitlines()[0] if text else type(err).__name__


def qualified(driver: str, name: str) -> tuple[str, str]:
    """(domain, id) of an attribute or capacity name; unqualified names are the driver's."""
    domain, slash, ident = name.rpartition("/")
    return (domain, ident) if slash else (driver, name)


def device_variable(driver: str, device: Device) -> dict[str, Any]:
    """The value of `device` in an expression."""
    attributes: dict[str, dict[str, Any]] = {}
    for name, attribute in device.attributes.items():
        domain, ident = qualified(driver, name)
        if attribute.version is not None:
            value: Any = _parse_semver(attribute.version)
        else:
            value = attribute.value
        attributes.setdefault(domain, {})[ident] = value
    capacity: dict[str, dict[str, Any]] = {}
    for name, amount in device.capacity.items():
        domain, ident = qualified(driver, name)
        capacity.setdefault(domain, {})[ident] = _quantity(parse_quantity(amount.value, milli=True))
    return {
        "driver": driver,
        "attributes": attributes,
        "capacity": capacity,
        "allowMultipleAllocations": bool(device.allow_multiple_allocations),
    }


class SelectorEvaluator:
    """Evaluates compiled selectors on devices, remembering each result while the device
    object lives (objects are immutable: a changed device is a new object)."""

    def __init__(self, limit: int = 200_000) -> None:
        self._results: dict[int, tuple[Device, dict[str, bool | str]]] = {}
        self._limit = limit

    def matches(self, selector: CompiledSelector, driver: str, device: Device) -> bool:
        """Whether the device meets the selector; raises CELError when it fails to run or
        gives something other than a boolean."""
        if selector.error:
            raise CELError(selector.error)
        entry = self._results.get(id(device))
        if entry is None or entry[0] is not device:
            if len(self._results) >= self._limit:
                self._results.clear()
            entry = (device, {})
            self._results[id(device)] = entry
        key = f"{driver}\0{selector.expression}"
        result = entry[1].get(key)
        if result is None:
            result = self._evaluate(selector, driver, device)
            entry[1][key] = result
        if isinstance(result, str):
            raise CELError(result)
        return result

    def _evaluate(self, selector: CompiledSelector, driver: str, device: Device) -> bool | str:
        try:
            variable = device_variable(driver, device)
            for name, domain in selector.domains:
                variable[name].setdefault(domain, {})
            value = BACKEND.evaluate(selector.program, variable)
        except KeyError as err:
            return f"no such key: {err.args[0] if err.args else ''}"
        except Exception as err:
            return _first_line(err)
        if not isinstance(value, bool):
            return f"expression returned {type(value).__name__} instead of bool"
        return value
