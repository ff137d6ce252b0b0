"""PostFilter over a fake Handle: upstream's TestPodEligibleToPreemptOthers, and what
PostFilter says and does when it cannot preempt. (Upstream's TestPostFilter and
TestPreempt tables run through the real Framework in tests/e2e/test_preemption_runtime.py.)"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timezone

import pytest
from defaultpreemption_testlib import (
    HIGH,
    LOW,
    SMALL,
    VERY_LARGE,
    ErrorOnLabelExtensions,
    make_plugin,
)

from kubesched.api import Node, Pod
from kubesched.framework import Code, CycleState, Status
from kubesched.testing import make_node, make_pod
from kubesched_defaultpreemption.dry_run import DryRunResult

U = Status(Code.UNSCHEDULABLE)
UU = Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE)
ONE_POD = {"pods": 1}
DEFAULT = "default"


def pod(name: str, priority: int | None = None, node: str = "", **labels: str) -> Pod:
    builder = make_pod(name).uid(name).namespace(DEFAULT).labels(labels)
    if priority is not None:
        builder = builder.priority(priority)
    return (builder.node(node) if node else builder).obj()


def node(name: str, capacity: Mapping[str, str | int], **labels: str) -> Node:
    return make_node(name).capacity(capacity).labels(labels).obj()


def test_no_nodes_at_all_is_an_error() -> None:
    plugin, _ = make_plugin([])
    got = plugin.post_filter(CycleState(), pod("p", HIGH), {})
    assert got == Status(Code.ERROR, "preemption: no nodes available")


# upstream: TestPodEligibleToPreemptOthers
TERMINATING = datetime(2024, 1, 1, tzinfo=timezone.utc)


def victim_on_node1(*, preempted: bool) -> Pod:
    builder = make_pod("p1").uid("p1").priority(LOW).node("node1").deletion_timestamp(TERMINATING)
    if preempted:
        builder = builder.condition("DisruptionTarget", "True", "PreemptionByScheduler")
    return builder.obj()


NOMINATED = make_pod("p_with_nominated_node").uid("p").priority(HIGH).nominated_node_name("node1")


@pytest.mark.parametrize(
    ("preemptor", "pods", "nominated_status", "expected"),
    [
        pytest.param(
            NOMINATED.obj(),
            [victim_on_node1(preempted=False)],
            Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, "node(s) had untolerated taint(s)"),
            (True, ""),
            id="Pod with nominated node",
        ),
        pytest.param(
            make_pod("p_without_nominated_node").uid("p").priority(HIGH).obj(),
            [],
            UU,
            (True, ""),
            id="Pod without nominated node",
        ),
        pytest.param(
            make_pod("p_with_preempt_never_policy")
            .uid("p")
            .priority(HIGH)
            .preemption_policy("Never")
            .obj(),
            [],
            UU,
            (False, "not eligible due to preemptionPolicy=Never."),
            id="Pod with 'PreemptNever' preemption policy",
        ),
        pytest.param(
            NOMINATED.obj(),
            [victim_on_node1(preempted=True)],
            U,
            (False, "not eligible due to a terminating pod on the nominated node."),
            id="preemption victim pod terminating, as the DisruptionTarget condition shows",
        ),
        pytest.param(
            NOMINATED.obj(),
            [victim_on_node1(preempted=False)],
            U,
            (True, ""),
            id="non-victim Pods terminating",
        ),
    ],
)
def test_pod_eligible_to_preempt_others(
    preemptor: Pod, pods: list[Pod], nominated_status: Status, expected: tuple[bool, str]
) -> None:
    plugin, _ = make_plugin([make_node("node1").obj()], pods)
    assert plugin.pod_eligible_to_preempt_others(preemptor, nominated_status) == expected


def test_ineligible_pod_gets_prefixed_reason_and_nothing_is_evicted() -> None:
    victims = [
        make_pod("p1.1").uid("p1.1").node("node1").priority(LOW).req(SMALL).obj(),
        make_pod("p1.2").uid("p1.2").node("node1").priority(LOW).req(SMALL).obj(),
    ]
    plugin, handle = make_plugin([make_node("node1").capacity(VERY_LARGE).obj()], victims)
    preemptor = (
        make_pod("p").uid("p").priority(HIGH).req(VERY_LARGE).preemption_policy("Never").obj()
    )
    got = plugin.post_filter(CycleState(), preemptor, {"node1": U})
    assert got == Status(
        Code.UNSCHEDULABLE, "preemption: not eligible due to preemptionPolicy=Never."
    )
    assert handle.client.deleted == []
    assert handle.client.patched == []


def test_no_candidates_clears_the_pods_own_nomination() -> None:
    plugin, handle = make_plugin([node("node1", ONE_POD)], [pod("p1", HIGH, "node1")])
    preemptor = make_pod("p").uid("p").priority(HIGH).nominated_node_name("node1").obj()
    got = plugin.post_filter(CycleState(), preemptor, {"node1": U})
    assert isinstance(got, Status)
    assert got.code == Code.UNSCHEDULABLE
    assert handle.client.patched == [("p", None, "")]


def test_extension_errors_on_every_node_become_one_error() -> None:
    """A failing RemovePod on every candidate node: the dry-run errors, aggregated as
    upstream's error aggregate prints them (duplicates once), make an Error."""
    nodes = [node("node1", VERY_LARGE, error="true"), node("node2", VERY_LARGE, error="true")]
    pods = [pod("p1", LOW, "node1"), pod("p2", LOW, "node2")]
    plugin, handle = make_plugin(nodes, pods, extensions=[ErrorOnLabelExtensions()])
    got = plugin.post_filter(CycleState(), pod("p", HIGH), {"node1": U, "node2": U})
    assert got == Status(
        Code.ERROR,
        'preemption: running RemovePod on PreFilter plugin "test-plugin": failed to remove pod: p',
    )
    assert handle.client.deleted == []


@pytest.mark.parametrize(
    ("errors", "message"),
    [
        (["a"], "a"),
        (["a", "a"], "a"),
        (["a", "b", "a"], "[a, b]"),
    ],
)
def test_dry_run_error_message(errors: list[str], message: str) -> None:
    assert DryRunResult([], {}, errors).error_message() == message
