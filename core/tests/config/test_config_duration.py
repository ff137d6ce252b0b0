"""Go duration strings: the cases of Go's time_test.go that a microsecond timedelta can hold."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kubesched.config.duration import format_duration, parse_duration

US = timedelta(microseconds=1)
MS = timedelta(milliseconds=1)
S = timedelta(seconds=1)
M = timedelta(minutes=1)
H = timedelta(hours=1)

FORMAT_CASES = [
    ("0s", timedelta(0)),
    ("1µs", US),
    ("2.2ms", 2200 * US),
    ("3.3s", 3300 * MS),
    ("4m5s", 4 * M + 5 * S),
    ("4m5.001s", 4 * M + 5001 * MS),
    ("5h6m7.001s", 5 * H + 6 * M + 7001 * MS),
    ("8m0.000001s", 8 * M + US),
    ("-1.5ms", -1500 * US),
    ("-4m5s", -(4 * M + 5 * S)),
    ("1m0s", M),
    ("1h0m0s", H),
    ("15s", 15 * S),
    ("500ms", 500 * MS),
]


@pytest.mark.parametrize(("text", "value"), FORMAT_CASES, ids=[c[0] for c in FORMAT_CASES])
def test_format(text: str, value: timedelta) -> None:
    assert format_duration(value) == text


PARSE_CASES = [
    ("0", timedelta(0)),
    ("5s", 5 * S),
    ("30s", 30 * S),
    ("1478s", 1478 * S),
    ("-5s", -5 * S),
    ("+5s", 5 * S),
    ("-0", timedelta(0)),
    ("+0", timedelta(0)),
    ("5.0s", 5 * S),
    ("5.6s", 5600 * MS),
    ("5.s", 5 * S),
    (".5s", 500 * MS),
    ("1.0s", S),
    ("1.00s", S),
    ("1.004s", 1004 * MS),
    ("1.0040s", 1004 * MS),
    ("100.00100s", 100 * S + MS),
    ("11us", 11 * US),
    ("12µs", 12 * US),  # U+00B5 micro sign
    ("12μs", 12 * US),  # U+03BC Greek small letter mu
    ("13ms", 13 * MS),
    ("14s", 14 * S),
    ("15m", 15 * M),
    ("16h", 16 * H),
    ("3h30m", 3 * H + 30 * M),
    ("10.5s4m", 4 * M + 10500 * MS),
    ("-2m3.4s", -(2 * M + 3400 * MS)),
    ("1h2m3s4ms5us", H + 2 * M + 3 * S + 4 * MS + 5 * US),
    ("39h9m14.425s", 39 * H + 9 * M + 14425 * MS),
    ("52763797000ns", 52763797 * US),
    ("0.3333333333333333333h", 20 * M),
    ("0.100000000000000000000h", 6 * M),
]


@pytest.mark.parametrize(("text", "value"), PARSE_CASES, ids=[c[0] for c in PARSE_CASES])
def test_parse(text: str, value: timedelta) -> None:
    assert parse_duration(text) == value


@pytest.mark.parametrize("text", ["", "3", "-", "s", ".", "-.", ".s", "+.s", "1d", "1.5.5s", "5 s"])
def test_parse_rejects_what_go_rejects(text: str) -> None:
    with pytest.raises(ValueError, match=re.escape(f'invalid duration "{text}"')):
        parse_duration(text)


@given(st.timedeltas(min_value=-timedelta(days=9999), max_value=timedelta(days=9999)))
def test_format_then_parse_round_trips(value: timedelta) -> None:
    assert parse_duration(format_duration(value)) == value
