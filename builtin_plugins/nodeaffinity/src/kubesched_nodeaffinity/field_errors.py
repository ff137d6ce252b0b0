"""Field errors worded the way Kubernetes' apimachinery words them (`field.Error`).

Upstream reports a bad node selector as `<path>: Invalid value: <value>: <detail>`,
with the value printed in Go syntax (`"key"`, `[]string{"a", "b"}`), and joins
several errors as `[first, second]`. Matching that lets our messages equal
upstream's character for character.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from attrs import frozen

INVALID = "Invalid value"
NOT_SUPPORTED = "Unsupported value"

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


def child(path: str, name: str) -> str:
    """`path.name` (just `name` at the root)."""
    return f"{path}.{name}" if path else name


def index(path: str, i: int | str) -> str:
    """`path[i]`: a list index or a map key."""
    return f"{path}[{i}]"


@frozen
class FieldError:
    """One invalid field: where, what kind of problem, the offending value, why."""

    path: str
    kind: str
    value: str
    """Already rendered in Go syntax."""
    detail: str

    def __str__(self) -> str:
        body = f"{self.kind}: {self.value}"
        if self.detail:
            body += f": {self.detail}"
        return f"{self.path}: {body}"


def invalid(path: str, value: str | Sequence[str], detail: str) -> FieldError:
    """Upstream's `field.Invalid`."""
    shown = go_quote(value) if isinstance(value, str) else go_string_slice(value)
    return FieldError(path, INVALID, shown, detail)


def not_supported(path: str, value: str, supported: Iterable[str]) -> FieldError:
    """Upstream's `field.NotSupported`, listing the supported values."""
    detail = "supported values: " + ", ".join(go_quote(v) for v in supported)
    return FieldError(path, NOT_SUPPORTED, go_quote(value), detail)


def unique_messages(errors: Iterable[FieldError]) -> list[str]:
    """The distinct messages, first occurrence first (upstream drops repeats)."""
    return list(dict.fromkeys(str(e) for e in errors))


def aggregate_message(errors: Iterable[FieldError]) -> str:
    """The errors as one message, the way upstream's `errors.Aggregate` prints them."""
    messages = unique_messages(errors)
    if len(messages) == 1:
        return messages[0]
    return "[" + ", ".join(messages) + "]"


class SelectorParseError(ValueError):
    """A node selector that does not parse; `errors` lists every problem."""

    def __init__(self, errors: Sequence[FieldError]) -> None:
        self.errors = tuple(errors)
        super().__init__(aggregate_message(self.errors))
