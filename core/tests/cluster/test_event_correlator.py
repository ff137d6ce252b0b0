"""client-go's EventCorrelator: similar events aggregate, a spamming object is throttled."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from kubesched.cluster.apiserver.events import AGGREGATED_PREFIX, EventCorrelator

KEY = ("Warning", "Scheduling", "FailedScheduling", "my-scheduler", "name=p")


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_the_tenth_different_message_within_ten_minutes_is_aggregated() -> None:
    correlator = EventCorrelator(clock=Clock())
    notes = [correlator.correlate(KEY, f"message {i}") for i in range(11)]
    assert notes[:9] == [f"message {i}" for i in range(9)]
    assert notes[9] == AGGREGATED_PREFIX + "message 9"
    assert notes[10] == AGGREGATED_PREFIX + "message 10"


def test_similar_events_ten_minutes_apart_start_over() -> None:
    clock = Clock()
    correlator = EventCorrelator(clock=clock, refill_seconds=1.0)
    for i in range(9):
        correlator.correlate(KEY, f"message {i}")
    clock.now = 601.0
    assert correlator.correlate(KEY, "message 9") == "message 9"


def test_the_spam_filter_lets_25_through_then_one_every_five_minutes() -> None:
    clock = Clock()
    correlator = EventCorrelator(clock=clock)
    passed = [correlator.correlate(KEY, "same") for _ in range(30)]
    assert passed.count(None) == 5 and None not in passed[:25]
    clock.now = 299.0
    assert correlator.correlate(KEY, "same") is None
    clock.now = 300.0 + 1.0
    assert correlator.correlate(KEY, "same") == "same"
    other = ("Warning", "Scheduling", "FailedScheduling", "my-scheduler", "name=q")
    assert correlator.correlate(other, "same") == "same"  # per object
    assert correlator.dropped == 6


@given(st.lists(st.floats(min_value=0, max_value=3600), min_size=1, max_size=200))
def test_never_more_than_the_burst_plus_the_refill_pass(times: list[float]) -> None:
    clock = Clock()
    correlator = EventCorrelator(clock=clock)
    passed = 0
    for when in sorted(times):
        clock.now = when
        passed += correlator.correlate(KEY, "same") is not None
    span = max(times) - min(times)
    assert passed <= 25 + int(span / 300.0) + 1
