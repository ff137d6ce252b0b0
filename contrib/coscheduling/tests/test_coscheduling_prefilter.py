"""PreFilter: a member is turned away while its group cannot reach its minimum, backs off, or
was rejected as a whole and faces an unchanged cluster. After scheduler-plugins' TestPreFilter
(its minResources cases have no counterpart without the PodGroup resource)."""

from __future__ import annotations

import pytest
from coscheduling_testlib import member

from kubesched.api import Node, Pod
from kubesched.framework import Code, Status
from kubesched.testing import PluginHarness, make_node, make_pod
from kubesched_coscheduling import Coscheduling


def unresolvable(message: str) -> Status:
    return Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, message, plugin="Coscheduling")


def two_nodes() -> list[Node]:
    return [make_node(n).capacity(cpu="4").obj() for n in ("node-a", "node-b")]


GATE = "example-gate"
CASES = [
    pytest.param(
        make_pod("p").obj(),
        [member("p1", "pg1", 1).obj(), member("p2", "pg2", 1).obj()],
        None,
        id="pod does not belong to any pg",
    ),
    pytest.param(
        member("p", "pg-non-existent").obj(),
        [],
        None,
        id="pod belongs to a pg without a minimum",
    ),
    pytest.param(
        member("p", "pg1", 2).obj(),
        [member("pg2-1", "pg2", 2).obj()],
        unresolvable(
            "pre-filter pod p cannot find enough sibling pods, "
            "current pods number: 1, minMember of group: 2"
        ),
        id="pod count less than minMember",
    ),
    pytest.param(
        member("p1a", "pg1", 2).obj(),
        [member("p1b", "pg1", 2).obj()],
        None,
        id="pod count equal minMember",
    ),
    pytest.param(
        member("p1a", "pg1", 2).obj(),
        [member("p1b", "pg1", 2).obj(), member("p1c", "pg1", 2).obj()],
        None,
        id="pod count more than minMember",
    ),
    pytest.param(
        member("p1a", "pg1", 2).obj(),
        [member("p1b", "pg1", 2).obj(), member("p1c", "pg1", 2).scheduling_gates(GATE).obj()],
        None,
        id="gated pods but still meeting quorum",
    ),
    pytest.param(
        member("p1a", "pg1", 3).obj(),
        [member("p1b", "pg1", 3).scheduling_gates(GATE).obj(), member("p1c", "pg1", 3).obj()],
        unresolvable("pre-filter pod p1a cannot proceed due to gated pods in the same PodGroup"),
        id="gated pods push group below quorum",
    ),
    pytest.param(
        member("p1a", "pg1", 2).obj(),
        [
            member("p1b", "pg1", 2).scheduling_gates(GATE).obj(),
            member("p1c", "pg1", 2).scheduling_gates(GATE).obj(),
        ],
        unresolvable("pre-filter pod p1a cannot proceed due to gated pods in the same PodGroup"),
        id="all sibling pods are gated",
    ),
    pytest.param(
        member("p", "pg1", 2).obj(),
        [member("p-other", "pg1", 2, ns="other").obj()],
        unresolvable(
            "pre-filter pod p cannot find enough sibling pods, "
            "current pods number: 1, minMember of group: 2"
        ),
        id="a pod of another namespace is not a sibling",
    ),
    pytest.param(
        member("p", "pg1", 2).obj(),
        [member("p-running", "pg1", 2).node("node-a").obj()],
        None,
        id="a running sibling counts",
    ),
]


@pytest.mark.parametrize(("pod", "others", "want"), CASES)
def test_pre_filter(pod: Pod, others: list[Pod], want: Status | None) -> None:
    harness = PluginHarness(Coscheduling, nodes=two_nodes(), pods=[*others, pod])
    assert harness.pre_filter(pod) == want


def test_a_rejected_group_backs_off() -> None:
    """scheduler-plugins' TestPodGroupBackoffTime: PostFilter rejects pod2, pod3 is turned
    away while the group backs off."""
    pods = [member(f"pod{i}", "pg1", 3).obj() for i in (1, 2, 3)]
    harness = PluginHarness(
        Coscheduling, {"podGroupBackoffSeconds": 1}, nodes=two_nodes(), pods=pods
    )
    harness.post_filter(pods[1])
    harness.new_cycle()
    assert harness.pre_filter(pods[2]) == unresolvable("podGroup ns/pg1 failed recently")
    harness.advance(1)
    assert harness.pre_filter(pods[2]) == unresolvable(
        "podGroup ns/pg1 was rejected (Pod pod2 was unschedulable) and nothing has changed since"
    )


def test_no_backoff_for_a_group_that_misses_pods() -> None:
    pods = [member(f"pod{i}", "pg1", 3).obj() for i in (1, 2)]
    harness = PluginHarness(
        Coscheduling, {"podGroupBackoffSeconds": 100}, nodes=two_nodes(), pods=pods
    )
    harness.post_filter(pods[0])
    assert harness.pre_filter(pods[1]).message.startswith("pre-filter pod pod2 cannot find")


def test_a_rejected_group_waits_for_a_change_outside_it() -> None:
    pods = [member(f"pod{i}", "pg1", 2).obj() for i in (1, 2)]
    harness = PluginHarness(Coscheduling, nodes=two_nodes(), pods=pods)
    harness.reserve(pods[0], "node-a")
    harness.new_cycle()
    harness.post_filter(pods[1])
    harness.unreserve(pods[0], "node-a")
    harness.new_cycle()
    unchanged = unresolvable(
        "podGroup ns/pg1 was rejected (Pod pod2 was unschedulable) and nothing has changed since"
    )
    assert harness.pre_filter(pods[0]) == unchanged
    harness.post_filter(pods[0])
    assert harness.pre_filter(pods[0]) == unchanged  # the first cause stands
    harness.cache.add_pod(make_pod("web").namespace("ns").node("node-b").obj())
    harness.new_cycle()
    assert harness.pre_filter(pods[0]) is None


def test_a_new_member_is_a_change() -> None:
    pods = [member(f"pod{i}", "pg1", 2).obj() for i in (1, 2)]
    harness = PluginHarness(Coscheduling, nodes=two_nodes(), pods=pods)
    harness.post_filter(pods[0])
    assert harness.pre_filter(pods[0]) is not None
    harness.cluster.add_pod(member("pod3", "pg1", 2).obj())
    assert harness.pre_filter(pods[0]) is None
