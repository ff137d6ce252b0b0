"""Start times decide to the nanosecond, as upstream's metav1.Time comparisons do:
util.MoreImportantPod (`Before`), util.GetEarliestPodStartTime and the last criterion
of pickOneNodeForPreemption (`UnixNano`). Times under a microsecond apart must still
order the victims and the candidate nodes."""

from __future__ import annotations

import pytest
from defaultpreemption_testlib import HIGH, LOW, MEDIUM, VERY_LARGE, make_plugin
from hypothesis import given
from hypothesis import strategies as st

from kubesched.api import Pod, Time
from kubesched.framework import CycleState
from kubesched.testing import make_node, make_pod
from kubesched_defaultpreemption import Candidate, choose_candidate, more_important_pod
from kubesched_defaultpreemption.importance import earliest_start_of_highest_priority

T0 = Time.parse("2024-05-01T10:00:00.000000000Z")
T0_500NS = Time.parse("2024-05-01T10:00:00.000000500Z")


def started(name: str, when: Time | str, priority: int = LOW, node: str = "n") -> Pod:
    return make_pod(name).uid(name).node(node).priority(priority).start_time(when).obj()


@pytest.mark.parametrize(
    ("first", "second", "expected"),
    [
        pytest.param("2024-05-01T10:00:00.000000001Z", "2024-05-01T10:00:00.000000002Z", True,
                     id="1 ns earlier is more important"),
        pytest.param("2024-05-01T10:00:00.000000002Z", "2024-05-01T10:00:00.000000001Z", False,
                     id="1 ns later is less important"),
        pytest.param("2024-05-01T10:00:00.0000005Z", "2024-05-01T10:00:00.000000999Z", True,
                     id="both within the same microsecond"),
        pytest.param("2024-05-01T12:00:00.000000500+02:00", "2024-05-01T10:00:00.0000005Z", False,
                     id="the same instant in two offsets ties"),
        pytest.param("2024-05-01T10:00:00.1234567891Z", "2024-05-01T10:00:00.123456789Z", False,
                     id="a tenth digit is dropped, as Go drops it"),
    ],
)  # fmt: skip
def test_more_important_pod_to_the_nanosecond(first: str, second: str, expected: bool) -> None:
    assert more_important_pod(started("a", first), started("b", second)) is expected


def test_earliest_start_of_the_highest_priority_victims_is_exact() -> None:
    victims = [
        started("late", Time(T0.unix_nanos + 999), priority=HIGH),
        started("early", T0_500NS, priority=HIGH),
        started("earliest-but-lower", T0, priority=LOW),
    ]
    assert earliest_start_of_highest_priority(victims) == T0_500NS


@pytest.mark.parametrize("later_first", [True, False])
def test_the_node_whose_victim_started_later_wins_by_500ns(later_first: bool) -> None:
    """Equal on every other criterion; in either order the later start is chosen (upstream
    scores it by UnixNano), where times cut to microseconds would tie and pick the first."""
    later = Candidate("later", (started("x", T0_500NS, node="later"),))
    earlier = Candidate("earlier", (started("y", T0, node="earlier"),))
    candidates = [later, earlier] if later_first else [earlier, later]
    chosen, why = choose_candidate(candidates)
    assert (chosen.node_name, why) == ("later", "latest start of its most important victims")


@pytest.mark.parametrize("early_first", [True, False])
def test_the_victim_that_started_500ns_earlier_is_reprieved(early_first: bool) -> None:
    """Two equal-priority victims, room for one of them back: the earlier-started one is
    more important, is reprieved first and stays; the other is evicted."""
    early = make_pod("early").uid("early").node("n").priority(LOW).req(MEDIUM).start_time(T0)
    late = make_pod("late").uid("late").node("n").priority(LOW).req(MEDIUM).start_time(T0_500NS)
    running = [early.obj(), late.obj()] if early_first else [late.obj(), early.obj()]
    plugin, handle = make_plugin([make_node("n").capacity(VERY_LARGE).obj()], running)
    preemptor = make_pod("p").uid("p").priority(HIGH).req({"cpu": "300m"}).obj()
    got = plugin.select_victims_on_node(
        CycleState(), preemptor, handle.lister.node_infos()[0].snapshot(), []
    )
    assert got is not None
    assert [v.metadata.name for v in got.victims] == ["late"]


NANOS = st.integers(min_value=T0.unix_nanos, max_value=T0.unix_nanos + 2_000)


@given(NANOS, NANOS)
def test_importance_follows_integer_nanoseconds(a: int, b: int) -> None:
    assert more_important_pod(started("a", Time(a)), started("b", Time(b))) is (a < b)


@given(st.lists(NANOS, min_size=2, max_size=6, unique=True))
def test_the_candidate_with_the_latest_start_is_chosen(starts: list[int]) -> None:
    candidates = [
        Candidate(f"n{i}", (started(f"p{i}", Time(s), node=f"n{i}"),)) for i, s in enumerate(starts)
    ]
    chosen, _ = choose_candidate(candidates)
    assert chosen.node_name == f"n{starts.index(max(starts))}"
