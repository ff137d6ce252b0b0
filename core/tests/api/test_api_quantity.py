"""Quantity parsing and formatting, on the cases of apimachinery's quantity_test.go."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kubesched.api._quantity import FORMAT_PATTERN, format_quantity, parse_quantity
from kubesched.errors import InputError, QuantityError

MAX_INT64 = 2**63 - 1
KI, MI, GI, TI, PI, EI = (1024**n for n in range(1, 7))

# TestQuantityParse: input -> exact amount as (mantissa, power of ten).
PARSE_TABLE = [
    ("0", 0, 0),
    ("0n", 0, 0),
    ("0u", 0, 0),
    ("0m", 0, 0),
    ("0Ki", 0, 0),
    ("0k", 0, 0),
    ("0Mi", 0, 0),
    ("0M", 0, 0),
    ("0Gi", 0, 0),
    ("0G", 0, 0),
    ("0Ti", 0, 0),
    ("0T", 0, 0),
    # quantity-less numbers
    ("1", 1, 0),
    # binary suffixes
    ("1Ki", KI, 0),
    ("8Ki", 8 * KI, 0),
    ("7Mi", 7 * MI, 0),
    ("6Gi", 6 * GI, 0),
    ("5Ti", 5 * TI, 0),
    ("4Pi", 4 * PI, 0),
    ("3Ei", 3 * EI, 0),
    ("10Ti", 10 * TI, 0),
    ("100Ti", 100 * TI, 0),
    # decimal suffixes
    ("5n", 5, -9),
    ("4u", 4, -6),
    ("3m", 3, -3),
    ("9", 9, 0),
    ("8k", 8, 3),
    ("50k", 5, 4),
    ("7M", 7, 6),
    ("6G", 6, 9),
    ("5T", 5, 12),
    ("40T", 4, 13),
    ("300T", 3, 14),
    ("2P", 2, 15),
    ("1E", 1, 18),
    # decimal exponents
    ("1E-3", 1, -3),
    ("1e3", 1, 3),
    ("1E6", 1, 6),
    ("1e9", 1, 9),
    ("1E12", 1, 12),
    ("1e15", 1, 15),
    ("1E18", 1, 18),
    # nonstandard but still parsable
    ("1e14", 1, 14),
    ("1e13", 1, 13),
    ("100.035k", 100035, 0),
    # things that look like floating point
    ("0.001", 1, -3),
    ("0.0005k", 5, -1),
    ("0.005", 5, -3),
    ("0.05", 5, -2),
    ("0.5", 5, -1),
    ("0.00050k", 5, -1),
    ("0.00500", 5, -3),
    ("0.05000", 5, -2),
    ("0.50000", 5, -1),
    ("0.5e0", 5, -1),
    ("0.5e-1", 5, -2),
    ("0.5e-2", 5, -3),
    ("10.035M", 10035, 3),
    ("1.2e3", 12, 2),
    ("1.3E+6", 13, 5),
    ("1.40e9", 14, 8),
    ("1.53E12", 153, 10),
    ("1.6e15", 16, 14),
    ("1.7E18", 17, 17),
    ("9.01", 901, -2),
    ("8.1k", 81, 2),
    ("7.123456M", 7123456, 0),
    ("6.987654321G", 6987654321, 0),
    ("5.444T", 5444, 9),
    ("40.1T", 401, 11),
    ("300.2T", 3002, 11),
    ("2.5P", 25, 14),
    ("1.01E", 101, 16),
    # things that saturate or round (to whole nano-units, away from zero)
    ("3.001n", 4, -9),
    ("1.1E-9", 2, -9),
    ("0.0000000001", 1, -9),
    ("0.0000000005", 1, -9),
    ("0.00000000050", 1, -9),
    ("0.5e-9", 1, -9),
    ("0.9n", 1, -9),
    ("0.00000012345", 124, -9),
    ("0.00000012354", 124, -9),
    ("9Ei", MAX_INT64, 0),
    ("9223372036854775807Ki", MAX_INT64, 0),
    ("12E", 12, 18),
    # fractional binary amounts
    ("100.035Ki", 10243584, -2),
    ("0.5Mi", MI // 2, 0),
    ("0.05Gi", 536870912, -1),
    ("0.025Ti", 274877906944, -1),
    # things written by trolls
    ("0.000000000001Ki", 2, -9),
    (".001", 1, -3),
    (".0001k", 100, -3),
    ("1.", 1, 0),
    ("1.G", 1, 9),
    # TestParseQuantityString: a lone point is zero
    (".", 0, 0),
]

INVALID = [
    "",
    "Non-Numeric",
    "1.1.M",
    "1+1.0M",
    "0.1mi",
    "0.1am",
    "aoeu",
    ".5i",
    "1i",
    "-3.01i",
    "-3.01e-",
    "1e4294967297",  # an exponent outside the int32 scale
    " 1",
    "1 ",
]


def _away_from_zero(amount: Fraction) -> int:
    magnitude = -(-abs(amount.numerator) // amount.denominator)
    return magnitude if amount >= 0 else -magnitude


@pytest.mark.parametrize("sign", ["", "+", "-"])
@pytest.mark.parametrize(("text", "mantissa", "exponent"), PARSE_TABLE)
def test_parse_table(sign: str, text: str, mantissa: int, exponent: int) -> None:
    amount = Fraction(mantissa) * Fraction(10) ** exponent * (-1 if sign == "-" else 1)
    assert parse_quantity(sign + text) == _away_from_zero(amount)
    assert parse_quantity(sign + text, milli=True) == _away_from_zero(amount * 1000)


@pytest.mark.parametrize("text", INVALID)
def test_invalid_quantities_are_rejected_quoting_the_input(text: str) -> None:
    with pytest.raises(QuantityError) as caught:
        parse_quantity(text)
    assert repr(text) in str(caught.value)
    assert isinstance(caught.value, InputError)


def test_format_error_quotes_upstream_pattern() -> None:
    with pytest.raises(QuantityError, match="must match the regular expression") as caught:
        parse_quantity("aoeu")
    assert FORMAT_PATTERN in str(caught.value)


def test_suffix_error_names_the_suffix_problem() -> None:
    with pytest.raises(QuantityError, match="unable to parse quantity's suffix"):
        parse_quantity("0.1mi")


# TestNegativeValueRoundsAwayFromZero: input, Value(), MilliValue().
@pytest.mark.parametrize(
    ("text", "value", "milli"),
    [
        ("-.484785E-7466", -1, -1),
        (".484785E-7466", 1, 1),
        ("-.484785E-1", -1, -49),
        (".484785E-1", 1, 49),
        ("-0.0005", -1, -1),
        ("0.0005", 1, 1),
        ("-1500m", -2, -1500),
        ("1500m", 2, 1500),
        ("-9.5000000001Gi", -10200547329, -10200547328108),
        ("9.5000000001Gi", 10200547329, 10200547328108),
        ("-1", -1, -1000),
        ("1", 1, 1000),
        ("0", 0, 0),
    ],
)
def test_value_and_milli_value_round_away_from_zero(text: str, value: int, milli: int) -> None:
    assert parse_quantity(text) == value
    assert parse_quantity(text, milli=True) == milli


# TestScaledValue / TestNewScaledSet: one unit at a scale, read back in whole and milli units.
@pytest.mark.parametrize(
    ("text", "value", "milli"),
    [("1n", 1, 1), ("1u", 1, 1), ("1m", 1, 1), ("1", 1, 1000), ("1k", 1000, 10**6)],
)
def test_scaled_values(text: str, value: int, milli: int) -> None:
    assert (parse_quantity(text), parse_quantity(text, milli=True)) == (value, milli)


@pytest.mark.parametrize(
    ("number", "milli", "expected"),
    [(2, False, 2), (2, True, 2000), (110, False, 110), (0.5, True, 500), (1e-3, True, 1)],
)
def test_yaml_numbers(number: int | float, milli: bool, expected: int) -> None:
    assert parse_quantity(number, milli=milli) == expected


@pytest.mark.parametrize("bad", [True, None, [1]])
def test_non_quantity_types_are_rejected(bad: object) -> None:
    with pytest.raises(QuantityError, match="expected a string or a number"):
        parse_quantity(bad)  # type: ignore[arg-type]


# TestQuantityString / TestNewSet / TestBinarySIZeroExponentString /
# TestBinarySIPastEiArithmeticRoundTrip: whole units print like a BinarySI quantity.
BINARY_FORMAT = [
    (GI, "1Gi"),
    (300 * MI, "300Mi"),
    (6 * KI, "6Ki"),
    (1001 * GI, "1001Gi"),
    (TI, "1Ti"),
    (5, "5"),
    (10**70, "10e69"),
    (2 * 10**70, "20e69"),
    (10**72, "1e72"),
    (1025, "1025"),
    (0, "0"),
    (1, "1"),
    (1000, "1k"),
    (KI, "1Ki"),
    (MI, "1Mi"),
    (2000, "2000"),
    (1024 * EI, "1180591620717411303424"),
]

# TestQuantityString / TestMilliNewSet / TestNewScaledSet: thousandths print like DecimalSI.
MILLI_FORMAT = [
    (10**12, "1G"),
    (1, "1m"),
    (80, "80m"),
    (1080, "1080m"),
    (300 * 10**9, "300M"),
    (10**15, "1T"),
    (10**21, "1E"),
    (10**24, "1e21"),
    (5 * 10**24, "5e21"),
    (10**27, "1e24"),
    (1234567 * 10**9, "1234567M"),
    (1234567, "1234567m"),
    (3 * 10**6, "3k"),
    (0, "0"),
    (500, "500m"),
    (1000, "1"),
    (1234000, "1234"),
]


@pytest.mark.parametrize(("value", "expected"), BINARY_FORMAT)
def test_format_whole_units(value: int, expected: str) -> None:
    assert format_quantity(value) == expected
    assert parse_quantity(expected) == value
    if value:
        assert format_quantity(-value) == "-" + expected


@pytest.mark.parametrize(("value", "expected"), MILLI_FORMAT)
def test_format_milli_units(value: int, expected: str) -> None:
    assert format_quantity(value, milli=True) == expected
    assert parse_quantity(expected, milli=True) == value
    if value:
        assert format_quantity(-value, milli=True) == "-" + expected


# TestQuantityParseEmit: parse then print canonically.
@pytest.mark.parametrize(
    ("text", "milli", "expected"),
    [
        ("1Ki", False, "1Ki"),
        ("1Mi", False, "1Mi"),
        ("1Gi", False, "1Gi"),
        ("1024Mi", False, "1Gi"),
        ("1000M", True, "1G"),
        (".001Ki", True, "1024m"),
    ],
)
def test_parse_then_emit(text: str, milli: bool, expected: str) -> None:
    assert format_quantity(parse_quantity(text, milli=milli), milli=milli) == expected
    assert format_quantity(parse_quantity("-" + text, milli=milli), milli=milli) == "-" + expected


@given(st.integers(min_value=-MAX_INT64, max_value=MAX_INT64), st.booleans())
def test_format_then_parse_round_trips(value: int, milli: bool) -> None:
    assert parse_quantity(format_quantity(value, milli=milli), milli=milli) == value
