"""PreScore, Score and NormalizeScore, re-expressing upstream's TestPodTopologySpreadScore."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from kubesched.api import LabelSelector, Node, Pod
from kubesched.testing import make_node, make_pod

HOSTNAME = "kubernetes.io/hostname"
FOO = LabelSelector(match_labels={"foo": ""})
Scores = Callable[..., dict[str, int]]


def foo_pods(spread: dict[str, int]) -> list[Pod]:
    """`spread[node]` pods labelled foo on each node."""
    return [
        make_pod(f"p-{node[-1]}{i}").node(node).label("foo", "").obj()
        for node, count in spread.items()
        for i in range(1, count + 1)
    ]


def host_nodes(*names: str) -> list[Node]:
    return [make_node(n).label(HOSTNAME, n).obj() for n in names]


def soft(max_skew: int, key: str = HOSTNAME) -> Pod:
    return (
        make_pod("p").label("foo", "").spread_constraint(max_skew, key, "ScheduleAnyway", FOO).obj()
    )


ABCD = host_nodes("node-a", "node-b", "node-c", "node-d")

CASES = [
    (
        "no existing pods",
        soft(1),
        host_nodes("node-a", "node-b"),
        [],
        {},
        {"node-a": 100, "node-b": 100},
    ),
    (
        "only one candidate node",
        soft(1),
        host_nodes("node-a"),
        host_nodes("node-b"),
        {"node-a": 2, "node-b": 1},
        {"node-a": 100},
    ),
    (
        "all nodes have the same number of matching pods",
        soft(1),
        host_nodes("node-a", "node-b"),
        [],
        {"node-a": 1, "node-b": 1},
        {"node-a": 100, "node-b": 100},
    ),
    (
        "spread 2/1/0/3 on nodes",
        soft(1),
        ABCD,
        [],
        {"node-a": 2, "node-b": 1, "node-d": 3},
        {"node-a": 20, "node-b": 60, "node-c": 100, "node-d": 0},
    ),
    (
        "spread 2/1/0/3 on nodes, maxSkew 2",
        soft(2),
        ABCD,
        [],
        {"node-a": 2, "node-b": 1, "node-d": 3},
        {"node-a": 33, "node-b": 66, "node-c": 100, "node-d": 16},
    ),
    (
        "spread 4/3/2/1 on nodes, maxSkew 3",
        soft(3),
        ABCD,
        [],
        {"node-a": 4, "node-b": 3, "node-c": 2, "node-d": 1},
        {"node-a": 44, "node-b": 66, "node-c": 77, "node-d": 100},
    ),
    (
        "spread 4/2/1/~3~, node-y not feasible",
        soft(1),
        host_nodes("node-a", "node-b", "node-x"),
        host_nodes("node-y"),
        {"node-a": 4, "node-b": 2, "node-x": 1, "node-y": 3},
        {"node-a": 33, "node-b": 83, "node-x": 100},
    ),
    (
        "spread 4/?2?/1/~3~, node-b lacks the topology key",
        soft(1),
        [
            *host_nodes("node-a"),
            make_node("node-b").label("n", "node-b").obj(),
            *host_nodes("node-x"),
        ],
        host_nodes("node-y"),
        {"node-a": 4, "node-b": 2, "node-x": 1, "node-y": 3},
        {"node-a": 16, "node-b": 0, "node-x": 100},
    ),
    (
        "one constraint on zone, 3 of 4 nodes feasible",
        soft(1, "zone"),
        [
            make_node("node-a").label("zone", "zone1").label(HOSTNAME, "node-a").obj(),
            make_node("node-b").label("zone", "zone1").label(HOSTNAME, "node-b").obj(),
            make_node("node-x").label("zone", "zone2").label(HOSTNAME, "node-x").obj(),
        ],
        [make_node("node-y").label("zone", "zone2").label(HOSTNAME, "node-y").obj()],
        {"node-a": 4, "node-b": 2, "node-x": 1, "node-y": 3},
        {"node-a": 75, "node-b": 75, "node-x": 100},
    ),
]


@pytest.mark.parametrize(
    ("pod", "nodes", "failed", "spread", "want"),
    [pytest.param(*case[1:], id=case[0]) for case in CASES],
)
def test_upstream_scores(
    feasible_scores: Scores,
    pod: Pod,
    nodes: list[Node],
    failed: list[Node],
    spread: dict[str, int],
    want: dict[str, int],
) -> None:
    assert feasible_scores(pod, nodes, failed, foo_pods(spread)) == want


def test_null_selector_scores_every_node_the_same(feasible_scores: Scores) -> None:
    pod = (
        make_pod("p").label("foo", "").spread_constraint(1, HOSTNAME, "ScheduleAnyway", None).obj()
    )
    spread = {"node-a": 2, "node-b": 1, "node-d": 3}
    want = dict.fromkeys(["node-a", "node-b", "node-c", "node-d"], 100)
    assert feasible_scores(pod, ABCD, [], foo_pods(spread)) == want


def test_pod_without_soft_constraints_skips_scoring(feasible_scores: Scores) -> None:
    hard_only = make_pod("p").label("foo", "").spread_constraint(1, HOSTNAME, "DoNotSchedule", FOO)
    assert feasible_scores(hard_only.obj(), ABCD) == {}


def test_system_defaults_apply_to_no_pod_without_workload_objects(feasible_scores: Scores) -> None:
    """No Service or controller selects the pod, so the defaults' selector is empty."""
    assert (
        feasible_scores(make_pod("p").label("foo", "").obj(), ABCD, [], foo_pods({"node-a": 2}))
        == {}
    )
