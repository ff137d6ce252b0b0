"""`Time`: RFC 3339 read exactly as Go's time.Parse(time.RFC3339, ...) reads it (what
metav1.Time decodes with), printed as Go's RFC3339Nano prints UTC, ordered by integer
nanoseconds. The tables are what Go answers for these inputs."""

from __future__ import annotations

import pickle
from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kubesched.api import InvalidTime, Time
from kubesched.api._time import as_time

S = 1_000_000_000
MAY_1 = 1_714_557_600  # 2024-05-01T10:00:00Z in Unix seconds


@pytest.mark.parametrize(
    ("text", "unix_nanos"),
    [
        ("2024-05-01T10:00:00Z", MAY_1 * S),
        ("2024-05-01T10:00:00.123456789Z", MAY_1 * S + 123_456_789),
        ("2024-05-01T10:00:00.000000001Z", MAY_1 * S + 1),
        ("2024-05-01T10:00:00.5Z", MAY_1 * S + 500_000_000),
        ("2024-05-01T10:00:00.500000000Z", MAY_1 * S + 500_000_000),
        ("2024-05-01T10:00:00,5Z", MAY_1 * S + 500_000_000),  # Go takes a comma too
        ("2024-05-01T10:00:00.1234567891Z", MAY_1 * S + 123_456_789),  # past 9 digits: cut
        ("2024-05-01T10:00:00.1234567899Z", MAY_1 * S + 123_456_789),  # ... not rounded
        ("2024-05-01T10:00:00.123456789123456789Z", MAY_1 * S + 123_456_789),
        ("2024-05-01T12:30:00+02:30", MAY_1 * S),
        ("2024-05-01T09:00:00-01:00", MAY_1 * S),
        ("2024-05-01T10:00:00-00:00", MAY_1 * S),
        ("2024-05-01T10:00:00.123+02:00", (MAY_1 - 7200) * S + 123_000_000),
        ("2024-05-01T10:00:00+24:00", (MAY_1 - 86400) * S),  # Go allows 24 hours
        ("2024-05-01T10:00:00+00:60", (MAY_1 - 3600) * S),  # ... and 60 minutes
        ("2024-05-01T9:00:00Z", (MAY_1 - 3600) * S),  # a one-digit hour, as Go's "15"
        ("2024-02-29T00:00:00Z", 1_709_164_800 * S),
        ("2000-02-29T00:00:00Z", 951_782_400 * S),
        ("1970-01-01T00:00:00Z", 0),
        ("1969-12-31T23:59:59.999999999Z", -1),
        ("0000-01-01T00:00:00Z", -62_167_219_200 * S),
        ("0000-01-01T00:00:00+01:00", -62_167_222_800 * S),
        ("9999-12-31T23:59:59.999999999-01:00", 253_402_304_399 * S + 999_999_999),
    ],
)
def test_parses_as_go_does(text: str, unix_nanos: int) -> None:
    assert Time.parse(text).unix_nanos == unix_nanos


