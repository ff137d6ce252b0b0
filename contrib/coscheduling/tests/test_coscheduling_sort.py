"""QueueSort: priority, then the group's time (its last failure, else when its first member
was queued), then the group's name, then the pod's. After scheduler-plugins' TestLess, with a
group's first queued member standing in for the PodGroup's creation time."""

from __future__ import annotations

import pytest
from attrs import frozen
from coscheduling_testlib import member

from kubesched.framework import PodInfo, QueuedPodInfo
from kubesched.testing import PluginHarness, make_node, make_pod
from kubesched_coscheduling import POD_GROUP_LABEL, Coscheduling

LOW, HIGH = 10, 100


@frozen
class Queued:
    """A queued pod: name, namespace, priority, group label (or none), first attempt time."""

    name: str
    namespace: str
    priority: int
    group: str | None = None
    queued_at: float = 0.0

    def info(self) -> QueuedPodInfo:
        builder = make_pod(self.name).namespace(self.namespace).priority(self.priority)
        if self.group is not None:
            builder = builder.label(POD_GROUP_LABEL, self.group)
        info = QueuedPodInfo(PodInfo(builder.obj()), timestamp=self.queued_at)
        info.initial_attempt_timestamp = self.queued_at
        return info


def less(harness: PluginHarness, a: Queued, b: Queued) -> bool:
    return harness.framework.queue_sort_less(a.info(), b.info())


@pytest.mark.parametrize(
    ("p1", "p2", "want"),
    [
        pytest.param(
            Queued("p1", "ns1", LOW), Queued("p2", "ns2", HIGH), False, id="lower priority"
        ),
        pytest.param(
            Queued("p1", "ns1", HIGH), Queued("p2", "ns2", LOW), True, id="higher priority"
        ),
        pytest.param(
            Queued("p1", "ns1", HIGH, queued_at=1),
            Queued("p2", "ns2", HIGH, queued_at=2),
            True,
            id="equal priority, p1 queued earlier",
        ),
        pytest.param(
            Queued("p1", "ns1", HIGH, queued_at=2),
            Queued("p2", "ns2", HIGH, queued_at=1),
            False,
            id="equal priority, p2 queued earlier",
        ),
        pytest.param(
            Queued("p1", "ns1", LOW, "pg1"),
            Queued("p2", "ns2", HIGH),
            False,
            id="lower priority, p1 in pg1",
        ),
        pytest.param(
            Queued("p1", "ns1", HIGH, "pg1"),
            Queued("p2", "ns2", LOW),
            True,
            id="higher priority, p1 in pg1",
        ),
        pytest.param(
            Queued("p1", "ns1", HIGH, "pg1", 1),
            Queued("p2", "ns2", HIGH, queued_at=2),
            True,
            id="equal priority, pg1 queued earlier than p2",
        ),
        pytest.param(
            Queued("p1", "ns1", HIGH, "pg1", 2),
            Queued("p2", "ns2", HIGH, queued_at=1),
            False,
            id="equal priority, p2 queued earlier than pg1",
        ),
        pytest.param(
            Queued("p1", "ns1", LOW, "pg1"),
            Queued("p2", "ns2", HIGH, "pg2"),
            False,
            id="lower priority, p1 in pg1, p2 in pg2",
        ),
        pytest.param(
            Queued("p1", "ns1", HIGH, "pg1"),
            Queued("p2", "ns2", LOW, "pg1"),
            True,
            id="higher priority, both in a pg1 (of different namespaces)",
        ),
        pytest.param(
            Queued("p1", "ns1", HIGH, "pg1", 1),
            Queued("p2", "ns2", HIGH, "pg2", 2),
            True,
            id="equal priority, pg1 queued earlier than pg2",
        ),
        pytest.param(
            Queued("p1", "ns", LOW, "pg2", 1),
            Queued("p2", "ns", HIGH, "pg1", 2),
            False,
            id="priority before time",
        ),
        pytest.param(
            Queued("p1", "ns1", HIGH, "pg2", 1),
            Queued("p2", "ns2", HIGH, "pg2", 1),
            True,
            id="equal priority and time: ns1/pg2 before ns2/pg2",
        ),
        pytest.param(
            Queued("p1", "ns1", HIGH, None, 1),
            Queued("p2", "ns2", HIGH, "pg2", 1),
            True,
            id="equal priority and time: lone ns1/p1 before ns2/pg2",
        ),
        pytest.param(
            Queued("a-9", "ns", HIGH, "b"),
            Queued("b-0", "ns", HIGH, "a"),
            False,
            id="equal priority and time: the group name decides, not the pod name",
        ),
        pytest.param(
            Queued("g-0", "ns", HIGH, "g"),
            Queued("g-1", "ns", HIGH, "g"),
            True,
            id="same group: the pod name decides",
        ),
    ],
)
def test_less(p1: Queued, p2: Queued, want: bool) -> None:
    harness = PluginHarness(Coscheduling, nodes=[make_node("n1").obj()])
    assert less(harness, p1, p2) is want


def test_a_group_keeps_the_time_its_first_member_was_queued() -> None:
    harness = PluginHarness(Coscheduling, nodes=[make_node("n1").obj()])
    lone = Queued("web", "ns", HIGH, queued_at=3)
    assert less(harness, Queued("g-0", "ns", HIGH, "g", 1), lone)
    assert less(harness, Queued("g-1", "ns", HIGH, "g", 5), lone)
    fresh = PluginHarness(Coscheduling, nodes=[make_node("n1").obj()])
    assert not less(fresh, Queued("g-1", "ns", HIGH, "g", 5), lone)


def test_a_failed_group_goes_behind_younger_groups_until_it_succeeds() -> None:
    """scheduler-plugins' TestLessAfterScheduleFailure, with the failure marked by PostFilter
    and cleared by a Permit that reaches the minimum."""
    harness = PluginHarness(Coscheduling, nodes=[make_node("n1").obj()])
    older, younger = Queued("p1", "ns", HIGH, "pg1", 0), Queued("p2", "ns", HIGH, "pg2", 5)
    assert less(harness, older, younger)
    harness.advance(10)
    harness.post_filter(member("p1", "pg1", 2).obj())
    assert not less(harness, older, younger)
    assert less(harness, younger, older)
    first, second = member("p1", "pg1", 2).obj(), member("p3", "pg1", 2).obj()
    harness.reserve(first, "n1")
    harness.new_cycle()
    assert harness.permit(second, "n1") is None
    assert less(harness, older, younger)
