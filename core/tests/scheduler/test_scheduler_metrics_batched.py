"""Durations added in batches give the same exposition as observing them one by one."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st
from prometheus_client import CollectorRegistry, Histogram, generate_latest

from kubesched.scheduler.metrics import FLUSH_EVERY, SchedulerMetrics, observe_all

BOUNDS = [0.0001 * 2**i for i in range(12)]
amounts = st.lists(
    st.one_of(
        st.floats(min_value=-1, max_value=10),
        st.just(math.inf),
        st.just(math.nan),
        st.sampled_from(BOUNDS),  # exactly on a bound: that bucket, as observe does
    ),
    max_size=60,
)


def _histogram() -> tuple[CollectorRegistry, Histogram]:
    registry = CollectorRegistry()
    return registry, Histogram("h", "help", ["a"], buckets=BOUNDS, registry=registry)


@given(amounts, st.integers(min_value=1, max_value=7))
@settings(max_examples=200, deadline=None)
def test_observe_all_equals_observe_each(values: list[float], parts: int) -> None:
    one_by_one, slow = _histogram()
    batched, fast = _histogram()
    for v in values:
        slow.labels("x").observe(v)
    size = max(1, math.ceil(len(values) / parts))
    for i in range(0, len(values), size):
        observe_all(fast.labels("x"), values[i : i + size])
    assert generate_latest(batched) == generate_latest(one_by_one)


def test_scheduler_metrics_show_held_back_durations_when_read() -> None:
    metrics = SchedulerMetrics()
    for i in range(FLUSH_EVERY + 5):  # one batch added on the way, five held until read
        metrics.observe_extension_point("Filter", "Success", "default-scheduler", i * 1e-5)
        metrics.observe_plugin("NodeName", "Filter", "Success", 2e-5)
    text = metrics.exposition().decode()
    count = FLUSH_EVERY + 5
    assert (
        'scheduler_framework_extension_point_duration_seconds_count{extension_point="Filter",'
        f'profile="default-scheduler",status="Success"}} {float(count)}'
    ) in text
    assert (
        'scheduler_plugin_execution_duration_seconds_count{extension_point="Filter",'
        f'plugin="NodeName",status="Success"}} {float(count)}'
    ) in text
    total = 0.0
    for i in range(count):
        total += i * 1e-5
    assert (
        'scheduler_framework_extension_point_duration_seconds_sum{extension_point="Filter",'
        f'profile="default-scheduler",status="Success"}} {total!r}'
    ) in text
    assert metrics.registry.get_sample_value(
        "scheduler_plugin_execution_duration_seconds_count",
        {"plugin": "NodeName", "extension_point": "Filter", "status": "Success"},
    ) == float(count)


def test_reading_from_another_thread_loses_no_duration() -> None:
    import threading

    metrics = SchedulerMetrics()
    count = 3 * FLUSH_EVERY + 17
    done = threading.Event()

    def observe() -> None:
        for _ in range(count):
            metrics.observe_extension_point("Score", "Success", "p", 1e-4)
        done.set()

    thread = threading.Thread(target=observe)
    thread.start()
    while not done.is_set():
        metrics.exposition()  # /metrics, served on a thread of its own
    thread.join()
    labels = {"extension_point": "Score", "status": "Success", "profile": "p"}
    name = "scheduler_framework_extension_point_duration_seconds_count"
    assert metrics.registry.get_sample_value(name, labels) == float(count)
