"""Metrics with upstream's names, labels and buckets, in a registry per scheduler; the clock."""

from __future__ import annotations

import pytest
from prometheus_client.parser import text_string_to_metric_families

from kubesched.scheduler.clock import SimulatedClock
from kubesched.scheduler.metrics import SchedulerMetrics, exponential_buckets


def _samples(metrics: SchedulerMetrics) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    text = metrics.exposition().decode()
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def test_upstream_names_labels_and_no_created_series() -> None:
    metrics = SchedulerMetrics()
    metrics.observe_attempt("scheduled", "default-scheduler", 0.003)
    metrics.observe_extension_point("Filter", "Success", "default-scheduler", 0.00015)
    metrics.observe_plugin("NodeName", "Filter", "Success", 0.00002)
    metrics.set_pending("active", 3)
    samples = _samples(metrics)
    profile = ("profile", "default-scheduler")
    assert samples[("scheduler_schedule_attempts_total", (profile, ("result", "scheduled")))] == 1
    bucket = (
        "scheduler_scheduling_attempt_duration_seconds_bucket",
        (("le", "0.004"), profile, ("result", "scheduled")),
    )
    assert samples[bucket] == 1
    point = (("extension_point", "Filter"), profile, ("status", "Success"))
    assert samples[("scheduler_framework_extension_point_duration_seconds_count", point)] == 1
    plugin = (("extension_point", "Filter"), ("plugin", "NodeName"), ("status", "Success"))
    assert samples[("scheduler_plugin_execution_duration_seconds_count", plugin)] == 1
    assert samples[("scheduler_pending_pods", (("queue", "active"),))] == 3
    assert not [name for name, _ in samples if name.endswith("_created")]


def test_each_scheduler_has_its_own_registry() -> None:
    first, second = SchedulerMetrics(), SchedulerMetrics()
    first.preemption_attempts.inc()
    assert _samples(first)[("scheduler_preemption_attempts_total", ())] == 1
    assert _samples(second)[("scheduler_preemption_attempts_total", ())] == 0


def test_buckets_as_upstream_declares_them() -> None:
    assert exponential_buckets(0.001, 2, 3) == [0.001, 0.002, 0.004]
    assert len(exponential_buckets(0.00001, 1.5, 20)) == 20


def test_simulated_clock_only_moves_forward() -> None:
    clock = SimulatedClock()
    assert clock.now() == 0.0
    clock.advance_to(12.5)
    assert clock.now() == 12.5
    with pytest.raises(ValueError, match="cannot move the clock back"):
        clock.advance_to(3.0)
