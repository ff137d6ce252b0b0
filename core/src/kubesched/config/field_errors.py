"""Field paths and error lines worded as upstream's `field.Error` prints them.

`invalid("parallelism", 0, "should be an integer value greater than zero")` gives
`parallelism: Invalid value: 0: should be an integer value greater than zero`,
the line kube-scheduler prints for the same mistake. Bad values print the way
Go does for simple types (strings quoted, numbers and booleans bare); values
Go would print as a struct dump print as JSON instead.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from datetime import timedelta

from kubesched.config.duration import format_duration


def child(path: str, name: str) -> str:
    """`path.name`, or `name` at the root."""
    return f"{path}.{name}" if path else name


def index(path: str, i: int | str) -> str:
    """`path[i]`: a list index or a map key."""
    return f"{path}[{i}]"


def go_value(value: object) -> str:
    """A bad value as upstream prints it."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, timedelta):
        return format_duration(value)
    if isinstance(value, int | float):
        return str(value)
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)


def invalid(path: str, value: object, detail: str) -> str:
    """field.Invalid."""
    return f"{path}: Invalid value: {go_value(value)}: {detail}"


def required(path: str, detail: str = "") -> str:
    """field.Required."""
    return f"{path}: Required value: {detail}" if detail else f"{path}: Required value"


def duplicate(path: str, value: object) -> str:
    """field.Duplicate."""
    return f"{path}: Duplicate value: {go_value(value)}"


def not_supported(path: str, value: object, supported: Iterable[str]) -> str:
    """field.NotSupported, listing the supported values in order."""
    values = ", ".join(go_value(v) for v in supported)
    return f"{path}: Unsupported value: {go_value(value)}: supported values: {values}"
