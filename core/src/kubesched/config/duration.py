"""Go duration strings ("15s", "1m30s", "500ms"), as `metav1.Duration` fields carry them.

`parse_duration` accepts what Go's `time.ParseDuration` accepts; `format_duration`
prints what Go's `Duration.String()` prints, so a config round-trips unchanged.
"""

from __future__ import annotations

import re
from datetime import timedelta

_UNIT_NANOS = {
    "ns": 1,
    "us": 1_000,
    "µs": 1_000,  # U+00B5 micro sign
    "μs": 1_000,  # U+03BC Greek mu
    "ms": 1_000_000,
    "s": 1_000_000_000,
    "m": 60_000_000_000,
    "h": 3_600_000_000_000,
}
_TERM = re.compile(r"(\d*)(?:\.(\d*))?([^\d.]+)")
_SECOND = 1_000_000_000
_MAX = (1 << 63) - 1


def _leading_fraction(digits: str) -> tuple[int, float]:
    """The fraction digits as an integer and its scale, dropping digits that would
    overflow an int64 (as Go's leadingFraction does)."""
    value, scale = 0, 1.0
    for digit in digits:
        if value > _MAX // 10:
            break
        value, scale = value * 10 + int(digit), scale * 10
    return value, scale


def parse_duration(text: str) -> timedelta:
    """A Go duration string as a timedelta; ValueError quoting the text if Go refuses it.

    Sub-microsecond parts are truncated (a timedelta holds microseconds).
    """
    body = text[1:] if text[:1] in "+-" else text
    nanos = 0
    position = 0
    while body != "0" and position < len(body):
        match = _TERM.match(body, position)
        if match is None or not (match.group(1) or match.group(2)):
            break
        whole, fraction, unit = match.groups()
        if unit not in _UNIT_NANOS:
            break
        factor = _UNIT_NANOS[unit]
        nanos += int(whole or "0") * factor
        numerator, scale = _leading_fraction(fraction or "")
        # Go computes the fraction in float64, rounding the same way.
        nanos += int(float(numerator) * (float(factor) / scale))
        position = match.end()
    if not body or (body != "0" and position != len(body)):
        raise ValueError(f'invalid duration "{text}" (examples: "15s", "1m30s", "500ms")')
    micros = nanos // 1_000
    return timedelta(microseconds=-micros if text.startswith("-") else micros)


def _fraction(value: int, digits: int) -> str:
    """`.5` for value=5, digits=1; empty when value is 0 (trailing zeros dropped)."""
    return "." + f"{value:0{digits}d}".rstrip("0") if value else ""


def format_duration(value: timedelta) -> str:
    """A timedelta the way Go's `Duration.String()` prints it: "0s", "1.5s", "1m0s", "500ms"."""
    nanos = (value.days * 86_400 + value.seconds) * _SECOND + value.microseconds * 1_000
    sign, nanos = ("-", -nanos) if nanos < 0 else ("", nanos)
    if nanos == 0:
        return "0s"
    if nanos < _SECOND:
        for unit, digits in (("ms", 6), ("µs", 3), ("ns", 0)):
            if nanos >= 10**digits or unit == "ns":
                whole, frac = divmod(nanos, 10**digits)
                return f"{sign}{whole}{_fraction(frac, digits)}{unit}"
    seconds, frac = divmod(nanos, _SECOND)
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    text = f"{secs}{_fraction(frac, 9)}s"
    if hours or minutes:
        text = f"{minutes}m{text}"
    if hours:
        text = f"{hours}h{text}"
    return sign + text
