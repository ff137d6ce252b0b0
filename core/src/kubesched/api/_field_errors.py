"""Field errors worded the way apimachinery's `field.Error` prints them.

`str(invalid("a.b", -1, "detail"))` is `a.b: Invalid value: -1: detail`, the
line kube-scheduler prints for the same mistake. The bad value prints as Go
prints it: strings through `strconv.Quote`, numbers and booleans bare, a list
of strings as a `[]string`, a value wrapped in `Shown` as its text, None as
`"null"`; anything Go would dump as a struct prints as compact JSON instead. Several errors
join the way an `errors.Aggregate` prints them: `[first, second]`, repeats
dropped.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence

from attrs import frozen

INVALID = "Invalid value"
REQUIRED = "Required value"
DUPLICATE = "Duplicate value"
NOT_SUPPORTED = "Unsupported value"
FORBIDDEN = "Forbidden"
TOO_LONG = "Too long"

_ESCAPES = {
    "\a": "\\a",
    "\b": "\\b",
    "\f": "\\f",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
    "\v": "\\v",
    '"': '\\"',
    "\\": "\\\\",
}


def child(path: str, name: str) -> str:
    """`path.name`, or `name` at the root."""
    return f"{path}.{name}" if path else name


def index(path: str, i: int | str) -> str:
    """`path[i]`: a list index or a map key."""
    return f"{path}[{i}]"


def go_quote(text: str) -> str:
    """`text` as Go's strconv.Quote prints it."""
    out = ['"']
    for char in text:
        if char in _ESCAPES:
            out.append(_ESCAPES[char])
        elif char.isprintable():
            out.append(char)
        elif ord(char) < 0x80:
            out.append(f"\\x{ord(char):02x}")
        elif ord(char) < 0x10000:
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(f"\\U{ord(char):08x}")
    out.append('"')
    return "".join(out)


def go_string_slice(values: Sequence[str]) -> str:
    """A `[]string` as Go's `%#v` prints it; an empty list prints as the nil slice an
    omitted field decodes to."""
    if not values:
        return "[]string(nil)"
    return "[]string{" + ", ".join(go_quote(v) for v in values) + "}"


@frozen
class Shown:
    """A bad value that prints as `text`, unquoted: what Go prints for a value with a
    String() method (a metav1.Duration prints as `15s`)."""

    text: str


MAX_SHOWN = 200
"""Characters of a bad value a message shows at most."""


def cut(text: str, limit: int = MAX_SHOWN) -> str:
    """`text`, or its start and how much was left out when it is longer than `limit`."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text) - limit} more characters)"


def json_text(value: object) -> str:
    """A value as JSON text (`true`, `null`, `{"a": 1}`), cut to `MAX_SHOWN` characters."""
    return cut(json.dumps(value, default=str, ensure_ascii=False))


def go_value(value: object) -> str:
    """A bad value as upstream prints it in a field error (a nil value as the string
    "null", quotes included), cut to `MAX_SHOWN` characters."""
    return cut(_go_value(value))


def _go_value(value: object) -> str:
    if value is None:
        return go_quote("null")
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return go_quote(value)
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, Shown):
        return value.text
    if isinstance(value, list | tuple) and all(isinstance(v, str) for v in value):
        return go_string_slice(value)
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)


@frozen
class FieldError:
    """One bad field (upstream's `field.Error`): where, the kind of problem, the bad value
    already printed (None where the kind prints none), and why."""

    path: str
    kind: str
    value: str | None
    detail: str = ""

    @property
    def body(self) -> str:
        """The message without the field path (upstream's ErrorBody)."""
        body = self.kind if self.value is None else f"{self.kind}: {self.value}"
        return f"{body}: {self.detail}" if self.detail else body

    def __str__(self) -> str:
        return f"{self.path}: {self.body}"


def invalid(path: str, value: object, detail: str) -> FieldError:
    """field.Invalid."""
    return FieldError(path, INVALID, go_value(value), detail)


def required(path: str, detail: str = "") -> FieldError:
    """field.Required: no value is printed."""
    return FieldError(path, REQUIRED, None, detail)


def duplicate(path: str, value: object) -> FieldError:
    """field.Duplicate."""
    return FieldError(path, DUPLICATE, go_value(value))


def not_supported(path: str, value: object, supported: Iterable[str]) -> FieldError:
    """field.NotSupported, listing the supported values in order (none: no detail)."""
    quoted = ", ".join(go_quote(v) for v in supported)
    detail = f"supported values: {quoted}" if quoted else ""
    return FieldError(path, NOT_SUPPORTED, go_value(value), detail)


def forbidden(path: str, detail: str) -> FieldError:
    """field.Forbidden: no value is printed."""
    return FieldError(path, FORBIDDEN, None, detail)


def too_long(path: str, limit: int) -> FieldError:
    """field.TooLong for a size in bytes: no value is printed."""
    return FieldError(path, TOO_LONG, None, f"may not be more than {limit} bytes")


def unique_messages(errors: Iterable[FieldError]) -> list[str]:
    """The distinct messages, first occurrence first (an aggregate drops repeats)."""
    return list(dict.fromkeys(str(e) for e in errors))


def aggregate_message(errors: Iterable[FieldError]) -> str:
    """The errors as one message, the way upstream's `errors.Aggregate` prints them."""
    messages = unique_messages(errors)
    if len(messages) == 1:
        return messages[0]
    return "[" + ", ".join(messages) + "]"
