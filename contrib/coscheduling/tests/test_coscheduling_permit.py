"""Permit holds members until their group's minimum is reserved, then lets them all bind;
Unreserve rejects the group's other waiting members. After scheduler-plugins' TestPermit."""

from __future__ import annotations

import pytest
from coscheduling_testlib import member

from kubesched.api import Node, Pod
from kubesched.framework import (
    ActionType,
    ClusterEvent,
    Code,
    EventResource,
    QueueingHint,
    Status,
)
from kubesched.testing import PluginHarness, make_node, make_pod
from kubesched_coscheduling import Coscheduling


def node() -> Node:
    return make_node("node").capacity(cpu="4").obj()


def waiting(pod: Pod) -> Status:
    return Status(
        Code.WAIT,
        f'one or more plugins asked to wait and no plugin rejected pod "{pod.metadata.name}"',
    )


@pytest.mark.parametrize(
    ("pod", "running", "want"),
    [
        pytest.param(make_pod("p").namespace("ns").obj(), [], None, id="no pod group"),
        pytest.param(
            member("p", "pg-non-existent").obj(),
            [],
            Status(Code.UNSCHEDULABLE, "PodGroup not found", plugin="Coscheduling"),
            id="a pod group without a minimum",
        ),
        pytest.param(member("p", "pg1", 2).obj(), [], "wait", id="quorum not satisfied"),
        pytest.param(member("p", "pg1", 1).obj(), [], None, id="quorum of one"),
        pytest.param(member("p", "pg1", 0).obj(), [], None, id="quorum of none"),
        pytest.param(
            member("p1a", "pg1", 2).obj(),
            [member("p1b", "pg1", 2).node("node").obj()],
            None,
            id="quorum satisfied with a running member",
        ),
        pytest.param(
            member("p1a", "pg1", 2).obj(),
            [member("p1b", "pg1", 2, ns="other").node("node").obj()],
            "wait",
            id="a running pod of another namespace does not count",
        ),
    ],
)
def test_permit(pod: Pod, running: list[Pod], want: Status | str | None) -> None:
    harness = PluginHarness(Coscheduling, nodes=[node()], pods=[*running, pod])
    assert harness.permit(pod, "node") == (waiting(pod) if want == "wait" else want)


@pytest.mark.parametrize(
    ("args", "seconds", "shown"),
    [
        (None, 60, "1m0s"),
        ({"permitWaitingTimeSeconds": 0}, 60, "1m0s"),
        ({"permitWaitingTimeSeconds": 10}, 10, "10s"),
    ],
)
def test_members_wait_as_long_as_the_args_say(
    args: dict[str, int] | None, seconds: int, shown: str
) -> None:
    pod = member("p", "pg1", 2).obj()
    harness = PluginHarness(Coscheduling, args, nodes=[node()], pods=[pod])
    harness.permit(pod, "node")
    harness.advance(seconds - 1)
    assert harness.framework.get_waiting_pod(pod.uid).status is None
    harness.advance(1)
    assert harness.framework.wait_on_permit(pod) == Status(
        Code.UNSCHEDULABLE,
        f"rejected due to timeout after waiting {shown} at plugin Coscheduling",
        plugin="Coscheduling",
    )


def test_reaching_the_minimum_allows_every_waiting_member_at_once() -> None:
    pods = [member(f"p{i}", "pg1", 3).obj() for i in range(3)]
    other = member("q", "pg2", 2).obj()
    harness = PluginHarness(Coscheduling, nodes=[node()], pods=[*pods, other])
    for pod in [pods[0], other, pods[1]]:
        harness.new_cycle()
        harness.reserve(pod, "node")
        assert harness.permit(pod, "node") == waiting(pod)
    harness.new_cycle()
    harness.reserve(pods[2], "node")
    assert harness.permit(pods[2], "node") is None
    assert harness.framework.wait_on_permit(pods[0]) is None
    assert harness.framework.wait_on_permit(pods[1]) is None
    assert harness.framework.get_waiting_pod(other.uid).status is None


def test_the_first_waiting_member_activates_its_siblings() -> None:
    """scheduler-plugins' TestPodGroupBackoffTime: pod1 waits and activates pod2 and pod3."""
    pods = [member(f"pod{i}", "pg1", 3).obj() for i in (1, 2, 3)]
    stranger = member("pod4", "pg2", 3).obj()
    harness = PluginHarness(Coscheduling, nodes=[node()], pods=[*pods, stranger])
    harness.reserve(pods[0], "node")
    harness.permit(pods[0], "node")
    assert sorted(p.key for p in harness.activated) == ["ns/pod2", "ns/pod3"]
    harness.activated.clear()
    harness.new_cycle()
    harness.reserve(pods[1], "node")
    harness.permit(pods[1], "node")
    assert harness.activated == []


def test_unreserve_rejects_the_groups_waiting_members() -> None:
    pods = [member(f"p{i}", "pg1", 3).obj() for i in range(3)]
    other = member("q", "pg2", 2).obj()
    harness = PluginHarness(Coscheduling, nodes=[node()], pods=[*pods, other])
    for pod in [pods[0], other, pods[1]]:
        harness.new_cycle()
        harness.reserve(pod, "node")
        harness.permit(pod, "node")
    harness.new_cycle()
    harness.reserve(pods[2], "node")
    harness.unreserve(pods[2], "node")
    rejected = Status(Code.UNSCHEDULABLE, "rejection in Unreserve", plugin="Coscheduling")
    assert harness.framework.wait_on_permit(pods[0]) == rejected
    assert harness.framework.wait_on_permit(pods[1]) == rejected
    assert harness.framework.get_waiting_pod(other.uid).status is None


def test_unreserve_leaves_pods_without_a_group_alone() -> None:
    grouped = member("p", "pg1", 2).obj()
    lone = make_pod("web").namespace("ns").obj()
    harness = PluginHarness(Coscheduling, nodes=[node()], pods=[grouped, lone])
    harness.permit(grouped, "node")
    harness.reserve(lone, "node")
    harness.unreserve(lone, "node")
    assert harness.framework.get_waiting_pod(grouped.uid).status is None


def test_events_requeue_on_new_pods_nodes_and_pods_leaving_other_than_siblings() -> None:
    harness = PluginHarness(Coscheduling, nodes=[node()])
    events = {
        registered.event: registered.hint for registered in harness.plugin.events_to_register()
    }
    assert set(events) == {
        ClusterEvent(EventResource.POD, ActionType.ADD),
        ClusterEvent(EventResource.NODE, ActionType.ADD | ActionType.UPDATE),
        ClusterEvent(EventResource.ASSIGNED_POD, ActionType.DELETE),
    }
    hint = events[ClusterEvent(EventResource.ASSIGNED_POD, ActionType.DELETE)]
    assert hint is not None
    rejected = member("p", "pg1", 2).obj()
    assert (
        hint(rejected, member("sibling", "pg1", 2).node("node").obj(), None)
        == QueueingHint.QUEUE_SKIP
    )
    assert hint(rejected, member("cousin", "pg2", 2).node("node").obj(), None) == QueueingHint.QUEUE
    assert (
        hint(rejected, member("abroad", "pg1", 2, ns="x").node("node").obj(), None)
        == QueueingHint.QUEUE
    )
    assert hint(rejected, make_pod("web").namespace("ns").obj(), None) == QueueingHint.QUEUE
    assert (
        hint(make_pod("lone").namespace("ns").obj(), make_pod("web").namespace("ns").obj(), None)
        == QueueingHint.QUEUE
    )
