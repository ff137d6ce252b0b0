"""Carrying out a preemption: upstream's TestPrepareCandidate (synchronous), plus
waiting victims, events and lower-priority nominations."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest
from attrs import evolve
from defaultpreemption_testlib import HIGH, LOW, MID, make_plugin

from kubesched.api import Pod, PodCondition
from kubesched.framework import Code, Status
from kubesched.testing import make_node, make_pod
from kubesched_defaultpreemption import Candidate
from kubesched_defaultpreemption.executor import disruption_condition, prepare_candidate

NODE1 = "node1"
PREEMPTOR = make_pod("preemptor").uid("preemptor").priority(HIGH).obj()
CONDITION = PodCondition(
    type="DisruptionTarget",
    status="True",
    reason="PreemptionByScheduler",
    message="default-scheduler: preempting to accommodate a higher priority pod",
)


def victim(name: str, priority: int = MID, *, with_condition: bool = False) -> Pod:
    pod = make_pod(name).uid(name).node(NODE1).priority(priority).obj()
    if with_condition:
        return evolve(pod, status=evolve(pod.status, conditions=[CONDITION]))
    return pod


TERMINATING = (
    make_pod("victim1-with-deletion-timestamp")
    .uid("victim1-with-deletion-timestamp")
    .node(NODE1)
    .priority(MID)
    .deletion_timestamp(datetime(2024, 1, 1, tzinfo=timezone.utc))
    .obj()
)


@pytest.mark.parametrize(
    ("victims", "fail_delete", "fail_patch", "deleted", "patched", "expected"),
    [
        pytest.param([], [], [], [], [], None, id="no victims"),
        pytest.param(
            [victim("victim1")], [], [], ["victim1"], ["victim1"], None,
            id="one victim without condition",
        ),
        pytest.param(
            [TERMINATING], [], [], [], [], None,
            id="one victim, but victim is already being deleted",
        ),
        pytest.param(
            [victim("victim1", with_condition=True)], [], [], ["victim1"], [], None,
            id="one victim with same condition",
        ),
        pytest.param(
            [victim("fail-victim", with_condition=True)], ["fail-victim"], [], [], [],
            Status(Code.ERROR, "delete pod failed"),
            id="one victim, but pod deletion failed",
        ),
        pytest.param(
            [victim("fail-victim")], [], ["fail-victim"], [], [],
            Status(Code.ERROR, "patch pod status failed"),
            id="one victim, but patch pod failed",
        ),
        pytest.param(
            [victim("fail-victim"), victim("victim2", 50000)], [], ["fail-victim"], [], [],
            Status(Code.ERROR, "patch pod status failed"),
            id="two victims without condition, the first fails and stops the second",
        ),
    ],
)  # fmt: skip
def test_prepare_candidate(
    victims: list[Pod],
    fail_delete: list[str],
    fail_patch: list[str],
    deleted: list[str],
    patched: list[str],
    expected: Status | None,
) -> None:
    _, handle = make_plugin(
        [make_node(NODE1).obj()], victims, fail_delete=fail_delete, fail_patch=fail_patch
    )
    got = prepare_candidate(handle, "test-plugin", Candidate(NODE1, tuple(victims)), PREEMPTOR)
    assert got == expected
    assert handle.client.deleted == deleted
    assert [(name, c) for name, c, _ in handle.client.patched] == [(n, CONDITION) for n in patched]
    assert [e[0] for e in handle.event_recorder.events] == deleted


def test_disruption_condition_names_the_preemptors_scheduler() -> None:
    preemptor = make_pod("p").scheduler_name("my-scheduler").obj()
    assert disruption_condition(preemptor).message == (
        "my-scheduler: preempting to accommodate a higher priority pod"
    )


def test_waiting_victim_is_rejected_not_deleted() -> None:
    waiting = victim("waiting")
    _, handle = make_plugin([make_node(NODE1).obj()], [waiting], waiting=[waiting])
    got = prepare_candidate(handle, "DefaultPreemption", Candidate(NODE1, (waiting,)), PREEMPTOR)
    assert got is None
    assert handle.waiting[waiting.uid].rejected == [("DefaultPreemption", "preempted")]
    assert handle.client.deleted == []
    assert handle.client.patched == []
    assert handle.event_recorder.events == [
        ("waiting", "Normal", "Preempted", "Preempting", "Preempted by pod preemptor on node node1")
    ]


def test_lower_priority_nominations_on_the_node_are_cleared() -> None:
    low = make_pod("low").uid("low").priority(LOW).nominated_node_name(NODE1).obj()
    equal = make_pod("equal").uid("equal").priority(HIGH).nominated_node_name(NODE1).obj()
    elsewhere = make_pod("elsewhere").uid("elsewhere").priority(LOW).obj()
    _, handle = make_plugin(
        [make_node(NODE1).obj(), make_node("node2").obj()],
        nominated={NODE1: [low, equal], "node2": [elsewhere]},
    )
    got = prepare_candidate(handle, "DefaultPreemption", Candidate(NODE1, ()), PREEMPTOR)
    assert got is None
    assert handle.client.patched == [("low", None, "")]


def test_a_nomination_that_cannot_be_cleared_is_not_an_error() -> None:
    low = make_pod("low").uid("low").priority(LOW).nominated_node_name(NODE1).obj()
    _, handle = make_plugin([make_node(NODE1).obj()], nominated={NODE1: [low]}, fail_patch=["low"])
    assert prepare_candidate(handle, "DefaultPreemption", Candidate(NODE1, ()), PREEMPTOR) is None
