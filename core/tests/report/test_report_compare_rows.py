"""The comparison page's metric rows: every config's mean, range and difference from the first,
and whether the difference reads as better or worse."""

from __future__ import annotations

from typing import Any

from kubesched.report._compare import metric_rows


def spread(mean: float, low: float | None = None, high: float | None = None) -> dict[str, float]:
    return {
        "mean": mean,
        "min": mean if low is None else low,
        "max": mean if high is None else high,
    }


def config(scheduled: float, cpu: float, reasons: dict[str, float]) -> dict[str, Any]:
    return {
        "metrics": {
            "spread": {
                "scheduled": spread(scheduled, scheduled - 1, scheduled + 1),
                "unschedulable": spread(10 - scheduled),
                "errors": spread(0),
                "preempted": spread(0),
                "unschedulableByReason": {k: spread(v) for k, v in reasons.items()},
                "utilisation": {"cpu": spread(cpu)},
                "fragmentation": {"cpu": spread(1 - cpu)},
            }
        }
    }


def test_rows_in_order_with_differences_from_the_first() -> None:
    rows = metric_rows(
        [config(8, 0.5, {"Insufficient cpu": 2}), config(9, 0.625, {"node(s) had taints": 1})]
    )
    names = [(r.group, r.name) for r in rows]
    assert names == [
        ("scheduled", "scheduled"),
        ("unschedulable", "unschedulable"),
        ("errors", "errors"),
        ("preempted", "preempted"),
        ("utilisation", "cpu"),
        ("fragmentation", "cpu"),
        ("unschedulableByReason", "Insufficient cpu"),
        ("unschedulableByReason", "node(s) had taints"),
    ]
    scheduled = rows[0]
    assert [(c.mean, c.low, c.high, c.delta) for c in scheduled.cells] == [
        (8, 7, 9, None),
        (9, 8, 10, 1),
    ]
    verdicts = {(r.group, r.name): r.verdict(r.cells[1]) for r in rows}
    assert verdicts[("scheduled", "scheduled")] == "better"
    assert verdicts[("unschedulable", "unschedulable")] == "better"  # one fewer
    assert verdicts[("utilisation", "cpu")] == "better"
    assert verdicts[("fragmentation", "cpu")] == "better"  # less fragmented
    assert verdicts[("unschedulableByReason", "Insufficient cpu")] == "better"  # 2 -> 0
    assert verdicts[("unschedulableByReason", "node(s) had taints")] == "worse"  # 0 -> 1
    assert verdicts[("errors", "errors")] == "same"
    assert [r.differs for r in rows][:4] == [True, True, False, False]


def test_replay_metrics_keep_the_documents_order_and_read_by_name() -> None:
    def replay(values: dict[str, float]) -> dict[str, Any]:
        return {"metrics": {"spread": {"replay": {k: spread(v) for k, v in values.items()}}}}

    first = {"events": 7, "latency_p99": 0, "utilisation_mean.cpu": 0.5, "state.Running": 8}
    second = {"events": 7, "latency_p99": 60, "utilisation_mean.cpu": 0.6, "state.Running": 9}
    rows = metric_rows([replay(first), replay(second)])
    assert [r.name for r in rows] == list(first)
    assert [r.ratio for r in rows] == [False, False, True, False]
    assert [r.verdict(r.cells[1]) for r in rows] == ["same", "worse", "better", "changed"]