@pytest.mark.parametrize(
    "text",
    [
        "",
        "yesterday",
        "2024-05-01t10:00:00Z",  # T and Z are upper case
        "2024-05-01T10:00:00z",
        "2024-05-01 10:00:00Z",
        "2024-05-01T10:00:00",  # no zone
        "2024-05-01T10:00:00UTC",
        "2024-05-01T10:00:00+0200",
        "2024-05-01T10:00:00+02",
        "2024-05-01T10:00:00+2:00",
        "2024-05-01T10:00:00+-5:30",
        "2024-05-01T10:00:00.Z",  # a point without digits
        "2024-05-01T10:00:00.-1Z",
        "2024-05-01T10:00:.5Z",  # the seconds are required
        "2024-05-01T10:00Z",
        "2024-05-01T09:0:00Z",
        "2024-05-01T1:0:0Z",
        "2024-5-01T09:00:00Z",
        "2024-05-1T09:00:00Z",
        "+2024-05-01T10:00:00Z",
        "02024-05-01T10:00:00Z",
        "12024-05-01T10:00:00Z",
        " 2024-05-01T10:00:00Z",
        "2024-05-01T10:00:00Z ",
        "2024-05-01T10:00:00ZZ",
        "\uff12\uff10\uff12\uff14-05-01T10:00:00Z",  # full-width digits
        "2024-05-01T10:00:00.\uff11Z",
    ],
)
def test_rejects_what_go_rejects(text: str) -> None:
    with pytest.raises(InvalidTime) as caught:
        Time.parse(text)
    assert caught.value.problem is None
    assert str(caught.value) == f"expected an RFC 3339 time like 2024-05-01T10:00:00Z, got {text!r}"


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("2024-13-01T00:00:00Z", "month out of range"),
        ("2024-00-01T00:00:00Z", "month out of range"),
        ("2024-05-00T00:00:00Z", "day out of range"),
        ("2024-04-31T00:00:00Z", "day out of range"),
        ("2023-02-29T00:00:00Z", "day out of range"),
        ("1900-02-29T00:00:00Z", "day out of range"),
        ("2024-05-01T24:00:00Z", "hour out of range"),
        ("2024-05-01T23:60:00Z", "minute out of range"),
        ("2024-05-01T23:59:60Z", "second out of range"),  # no leap seconds
        ("2024-05-01T10:00:00+25:00", "time zone offset hour out of range"),
        ("2024-05-01T10:00:00+00:61", "time zone offset minute out of range"),
    ],
)
def test_out_of_range_fields_are_named_as_go_names_them(text: str, problem: str) -> None:
    with pytest.raises(InvalidTime) as caught:
        Time.parse(text)
    assert caught.value.problem == problem
    assert str(caught.value) == f"invalid time {text!r}: {problem}"


@pytest.mark.parametrize(
    ("unix_nanos", "text"),
    [
        (MAY_1 * S, "2024-05-01T10:00:00Z"),
        (MAY_1 * S + 500_000_000, "2024-05-01T10:00:00.5Z"),
        (MAY_1 * S + 120_000_000, "2024-05-01T10:00:00.12Z"),
        (MAY_1 * S + 1, "2024-05-01T10:00:00.000000001Z"),
        (MAY_1 * S + 123_456_789, "2024-05-01T10:00:00.123456789Z"),
        (0, "1970-01-01T00:00:00Z"),
        (-1, "1969-12-31T23:59:59.999999999Z"),
        (-62_167_219_200 * S, "0000-01-01T00:00:00Z"),
        (-62_167_222_800 * S, "-0001-12-31T23:00:00Z"),  # Go pads after the sign
        (253_402_304_399 * S + 999_999_999, "10000-01-01T00:59:59.999999999Z"),
    ],
)
def test_prints_as_go_rfc3339nano_in_utc(unix_nanos: int, text: str) -> None:
    assert str(Time(unix_nanos)) == text
    assert repr(Time(unix_nanos)) == f"Time({text!r})"


def test_datetimes_convert_both_ways() -> None:
    aware = datetime(2024, 5, 1, 12, 0, 0, 250, tzinfo=timezone(timedelta(hours=2)))
    when = Time.from_datetime(aware)
    assert when.unix_nanos == MAY_1 * S + 250_000
    assert when.to_datetime() == aware
    assert when.to_datetime().tzinfo is timezone.utc
    assert Time.from_datetime(datetime(2024, 5, 1, 10)) == Time(MAY_1 * S)  # naive is UTC
    assert Time(MAY_1 * S + 1_999).to_datetime() == datetime(
        2024, 5, 1, 10, 0, 0, 1, tzinfo=timezone.utc
    )  # cut to the microsecond
    assert as_time(aware) == when and as_time(when) is when and as_time(None) is None


