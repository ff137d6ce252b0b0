"""Kubernetes resource quantities ("100m", "1.5Gi", "1e3") parsed to exact integers.

The grammar and rounding are apimachinery's `resource.ParseQuantity`:
a signed decimal number (`1`, `1.5`, `.5`, `1.`) followed by a decimal SI suffix
(n u m k M G T P E), a binary SI suffix (Ki Mi Gi Ti Pi Ei) or a decimal
exponent (`e3`, `E-3`, `e+6`). A parsed amount is first rounded away from zero
to a whole number of nano-units, and binary amounts are capped at 2^63-1, as
upstream does; `parse_quantity` then returns `Value()` (whole units) or, with
`milli=True`, `MilliValue()` (thousandths), both rounded away from zero.
Arithmetic is on exact integers, never floating point.
"""

from __future__ import annotations

import re
from functools import lru_cache

from kubesched.api._field_errors import json_text
from kubesched.errors import QuantityError

FORMAT_PATTERN = r"^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$"
"""The pattern upstream's ErrFormatWrong quotes (its own scanner is what decides)."""

_SCANNER = re.compile(
    r"(?P<sign>[+-]?)(?P<whole>[0-9]*)(?:\.(?P<fraction>[0-9]*))?"
    r"(?P<suffix>[eEinumkKMGTP]*[+-]?[0-9]*)"
)

_DECIMAL_SUFFIXES = {
    "n": -9, "u": -6, "m": -3, "": 0, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18,
}  # fmt: skip
_BINARY_SUFFIXES = {"Ki": 10, "Mi": 20, "Gi": 30, "Ti": 40, "Pi": 50, "Ei": 60}
_SI_NAMES = {exponent: suffix for suffix, exponent in _DECIMAL_SUFFIXES.items()}
_BINARY_NAMES = {bits: name for name, bits in _BINARY_SUFFIXES.items()}
_MAX_EXPONENT = 2**31 - 1
"""Decimal exponents upstream accepts (an int32 scale it can negate)."""
_MAX_SCALE = 1000
"""Powers of ten beyond this are refused rather than expanded into enormous integers."""
_NANO_DIGITS = 9
_NANO = 10**_NANO_DIGITS
_MAX_BINARY_NANOS = (2**63 - 1) * _NANO
"""Binary-suffixed amounts are capped at 2^63-1 units, as upstream caps them."""


def _error(text: str, reason: str) -> QuantityError:
    return QuantityError(f"invalid quantity {text!r}: {reason}")


def _interpret(text: str, suffix: str) -> tuple[int, int]:
    """A suffix as (power of ten, power of two)."""
    if suffix in _DECIMAL_SUFFIXES:
        return _DECIMAL_SUFFIXES[suffix], 0
    if suffix in _BINARY_SUFFIXES:
        return 0, _BINARY_SUFFIXES[suffix]
    exponent_text = suffix[1:]
    if suffix[:1] in ("e", "E") and re.fullmatch(r"[+-]?[0-9]+", exponent_text):
        exponent = int(exponent_text)
        if abs(exponent) <= _MAX_EXPONENT:
            return exponent, 0
    raise _error(text, "unable to parse quantity's suffix")


def _ceil_away_from_zero(numerator: int, denominator: int) -> int:
    magnitude = -(-abs(numerator) // denominator)
    return magnitude if numerator >= 0 else -magnitude


@lru_cache(maxsize=4096)
def _nanos(text: str) -> int:
    """The quantity in whole nano-units, rounded and capped as ParseQuantity does (cached:
    manifests repeat the same few amounts thousands of times)."""
    scanned = _SCANNER.fullmatch(text) if text else None
    if scanned is None:
        raise _error(text, f"quantities must match the regular expression '{FORMAT_PATTERN}'")
    sign: str = scanned["sign"]
    fraction: str = scanned["fraction"] or ""
    number: str = scanned["whole"] + fraction
    suffix: str = scanned["suffix"]
    if len(number) > _MAX_SCALE:
        raise _error(text, f"more than {_MAX_SCALE} digits")
    power_of_ten, power_of_two = _interpret(text, suffix)
    digits = int(number or "0") << power_of_two
    shift = power_of_ten - len(fraction) + _NANO_DIGITS
    if shift > _MAX_SCALE:
        raise _error(text, f"exponent too large (at most {_MAX_SCALE - _NANO_DIGITS} is supported)")
    if shift >= 0:
        nanos: int = digits * 10**shift
    elif -shift > len(str(digits)):
        nanos = 1 if digits else 0  # below one nano-unit: rounds up to the smallest amount
    else:
        nanos = _ceil_away_from_zero(digits, 10**-shift)
    if power_of_two:
        nanos = min(nanos, _MAX_BINARY_NANOS)
    return -nanos if sign == "-" else nanos


def parse_quantity(text: str | int | float, *, milli: bool = False) -> int:
    """Parse a quantity; `milli=True` returns thousandths (CPU), rounded up as Kubernetes does.

    Numbers (as YAML gives them) are read through their decimal text. Raises
    `QuantityError` quoting the input when Kubernetes would reject it.
    """
    if isinstance(text, bool) or not isinstance(text, (str, int, float)):
        shown = json_text(text)
        raise QuantityError(f"invalid quantity {shown}: expected a string or a number")
    source = text if isinstance(text, str) else repr(text)
    nanos = _nanos(source)
    return _ceil_away_from_zero(nanos, _NANO // 1000 if milli else _NANO)


def _format_decimal(mantissa: int, exponent: int) -> str:
    """DecimalSI canonical form: the largest multiple-of-3 exponent with no fractional digits,
    as a suffix where one exists, else in exponent notation ("1e21")."""
    if not mantissa:
        return "0"
    while mantissa % 1000 == 0:
        mantissa //= 1000
        exponent += 3
    suffix = _SI_NAMES.get(exponent, f"e{exponent}")
    return f"{mantissa}{suffix}"


def format_quantity(value: int, *, milli: bool = False) -> str:
    """The canonical string for an integer amount (inverse of parse_quantity).

    Thousandths (`milli=True`) print as upstream's String() prints a DecimalSI
    quantity ("1500m", "2", "3k"); whole units as it prints a BinarySI one:
    below 1024 as DecimalSI ("110", "1k"), from 1024 up in powers of 1024
    ("8Gi", "1536Mi", "2000"), and in plain decimal past Ei.
    """
    if milli:
        return _format_decimal(value, -3)
    if abs(value) < 1024:
        return _format_decimal(value, 0)
    mantissa, bits = value, 0
    while mantissa % 1024 == 0:
        mantissa //= 1024
        bits += 10
    if bits in _BINARY_NAMES:
        return f"{mantissa}{_BINARY_NAMES[bits]}"
    if bits == 0:
        return str(value)
    digits = str(value)
    zeros = (len(digits) - len(digits.rstrip("0"))) // 3 * 3
    return f"{digits[: len(digits) - zeros]}e{zeros}" if zeros else digits
