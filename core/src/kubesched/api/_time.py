"""`Time`: an instant with nanosecond precision, as Go's `metav1.Time` holds one.

A `Time` is a whole number of nanoseconds since the Unix epoch, in UTC. One integer
makes ordering, equality and hashing exact and cheap (preemption breaks ties on start
times that may be under a microsecond apart, where a `datetime` would round them
together), has no naive/aware ambiguity, and reaches the years before 1 and after 9999
that Go's parser can produce from an offset.

`Time.parse` takes exactly what Go's `time.Parse(time.RFC3339, ...)` takes, which is what
`metav1.Time` decodes with: `YYYY-MM-DDTHH:MM:SS` (the hour may have one digit; `T` and
`Z` are upper case), an optional fraction after `.` or `,` of any length (digits past the
ninth are dropped, not rounded), then `Z` or `+hh:mm`/`-hh:mm` (up to 24 hours and 60
minutes, as Go allows). `str(t)` prints RFC 3339 in UTC with the fraction's trailing
zeros trimmed (Go's RFC3339Nano), so whole seconds print exactly as `metav1.Time`
marshals them.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from typing import Any, Final, final

NANOS_PER_SECOND: Final = 1_000_000_000
_SECONDS_PER_DAY: Final = 86_400
_EPOCH: Final = datetime(1970, 1, 1, tzinfo=timezone.utc)
_MICROSECOND: Final = timedelta(microseconds=1)

EXAMPLE: Final = "2024-05-01T10:00:00Z"
"""An RFC 3339 time, for messages that say what was expected."""

_RFC3339 = re.compile(
    r"(([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{1,2}):([0-9]{2}):([0-9]{2}))"
    r"(?:[.,]([0-9]+))?(Z|([+-])([0-9]{2}):([0-9]{2}))"
)
_DAYS_IN_MONTH = (0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)
_NAIVE_EPOCH: Final = datetime(1970, 1, 1)
_SECOND: Final = timedelta(seconds=1)
_CACHE: dict[str, Time] = {}
_CACHE_SIZE: Final = 4096


class InvalidTime(ValueError):
    """Text that is not a time: `problem` says which part is out of range (Go's wording,
    `month out of range`), or is None when the text is not RFC 3339 at all."""

    def __init__(self, text: str, problem: str | None) -> None:
        self.text = text
        self.problem = problem
        if problem is None:
            super().__init__(f"expected an RFC 3339 time like {EXAMPLE}, got {text!r}")
        else:
            super().__init__(f"invalid time {text!r}: {problem}")


@final
class Time:
    """An instant: `unix_nanos` nanoseconds since 1970-01-01T00:00:00Z. Immutable, ordered,
    hashable; build one with `Time.parse`, `Time.from_datetime`, `Time.now` or from an
    integer."""

    __slots__ = ("unix_nanos",)
    unix_nanos: int

    def __init__(self, unix_nanos: int) -> None:
        if type(unix_nanos) is not int:
            raise TypeError(f"Time takes integer nanoseconds, got {unix_nanos!r}")
        _SET_NANOS(self, unix_nanos)

    @staticmethod
    def parse(text: str) -> Time:
        """The time `text` stands for, read as `metav1.Time` reads it; `InvalidTime` if it
        is not one. Repeated texts share one parse."""
        if not isinstance(text, str):
            raise TypeError(f"Time.parse takes a string, got {text!r}")
        return parse_time(text)

    @classmethod
    def from_datetime(cls, when: datetime) -> Time:
        """The same instant as `when`; a naive datetime is taken as UTC."""
        if when.tzinfo is None:
            when = when.replace(tzinfo=timezone.utc)
        return cls((when - _EPOCH) // _MICROSECOND * 1000)

    @classmethod
    def now(cls) -> Time:
        """The wall clock's time."""
        return cls(time.time_ns())

    def to_datetime(self) -> datetime:
        """An aware UTC datetime, cut to whole microseconds (the finest a datetime holds)."""
        return _EPOCH + timedelta(microseconds=self.unix_nanos // 1000)

    def truncate(self, step_nanos: int) -> Time:
        """This time rounded down to a multiple of `step_nanos` (`NANOS_PER_SECOND` gives
        the second precision `metav1.Time` keeps when marshalled)."""
        return Time(self.unix_nanos - self.unix_nanos % step_nanos)

    def __add__(self, delta: timedelta) -> Time:
        if not isinstance(delta, timedelta):
            return NotImplemented
        return Time(self.unix_nanos + delta // _MICROSECOND * 1000)

    def __sub__(self, delta: timedelta) -> Time:
        if not isinstance(delta, timedelta):
            return NotImplemented
        return Time(self.unix_nanos - delta // _MICROSECOND * 1000)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"Time is immutable; cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"Time is immutable; cannot delete {name!r}")

    def __reduce__(self) -> tuple[type[Time], tuple[int]]:
        return Time, (self.unix_nanos,)

    def __eq__(self, other: object) -> bool:
        if type(other) is Time:
            return self.unix_nanos == other.unix_nanos
        return NotImplemented

    def __hash__(self) -> int:
        return hash((Time, self.unix_nanos))

    def __lt__(self, other: Time) -> bool:
        if type(other) is Time:
            return self.unix_nanos < other.unix_nanos
        return NotImplemented

    def __le__(self, other: Time) -> bool:
        if type(other) is Time:
            return self.unix_nanos <= other.unix_nanos
        return NotImplemented

    def __gt__(self, other: Time) -> bool:
        if type(other) is Time:
            return self.unix_nanos > other.unix_nanos
        return NotImplemented

    def __ge__(self, other: Time) -> bool:
        if type(other) is Time:
            return self.unix_nanos >= other.unix_nanos
        return NotImplemented

    def __str__(self) -> str:
        return format_time(self)

    def __repr__(self) -> str:
        return f"Time({format_time(self)!r})"


_SET_NANOS: Final[Callable[[Time, int], None]] = Time.__dict__["unix_nanos"].__set__
"""Sets the slot past `Time.__setattr__`, which refuses every change."""


def as_time(when: Time | datetime | None) -> Time | None:
    """`when` as a `Time` (a datetime converted, a naive one taken as UTC); None stays None.
    The converter of every time field, so code that sets one from a datetime keeps working."""
    if when is None or type(when) is Time:
        return when
    if isinstance(when, datetime):
        return Time.from_datetime(when)
    raise TypeError(f"expected a Time or a datetime, got {when!r}")


def _is_leap(year: int) -> bool:
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)


def _days_in(month: int, year: int) -> int:
    return 29 if month == 2 and _is_leap(year) else _DAYS_IN_MONTH[month]


def _days_from_civil(year: int, month: int, day: int) -> int:
    """Days since 1970-01-01 of a proleptic Gregorian date (any year)."""
    year -= month <= 2
    era, year_of_era = divmod(year, 400)
    day_of_year = (153 * ((month + 9) % 12) + 2) // 5 + day - 1
    day_of_era = year_of_era * 365 + year_of_era // 4 - year_of_era // 100 + day_of_year
    return era * 146_097 + day_of_era - 719_468


def _civil_from_days(days: int) -> tuple[int, int, int]:
    """The proleptic Gregorian (year, month, day) `days` after 1970-01-01."""
    era, day_of_era = divmod(days + 719_468, 146_097)
    year_of_era = (
        day_of_era - day_of_era // 1460 + day_of_era // 36_524 - day_of_era // 146_096
    ) // 365
    day_of_year = day_of_era - (365 * year_of_era + year_of_era // 4 - year_of_era // 100)
    shifted_month = (5 * day_of_year + 2) // 153
    day = day_of_year - (153 * shifted_month + 2) // 5 + 1
    month = shifted_month + 3 if shifted_month < 10 else shifted_month - 9
    return year_of_era + era * 400 + (month <= 2), month, day


def parse_time(text: str) -> Time:
    """`Time.parse` for a string known to be one. Repeated texts (pods created in the same
    second, conditions that moved together) share one parse, from a small cache that is
    emptied when full."""
    cached = _CACHE.get(text)
    if cached is not None:
        return cached
    parsed = _parse(text)
    if len(_CACHE) >= _CACHE_SIZE:
        _CACHE.clear()
    _CACHE[text] = parsed
    return parsed


def _parse(text: str) -> Time:
    matched = _RFC3339.fullmatch(text)
    if matched is None:
        raise InvalidTime(text, None)
    clock, fraction, zone = matched.group(1, 8, 9)
    nanos = int(fraction[:9].ljust(9, "0")) if fraction else 0
    if zone == "Z" and len(clock) == 19 and clock[11:13] < "24" and clock[:4] != "0000":
        try:  # the common shape, through the C datetime type, which checks the ranges
            local = datetime.fromisoformat(clock)
        except ValueError:
            pass  # a field out of range: found and named below
        else:
            return Time((local - _NAIVE_EPOCH) // _SECOND * NANOS_PER_SECOND + nanos)
    return Time(_seconds(text, matched) * NANOS_PER_SECOND + nanos)


def _seconds(text: str, matched: re.Match[str]) -> int:
    """Whole seconds since the epoch of a matched time, or the first field out of range in
    the order Go's parser meets them (the day last, against its month and year)."""
    year, month, day, hour, minute, second = map(int, matched.group(2, 3, 4, 5, 6, 7))
    problem = (
        "month out of range" if not 1 <= month <= 12
        else "hour out of range" if hour > 23
        else "minute out of range" if minute > 59
        else "second out of range" if second > 59
        else None
    )  # fmt: skip
    if problem is not None:
        raise InvalidTime(text, problem)
    offset = 0
    sign, zone_hours, zone_minutes = matched.group(10, 11, 12)
    if sign is not None:
        if int(zone_hours) > 24:
            raise InvalidTime(text, "time zone offset hour out of range")
        if int(zone_minutes) > 60:
            raise InvalidTime(text, "time zone offset minute out of range")
        offset = (int(zone_hours) * 60 + int(zone_minutes)) * 60 * (-1 if sign == "-" else 1)
    if not 1 <= day <= _days_in(month, year):
        raise InvalidTime(text, "day out of range")
    days = _days_from_civil(year, month, day)
    return days * _SECONDS_PER_DAY + hour * 3600 + minute * 60 + second - offset


def format_time(when: Time) -> str:
    """RFC 3339 in UTC, the fraction's trailing zeros trimmed (Go's RFC3339Nano):
    `2024-05-01T10:00:00Z`, `2024-05-01T10:00:00.5Z`, `...T10:00:00.000000001Z`."""
    seconds, nanos = divmod(when.unix_nanos, NANOS_PER_SECOND)
    days, clock = divmod(seconds, _SECONDS_PER_DAY)
    year, month, day = _civil_from_days(days)
    hour, rest = divmod(clock, 3600)
    minute, second = divmod(rest, 60)
    # Go pads the year to four digits after its sign: -0001, 0000, 10000.
    sign = "-" if year < 0 else ""
    text = f"{sign}{abs(year):04d}-{month:02d}-{day:02d}T{hour:02d}:{minute:02d}:{second:02d}"
    if nanos:
        text += "." + f"{nanos:09d}".rstrip("0")
    return text + "Z"
