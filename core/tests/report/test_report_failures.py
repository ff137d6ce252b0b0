"""Failures grouped by the reasons in kube-scheduler's FailedScheduling message."""

from __future__ import annotations

from typing import Any

from kubesched.report._failures import failure_groups, reasons_of

TAINT_CPU = (
    "0/5 nodes are available: 2 node(s) had untolerated taint(s), 3 Insufficient cpu, "
    "3 Insufficient memory. preemption: 0/5 nodes are available: 2 Preemption is not helpful "
    "for scheduling, 3 No preemption victims found for incoming pod."
)
AFFINITY = (
    "0/5 nodes are available: 2 node(s) had untolerated taint(s), 3 node(s) didn't match "
    "Pod's node affinity/selector. preemption: 0/5 nodes are available: 5 Preemption is not "
    "helpful for scheduling."
)


def result(pod: str, status: str, message: str) -> dict[str, Any]:
    return {"pod": pod, "status": status, "message": message}


def test_reasons_and_node_counts_come_from_the_message() -> None:
    assert reasons_of(TAINT_CPU) == [
        ("node(s) had untolerated taint(s)", 2),
        ("Insufficient cpu", 3),
        ("Insufficient memory", 3),
    ]


def test_a_message_without_preemption_part_still_splits() -> None:
    assert reasons_of("0/2 nodes are available: 2 Insufficient cpu.") == [("Insufficient cpu", 2)]


def test_a_message_of_another_shape_is_one_uncounted_reason() -> None:
    assert reasons_of("waiting for scheduling gates: [example.com/gate]") == [
        ("waiting for scheduling gates: [example.com/gate]", None)
    ]
    assert reasons_of("") == [("(no message)", None)]


def test_groups_count_pods_and_sum_nodes_most_pods_first() -> None:
    groups = failure_groups(
        [
            result("a/one", "Unschedulable", TAINT_CPU),
            result("a/two", "Unschedulable", AFFINITY),
            result("a/ok", "Scheduled", ""),
            result("a/three", "Error", 'running Filter plugin "X": boom'),
        ]
    )
    first = groups[0]
    assert (first.reason, first.pods, first.nodes) == ("node(s) had untolerated taint(s)", 2, 4)
    assert first.examples == ("a/one", "a/two")
    by_reason = {g.reason: g for g in groups}
    assert by_reason["Insufficient cpu"].pods == 1
    assert by_reason["Insufficient cpu"].nodes == 3
    error = by_reason['running Filter plugin "X": boom']
    assert (error.status, error.pods, error.nodes) == ("Error", 1, None)
    assert "a/ok" not in {pod for g in groups for pod in g.examples}


def test_examples_are_capped() -> None:
    groups = failure_groups([result(f"a/p{i}", "Unschedulable", AFFINITY) for i in range(12)])
    assert groups[0].pods == 12
    assert len(groups[0].examples) == 5
