"""The pieces preemption decides with: victim importance, PodDisruptionBudget
accounting, reprieve order, and the node criteria of pickOneNodeForPreemption."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from defaultpreemption_testlib import HIGH, LOW, MEDIUM, MID, VERY_LARGE, make_pdb, make_plugin

from kubesched.api import (
    LabelSelector,
    LabelSelectorRequirement,
    Pod,
    PodDisruptionBudget,
    PodDisruptionBudgetSpec,
    Time,
)
from kubesched.framework import CycleState, PodInfo
from kubesched.testing import make_node, make_pod
from kubesched_defaultpreemption import (
    Candidate,
    choose_candidate,
    more_important_pod,
    select_candidate,
)
from kubesched_defaultpreemption.importance import NOT_STARTED, pod_start_time
from kubesched_defaultpreemption.pdb import split_by_pdb_violation

T0 = datetime(2024, 1, 1, tzinfo=timezone.utc)


def pod(
    name: str, priority: int = 0, start: int | None = None, ns: str = "default", **labels: str
) -> Pod:
    builder = make_pod(name).namespace(ns).priority(priority).labels(labels)
    if start is not None:
        builder = builder.start_time(T0 + timedelta(seconds=start))
    return builder.obj()


# upstream: util.MoreImportantPod / GetPodStartTime
@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        pytest.param(pod("a", 10), pod("b", 5), True, id="higher priority"),
        pytest.param(pod("a", 5), pod("b", 10), False, id="lower priority"),
        pytest.param(pod("a", 5, 1), pod("b", 5, 2), True, id="equal priority, started earlier"),
        pytest.param(pod("a", 5, 2), pod("b", 5, 1), False, id="equal priority, started later"),
        pytest.param(pod("a", 5, 1), pod("b", 5), True, id="started beats not started"),
        pytest.param(pod("a", 5), pod("b", 5, 1), False, id="not started loses"),
        pytest.param(pod("a", 5, 1), pod("b", 5, 1), False, id="tie"),
    ],
)
def test_more_important_pod(a: Pod, b: Pod, expected: bool) -> None:
    assert more_important_pod(a, b) is expected


def test_naive_start_time_is_utc() -> None:
    naive = make_pod("a").start_time(datetime(2024, 1, 1)).obj()
    assert pod_start_time(naive) == Time.from_datetime(T0)
    assert pod_start_time(make_pod("b").obj()) == NOT_STARTED


def infos(*pods: Pod) -> list[PodInfo]:
    return [PodInfo(p) for p in pods]


def names(pod_infos: list[PodInfo]) -> list[str]:
    return [i.pod.metadata.name for i in pod_infos]


# upstream: filterPodsWithPDBViolation (exercised by TestDryRunPreemption's PDB cases)
@pytest.mark.parametrize(
    ("pods", "pdbs", "violating", "non_violating"),
    [
        pytest.param(
            [pod("a", app="x"), pod("b", app="x"), pod("c", app="x")],
            [make_pdb(match_labels={"app": "x"}, disruptions_allowed=1)],
            ["b", "c"], ["a"],
            id="the budget runs out after the first pod, in the order given",
        ),
        pytest.param(
            [pod("a", app="x"), pod("b", app="x")],
            [make_pdb(match_labels={"app": "x"}, disruptions_allowed=1, disrupted_pods=["a"])],
            [], ["a", "b"],
            id="a pod already in disruptedPods uses nothing up",
        ),
        pytest.param(
            [pod("a")],
            [make_pdb(match_labels={}, disruptions_allowed=0)],
            [], ["a"],
            id="a pod without labels matches no budget",
        ),
        pytest.param(
            [pod("a", app="x")],
            [make_pdb(match_labels={}, disruptions_allowed=0)],
            [], ["a"],
            id="an empty selector protects nothing",
        ),
        pytest.param(
            [pod("a", app="x")],
            [PodDisruptionBudget()],
            [], ["a"],
            id="no selector protects nothing",
        ),
        pytest.param(
            [pod("a", ns="ns1", app="x")],
            [make_pdb(namespace="ns2", match_labels={"app": "x"})],
            [], ["a"],
            id="a budget protects pods of its own namespace only",
        ),
        pytest.param(
            [pod("a", app="x", tier="db")],
            [make_pdb(match_labels={"app": "x"}, disruptions_allowed=5),
             make_pdb(match_labels={"tier": "db"}, disruptions_allowed=0)],
            ["a"], [],
            id="any one exhausted budget makes a violation",
        ),
        pytest.param(
            [pod("a", app="x")],
            [PodDisruptionBudget(spec=PodDisruptionBudgetSpec(selector=LabelSelector(
                match_expressions=[LabelSelectorRequirement("app", "Bogus", ["x"])])))],
            [], ["a"],
            id="a selector upstream cannot parse protects nothing",
        ),
    ],
)  # fmt: skip
def test_split_by_pdb_violation(
    pods: list[Pod],
    pdbs: list[PodDisruptionBudget],
    violating: list[str],
    non_violating: list[str],
) -> None:
    got_violating, got_non_violating = split_by_pdb_violation(infos(*pods), pdbs)
    assert (names(got_violating), names(got_non_violating)) == (violating, non_violating)


def test_pdb_violating_victims_are_reprieved_first() -> None:
    """Two equal victims, room for one of them: the one a budget protects stays."""
    victims = [
        make_pod("free").uid("free").node("n").priority(LOW).req(MEDIUM).start_time(T0).obj(),
        make_pod("guarded")
        .uid("guarded")
        .node("n")
        .priority(LOW)
        .label("app", "db")
        .req(MEDIUM)
        .start_time(T0)
        .obj(),
    ]
    plugin, handle = make_plugin([make_node("n").capacity(VERY_LARGE).obj()], victims)
    preemptor = make_pod("p").uid("p").priority(HIGH).req({"cpu": "300m"}).obj()
    pdbs = [make_pdb(match_labels={"app": "db"})]
    got = plugin.select_victims_on_node(
        CycleState(), preemptor, handle.lister.node_infos()[0].snapshot(), pdbs
    )
    assert got == Candidate("n", (victims[0],), 0)


def test_victims_are_sorted_by_importance_across_both_groups() -> None:
    """When both PDB groups hold victims, the victims are re-sorted, most important first."""
    victims = [
        make_pod("low").uid("low").node("n").priority(LOW).req(MEDIUM).obj(),
        make_pod("mid").uid("mid").node("n").priority(MID).label("app", "db").req(MEDIUM).obj(),
    ]
    plugin, handle = make_plugin([make_node("n").capacity(VERY_LARGE).obj()], victims)
    preemptor = make_pod("p").uid("p").priority(HIGH).req(VERY_LARGE).obj()
    got = plugin.select_victims_on_node(
        CycleState(),
        preemptor,
        handle.lister.node_infos()[0].snapshot(),
        [make_pdb(match_labels={"app": "db"})],
    )
    assert got == Candidate("n", (victims[1], victims[0]), 1)


def cand(node: str, *victims: Pod, pdb: int = 0) -> Candidate:
    return Candidate(node, victims, pdb)


# upstream: pickOneNodeForPreemption, one case per criterion where the later criteria
# would pick differently
@pytest.mark.parametrize(
    ("candidates", "expected"),
    [
        pytest.param(
            [cand("a", pod("x", 1), pdb=1), cand("b", pod("y", 9), pod("z", 9), pdb=0)],
            "b",
            id="fewest PDB violations first",
        ),
        pytest.param(
            [cand("a", pod("x", 9)), cand("b", pod("y", 5), pod("z", 5), pod("w", 5))],
            "b",
            id="then the lowest highest-priority victim",
        ),
        pytest.param(
            [cand("a", pod("x", 5, 1), pod("y", 1)), cand("b", pod("z", 5, 9), pod("w", 4))],
            "a",
            id="then the smallest sum of priorities",
        ),
        pytest.param(
            [cand("a", pod("x", -5), pod("y", -5)), cand("b", pod("z", -5))],
            "b",
            id="negative priorities: fewer victims have the smaller offset sum",
        ),
        pytest.param(
            [cand("a", pod("x", 5, 9), pod("y", 0, 9)), cand("b", pod("z", 5, 1))],
            "b",
            id="then the fewest victims",
        ),
        pytest.param(
            [cand("a", pod("x", 5, 1), pod("y", 5, 9)), cand("b", pod("z", 5, 2), pod("w", 5, 3))],
            "b",
            id="then the latest earliest-start among the highest-priority victims",
        ),
        pytest.param(
            [cand("a", pod("x", 5, 1), pod("y", 1, 9)), cand("b", pod("z", 5, 2), pod("w", 1, 0))],
            "b",
            id="start times of lower-priority victims do not count",
        ),
        pytest.param(
            [cand("a", pod("x", 5, 1)), cand("b", pod("y", 5))],
            "b",
            id="a victim that has not started counts as the latest",
        ),
        pytest.param(
            [cand("a", pod("x", 5, 1)), cand("b", pod("y", 5, 1))],
            "a",
            id="then the first",
        ),
        pytest.param([cand("only", pod("x", 5))], "only", id="a single candidate"),
    ],
)  # fmt: skip
def test_select_candidate(candidates: list[Candidate], expected: str) -> None:
    assert select_candidate(candidates).node_name == expected


@pytest.mark.parametrize(
    ("candidates", "expected", "decided_by"),
    [
        ([cand("a", pod("x", 1), pdb=1), cand("b", pod("y", 9), pdb=0)], "b",
         "fewest PodDisruptionBudget violations"),
        ([cand("a", pod("x", 9)), cand("b", pod("y", 5), pod("z", 5))], "b",
         "lowest priority of its most important victim"),
        ([cand("a", pod("x", 5, 1), pod("y", 1)), cand("b", pod("z", 5, 9), pod("w", 4))], "a",
         "smallest sum of victim priorities"),
        # a victim of priority -2^31 adds nothing to the offset sum; only the count differs
        ([cand("a", pod("x", 5, 9), pod("y", -(2**31), 9)), cand("b", pod("z", 5, 1))], "b",
         "fewest victims"),
        ([cand("a", pod("x", 5, 1)), cand("b", pod("y", 5, 2))], "b",
         "latest start of its most important victims"),
        ([cand("a", pod("x", 5, 1)), cand("b", pod("y", 5, 1))], "a",
         "first of the candidates tied on every criterion"),
        ([cand("only", pod("x", 5))], "only", "the only candidate"),
    ],
)  # fmt: skip
def test_choose_candidate_says_which_criterion_decided(
    candidates: list[Candidate], expected: str, decided_by: str
) -> None:
    chosen, why = choose_candidate(candidates)
    assert (chosen.node_name, why) == (expected, decided_by)
    assert select_candidate(candidates) is chosen
