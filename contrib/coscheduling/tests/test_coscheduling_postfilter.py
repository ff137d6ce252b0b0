"""PostFilter: when a member fits nowhere, reject the group's waiting members, unless enough of
the group is placed. After scheduler-plugins' TestPostFilter and TestPostFilterRejectThreshold."""

from __future__ import annotations

import pytest
from coscheduling_testlib import member

from kubesched.api import Pod
from kubesched.framework import Code, Status
from kubesched.testing import PluginHarness, make_node, make_pod
from kubesched_coscheduling import Coscheduling

NODE = make_node("node").capacity(cpu="4").obj()


def unschedulable(*reasons: str) -> Status:
    return Status(Code.UNSCHEDULABLE, *reasons, plugin="Coscheduling")


def rejection(pod: str = "p") -> Status:
    return unschedulable(
        f"PodGroup ns/pg1 gets rejected due to Pod {pod} is unschedulable even after PostFilter"
    )


@pytest.mark.parametrize(
    ("pod", "running", "want"),
    [
        pytest.param(
            make_pod("p").namespace("ns").obj(),
            [],
            unschedulable("can not find pod group"),
            id="pod does not belong to any pod group",
        ),
        pytest.param(
            member("p", "pg1", 1).obj(),
            [member("p1", "pg1", 1).node("node").obj()],
            unschedulable(),
            id="enough pods assigned, do not reject all",
        ),
        pytest.param(
            member("p", "pg1", 2).obj(),
            [member("p1", "pg1", 2).node("node").obj()],
            rejection(),
            id="pod failed at filter phase, reject all pods",
        ),
    ],
)
def test_post_filter(pod: Pod, running: list[Pod], want: Status) -> None:
    harness = PluginHarness(Coscheduling, nodes=[NODE], pods=[*running, pod])
    assert harness.post_filter(pod) == want


@pytest.mark.parametrize(
    ("percentage", "min_member", "assigned", "rejected"),
    [
        pytest.param(10, 10, 9, False, id="default 10%: 9/10 assigned (10% gap)"),
        pytest.param(10, 10, 8, True, id="default 10%: 8/10 assigned (20% gap)"),
        pytest.param(0, 10, 9, True, id="0%: 9/10 assigned (always reject)"),
        pytest.param(100, 10, 0, False, id="100%: 0/10 assigned (never reject)"),
        pytest.param(50, 10, 6, False, id="50%: 6/10 assigned (40% gap)"),
        pytest.param(50, 10, 4, True, id="50%: 4/10 assigned (60% gap)"),
    ],
)
def test_reject_threshold(percentage: int, min_member: int, assigned: int, rejected: bool) -> None:
    running = [
        member(f"assigned-{i}", "pg1", min_member).node("node").obj() for i in range(assigned)
    ]
    pod = member("p", "pg1", min_member).obj()
    harness = PluginHarness(
        Coscheduling,
        {"podGroupRejectPercentage": percentage},
        nodes=[make_node("node").capacity(cpu="4", pods=20).obj()],
        pods=[*running, pod],
    )
    assert harness.post_filter(pod) == (rejection() if rejected else unschedulable())


def test_rejection_rejects_only_the_groups_waiting_members() -> None:
    waiting = [member(f"w{i}", "pg1", 4).obj() for i in range(2)]
    other = member("q", "pg2", 2).obj()
    failed = member("p", "pg1", 4).obj()
    harness = PluginHarness(Coscheduling, nodes=[NODE], pods=[*waiting, other, failed])
    for pod in [*waiting, other]:
        harness.new_cycle()
        harness.reserve(pod, "node")
        harness.permit(pod, "node")
    harness.new_cycle()
    assert harness.post_filter(failed) == rejection()
    optimistic = unschedulable("optimistic rejection in PostFilter")
    assert [harness.framework.wait_on_permit(p) for p in waiting] == [optimistic, optimistic]
    assert harness.framework.get_waiting_pod(other.uid).status is None


def test_waiting_members_are_not_rejected_when_the_gap_is_small() -> None:
    waiting = [member(f"w{i}", "pg1", 10).obj() for i in range(9)]
    failed = member("p", "pg1", 10).obj()
    harness = PluginHarness(
        Coscheduling,
        nodes=[make_node("node").capacity(cpu="4", pods=20).obj()],
        pods=[*waiting, failed],
    )
    for pod in waiting:
        harness.new_cycle()
        harness.reserve(pod, "node")
        harness.permit(pod, "node")
    harness.new_cycle()
    assert harness.post_filter(failed) == unschedulable()
    assert all(harness.framework.get_waiting_pod(p.uid).status is None for p in waiting)
