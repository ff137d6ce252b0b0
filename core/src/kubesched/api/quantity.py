"""Kubernetes resource quantities ("100m", "1.5Gi", "1e3") parsed to exact integers.

The grammar and rounding are apimachinery's `resource.ParseQuantity`:
a signed decimal number (`1`, `1.5`, `.5`, `1.`) followed by a decimal SI suffix
(n u m k M G T P E), a binary SI suffix (Ki Mi Gi Ti Pi Ei) or a decimal
exponent (`e3`, `E-3`, `e+6`). A parsed amount is first rounded away from zero
to a whole number of nano-units, and binary amounts are capped at 2^63-1, as
upstream does; `parse_quantity` then returns `Value()` (whole units) or, with
`milli=True`, `MilliValue()` (thousandths), both rounded away from zero.
Arithmetic is exact (`fractions.Fraction`), never floating point.
"""

from __future__ import annotations

import re
from fractions import Fraction

from kubesched.errors import QuantityError

FORMAT_PATTERN = r"^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$"
"""The pattern upstream's ErrFormatWrong quotes (its own scanner is what decides)."""

_SCANNER = re.compile(r"([+-]?)([0-9]*)(?:\.([0-9]*))?([eEinumkKMGTP]*[+-]?[0-9]*)")

_DECIMAL_SUFFIXES = {
    "n": -9, "u": -6, "m": -3, "": 0, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18,
}  # fmt: skip
_BINARY_SUFFIXES = {"Ki": 10, "Mi": 20, "Gi": 30, "Ti": 40, "Pi": 50, "Ei": 60}
_BINARY_NAMES = {bits: name for name, bits in _BINARY_SUFFIXES.items()}
_MAX_EXPONENT = 1000
"""Decimal exponents beyond this are refused rather than expanded into enormous integers."""
_NANO = 10**9
_MAX_BINARY_NANOS = (2**63 - 1) * _NANO


def _error(text: str, reason: str) -> QuantityError:
    return QuantityError(f"invalid quantity {text!r}: {reason}")


def _multiplier(text: str, suffix: str) -> tuple[Fraction, bool]:
    """The factor a suffix stands for, and whether it is a binary (power of two) suffix."""
    if suffix in _DECIMAL_SUFFIXES:
        return Fraction(10) ** _DECIMAL_SUFFIXES[suffix], False
    if suffix in _BINARY_SUFFIXES:
        return Fraction(2 ** _BINARY_SUFFIXES[suffix]), True
    exponent_text = suffix[1:]
    if suffix[:1] in ("e", "E") and re.fullmatch(r"[+-]?[0-9]+", exponent_text):
        exponent = int(exponent_text)
        if abs(exponent) > _MAX_EXPONENT:
            raise _error(text, f"exponent out of range (at most {_MAX_EXPONENT} in magnitude)")
        return Fraction(10) ** exponent, False
    raise _error(text, "unable to parse quantity's suffix")


def _round_away_from_zero(amount: Fraction) -> int:
    magnitude = -(-abs(amount.numerator) // amount.denominator)
    return magnitude if amount >= 0 else -magnitude


def _nanos(text: str) -> int:
    """The quantity in whole nano-units, rounded and capped as ParseQuantity does."""
    scanned = _SCANNER.fullmatch(text) if text else None
    if scanned is None:
        raise _error(text, f"quantities must match the regular expression '{FORMAT_PATTERN}'")
    sign, whole, fraction, suffix = scanned.groups()
    fraction = fraction or ""
    multiplier, binary = _multiplier(text, suffix)
    number = Fraction(int(whole + fraction or "0"), 10 ** len(fraction))
    nanos = _round_away_from_zero(number * multiplier * _NANO)
    if binary:
        nanos = min(nanos, _MAX_BINARY_NANOS)
    return -nanos if sign == "-" else nanos


def parse_quantity(text: str | int | float, *, milli: bool = False) -> int:
    """Parse a quantity; `milli=True` returns thousandths (CPU), rounded up as Kubernetes does.

    Numbers (as YAML gives them) are read through their decimal text. Raises
    `QuantityError` quoting the input when Kubernetes would reject it.
    """
    if isinstance(text, bool) or not isinstance(text, (str, int, float)):
        raise QuantityError(f"invalid quantity {text!r}: expected a string or a number")
    source = text if isinstance(text, str) else repr(text)
    nanos = _nanos(source)
    scale = _NANO // 1000 if milli else _NANO
    return _round_away_from_zero(Fraction(nanos, scale))


_CANONICAL_DECIMAL = {exponent: suffix for suffix, exponent in _DECIMAL_SUFFIXES.items()}


def _format_decimal(mantissa: int, exponent: int) -> str:
    """DecimalSI canonical form: the largest multiple-of-3 exponent with no fractional digits."""
    while mantissa and mantissa % 1000 == 0 and exponent < max(_CANONICAL_DECIMAL):
        mantissa //= 1000
        exponent += 3
    return f"{mantissa}{_CANONICAL_DECIMAL[exponent]}" if mantissa else "0"


def format_quantity(value: int, *, milli: bool = False) -> str:
    """The canonical string for an integer amount (inverse of parse_quantity).

    Thousandths (`milli=True`) print as DecimalSI ("1500m", "2"); whole units
    print as upstream's String() prints a BinarySI quantity: from 1024 up in
    powers of 1024 ("8Gi", "1536Mi", "2000"), below it as DecimalSI ("110", "1k").
    """
    if milli:
        return _format_decimal(value, -3)
    if abs(value) < 1024:
        return _format_decimal(value, 0)
    bits = 0
    while value % 1024 == 0 and bits < max(_BINARY_NAMES):
        value //= 1024
        bits += 10
    return f"{value}{_BINARY_NAMES.get(bits, '')}"