def test_arithmetic_with_timedeltas_and_truncation() -> None:
    when = Time(MAY_1 * S + 1_500)
    assert when + timedelta(seconds=1) == Time((MAY_1 + 1) * S + 1_500)
    assert when - timedelta(microseconds=1) == Time(MAY_1 * S + 500)
    assert when.truncate(S) == Time(MAY_1 * S)
    assert Time(-1).truncate(S) == Time(-S)


def test_a_value_equal_hashable_immutable_and_picklable() -> None:
    when = Time.parse("2024-05-01T10:00:00.000000500Z")
    same = Time.parse("2024-05-01T12:00:00.0000005+02:00")
    assert when == same and hash(when) == hash(same) and len({when, same}) == 1
    assert pickle.loads(pickle.dumps(when)) == when
    with pytest.raises(AttributeError):
        when.unix_nanos = 0  # type: ignore[misc]
    assert when != when.to_datetime()
    with pytest.raises(TypeError):
        _ = when < when.to_datetime()  # type: ignore[operator]


@pytest.mark.parametrize("bad", [1.5, True, "1", None])
def test_built_from_an_integer_only(bad: object) -> None:
    with pytest.raises(TypeError):
        Time(bad)  # type: ignore[arg-type]


def test_parse_takes_strings_only() -> None:
    with pytest.raises(TypeError):
        Time.parse(1714557600)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        as_time("2024-05-01T10:00:00Z")  # type: ignore[arg-type]


# Properties

FOUR_DIGIT_YEARS = st.integers(
    Time.parse("0000-01-01T00:00:00Z").unix_nanos,
    Time.parse("9999-12-31T23:59:59.999999999Z").unix_nanos,
)


@given(FOUR_DIGIT_YEARS)
def test_parse_reads_back_what_str_prints(unix_nanos: int) -> None:
    assert Time.parse(str(Time(unix_nanos))) == Time(unix_nanos)


@given(FOUR_DIGIT_YEARS, FOUR_DIGIT_YEARS)
def test_order_is_the_order_of_integer_nanoseconds(a: int, b: int) -> None:
    x, y = Time(a), Time(b)
    assert (x < y, x <= y, x == y, x != y, x >= y, x > y) == (
        a < b,
        a <= b,
        a == b,
        a != b,
        a >= b,
        a > b,
    )
    assert sorted([x, y]) == [Time(n) for n in sorted([a, b])]


def fields(when: datetime) -> str:
    """`YYYY-MM-DDTHH:MM:SS` (strftime's %Y does not pad years before 1000 everywhere)."""
    return f"{when.year:04d}-{when.month:02d}-{when.day:02d}T{when:%H:%M:%S}"


@given(
    st.datetimes(min_value=datetime(1, 1, 2), max_value=datetime(9999, 12, 30)),
    st.integers(0, 999),
    st.integers(-(24 * 60) + 1, 24 * 60 - 1),
    st.sampled_from([".", ","]),
)
def test_parse_agrees_with_python_dates_and_offsets(
    local: datetime, extra_nanos: int, offset_minutes: int, point: str
) -> None:
    """Any time Python can also represent: the fields and offset Python computes from,
    the fraction nine digits long."""
    sign = "-" if offset_minutes < 0 else "+"
    hours, minutes = divmod(abs(offset_minutes), 60)
    fraction = f"{local.microsecond:06d}{extra_nanos:03d}"
    text = f"{fields(local)}{point}{fraction}{sign}{hours:02d}:{minutes:02d}"
    zone = timezone(timedelta(minutes=offset_minutes))
    expected = Time.from_datetime(local.replace(tzinfo=zone)).unix_nanos + extra_nanos
    assert Time.parse(text).unix_nanos == expected


@given(st.datetimes(min_value=datetime(1, 1, 1), max_value=datetime(9999, 12, 31)))
def test_str_agrees_with_python_dates(when: datetime) -> None:
    text = str(Time.from_datetime(when))
    whole = fields(when)
    fraction = f".{when.microsecond:06d}".rstrip("0") if when.microsecond else ""
    assert text == f"{whole}{fraction}Z"
