"""The dry run and the choice of node: upstream's TestDryRunPreemption,
TestSelectBestCandidate, TestCustomSelection and TestCustomOrdering, re-expressed."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest
from defaultpreemption_testlib import (
    HIGH,
    LARGE,
    LOW,
    MEDIUM,
    MID,
    NEG,
    SMALL,
    VERY_HIGH,
    VERY_LARGE,
    ConstFilter,
    FakeFilter,
    FitFilter,
    MatchFilter,
    QueuedOffsets,
    make_pdb,
    make_plugin,
)

from kubesched.api import Node, Pod, PodDisruptionBudget, Time
from kubesched.framework import Code, CycleState, NodeInfo, PodInfo
from kubesched.testing import make_node, make_pod
from kubesched_defaultpreemption import DefaultPreemptionArgs, select_candidate
from kubesched_defaultpreemption.importance import pod_start_time


def at(step: int) -> Time:
    """Upstream's epochTime<step>: `step` nanoseconds after the epoch."""
    return Time(step)


def p(
    name: str,
    priority: int,
    node: str = "",
    req: dict[str, str] | None = None,
    start: int | None = None,
    **labels: str,
) -> Pod:
    builder = make_pod(name).uid(name).priority(priority).labels(labels)
    if node:
        builder = builder.node(node)
    if req:
        builder = builder.req(req)
    if start is not None:
        builder = builder.start_time(at(start))
    return builder.obj()


LABEL_KEYS = ("hostname", "zone", "region")


def nodes_named(names: Sequence[str]) -> list[Node]:
    """Nodes of VERY_LARGE capacity; "node-a/zone1" names node-a with labels
    hostname=node-a, zone=zone1, as upstream's tests split them."""
    nodes = []
    for spec in names:
        parts = spec.split("/")
        labels = dict(zip(LABEL_KEYS, parts, strict=False))
        nodes.append(make_node(parts[0]).capacity(VERY_LARGE).labels(labels).obj())
    return nodes


def sorted_infos(handle: Any) -> list[NodeInfo]:
    return sorted(handle.lister.node_infos(), key=lambda n: n.name)


Expected = dict[str, tuple[list[str], int]]
"""node -> (victim names, sorted; number of PDB violations)."""

FIT = "fit"
TRUE, FALSE, MATCH = "TrueFilter", "FalseFilter", "MatchFilter"


def filters_for(name: str, fake_codes: dict[str, Code]) -> list[object]:
    """FakeFilter first (it counts the calls), then the plugin the case registers."""
    second = {
        FIT: FitFilter(),
        TRUE: ConstFilter(True),
        FALSE: ConstFilter(False),
        MATCH: MatchFilter(),
    }[name]
    return [FakeFilter(fake_codes), second]


APP_FOO = {"app": "foo"}

# upstream: TestDryRunPreemption (default_preemption_test.go). The anti-affinity and
# topology-spread cases need InterPodAffinity and PodTopologySpread, which kubesched
# does not have.
DRY_RUN_CASES = [
    pytest.param(
        None, FALSE, ["node1", "node2"], [p("p", HIGH)],
        [p("p1", MID, "node1"), p("p2", MID, "node2")],
        [], Code.SUCCESS, [], [{}], [2],
        id="a pod that does not fit on any node",
    ),
    pytest.param(
        None, TRUE, ["node1", "node2"], [p("p", HIGH)],
        [p("p1", MID, "node1"), p("p2", MID, "node2")],
        [], Code.UNSCHEDULABLE, [], [{}], [2],
        id="a pod that fits with no preemption",
    ),
    pytest.param(
        None, MATCH, ["node1", "node2"], [p("node1", HIGH)],
        [p("p1", MID, "node1"), p("p2", MID, "node2")],
        [], Code.UNSCHEDULABLE, [], [{}], [2],
        id="a pod that fits on one node with no preemption",
    ),
    pytest.param(
        None, FIT, ["node1", "node2"], [p("p", HIGH, req=LARGE)],
        [p("p1", MID, "node1", LARGE), p("p2", MID, "node2", LARGE)],
        [], Code.SUCCESS, [], [{"node1": (["p1"], 0), "node2": (["p2"], 0)}], [4],
        id="a pod that fits on both nodes when lower priority pods are preempted",
    ),
    pytest.param(
        None, FIT, ["node1", "node2"], [p("p", LOW, req=LARGE)],
        [p("p1", MID, "node1", LARGE), p("p2", MID, "node2", LARGE)],
        [], Code.SUCCESS, [], [{}], [0],
        id="a pod that would fit, but other pods running are higher priority",
    ),
    pytest.param(
        None, FIT, ["node1", "node2"], [p("p", HIGH, req=LARGE)],
        [p("p1.1", LOW, "node1", SMALL), p("p1.2", MID, "node1", LARGE),
         p("p2", MID, "node2", LARGE)],
        [], Code.SUCCESS, [], [{"node1": (["p1.2"], 0), "node2": (["p2"], 0)}], [5],
        id="medium priority pod is preempted, but lower priority one stays as it is small",
    ),
    pytest.param(
        None, FIT, ["node1", "node2"], [p("p", HIGH, req=LARGE)],
        [p("p1.1", MID, "node1", SMALL), p("p1.2", LOW, "node1", SMALL),
         p("p1.3", MID, "node1", MEDIUM), p("p1.4", HIGH, "node1", SMALL),
         p("p2", HIGH, "node2", LARGE)],
        [], Code.SUCCESS, [], [{"node1": (["p1.2", "p1.3"], 0)}], [4],
        id="mixed priority pods are preempted",
    ),
    pytest.param(
        None, FIT, ["node1", "node2"], [p("p", HIGH, req=LARGE)],
        [p("p1.1", LOW, "node1", SMALL, 5), p("p1.2", LOW, "node1", SMALL, 4),
         p("p1.3", MID, "node1", MEDIUM, 3), p("p1.4", HIGH, "node1", SMALL, 2),
         p("p2", HIGH, "node2", LARGE, 1)],
        [], Code.SUCCESS, [], [{"node1": (["p1.1", "p1.3"], 0)}], [4],
        id="mixed priority pods are preempted, pick later StartTime one when priorities are equal",
    ),
    pytest.param(
        None, FIT, ["node1", "node2"], [p("p", HIGH, req=LARGE)],
        [p("p1", MID, "node1", LARGE), p("p2", MID, "node2", LARGE)],
        [], Code.UNSCHEDULABLE, [], [{}], [2],
        id="get Unschedulable in the preemption phase when the filter plugins filtering the nodes",
    ),
    pytest.param(
        None, FIT, ["node1"], [p("p", HIGH, req=VERY_LARGE)],
        [p("p1.1", MID, "node1", MEDIUM, app="foo"), p("p1.2", MID, "node1", MEDIUM, app="foo")],
        [make_pdb(match_labels=APP_FOO, disruptions_allowed=1)], Code.SUCCESS, [],
        [{"node1": (["p1.1", "p1.2"], 1)}], [3],
        id="preemption with violation of same pdb",
    ),
    pytest.param(
        None, FIT, ["node1"], [p("p", HIGH, req=VERY_LARGE)],
        [p("p1.1", MID, "node1", MEDIUM, app="foo"), p("p1.2", MID, "node1", MEDIUM, app="foo")],
        [make_pdb(match_labels=APP_FOO, disruptions_allowed=1, disrupted_pods=["p2"])],
        Code.SUCCESS, [], [{"node1": (["p1.1", "p1.2"], 1)}], [3],
        id="pdb with a processed eviction, the victim is not among DisruptedPods",
    ),
    pytest.param(
        None, FIT, ["node1"], [p("p", HIGH, req=VERY_LARGE)],
        [p("p1.1", MID, "node1", MEDIUM, app="foo"), p("p1.2", MID, "node1", MEDIUM, app="foo")],
        [make_pdb(match_labels=APP_FOO, disruptions_allowed=1, disrupted_pods=["p1.2"])],
        Code.SUCCESS, [], [{"node1": (["p1.1", "p1.2"], 0)}], [3],
        id="pdb with a processed eviction, the victim is among DisruptedPods",
    ),
    pytest.param(
        None, FIT, ["node1"], [p("p", HIGH, req=VERY_LARGE)],
        [p("p1.1", MID, "node1", MEDIUM, app="foo"), p("p1.2", MID, "node1", MEDIUM, app="foo"),
         p("p1.3", MID, "node1", MEDIUM, app="foo")],
        [make_pdb(match_labels=APP_FOO, disruptions_allowed=1, disrupted_pods=["p1.3"])],
        Code.SUCCESS, [], [{"node1": (["p1.1", "p1.2", "p1.3"], 1)}], [4],
        id="pdb with a processed eviction, the DisruptedPods victim counts as non-violating",
    ),
    pytest.param(
        DefaultPreemptionArgs(40, 1), FIT, [f"node{i}" for i in range(1, 6)],
        [p("p", HIGH, req=LARGE)],
        [p(f"p{i}", MID, f"node{i}", LARGE) for i in range(1, 6)],
        [], Code.SUCCESS, [4],  # node5 (yes), node1 (yes)
        [{"node1": (["p1"], 0), "node5": (["p5"], 0)}], [4],
        id="all nodes are possible candidates, but DefaultPreemptionArgs limits to 2",
    ),
    pytest.param(
        DefaultPreemptionArgs(40, 1), FIT, [f"node{i}" for i in range(1, 6)],
        [p("p", HIGH, req=LARGE)],
        [p("p1", MID, "node1", LARGE), p("p2", VERY_HIGH, "node2", LARGE),
         p("p3", MID, "node3", LARGE), p("p4", MID, "node4", LARGE),
         p("p5", VERY_HIGH, "node5", LARGE)],
        [], Code.SUCCESS, [4],  # node5 (no), node1 (yes), node2 (no), node3 (yes)
        [{"node1": (["p1"], 0), "node3": (["p3"], 0)}], [4],
        id="some nodes are not possible candidates, DefaultPreemptionArgs limits to 2",
    ),
    pytest.param(
        DefaultPreemptionArgs(40, 1), FIT, [f"node{i}" for i in range(1, 6)],
        [p(f"tp{i}", HIGH, req=LARGE) for i in range(1, 4)],
        [p(f"p{i}", MID, f"node{i}", LARGE) for i in range(1, 6)],
        [], Code.SUCCESS, [4, 1, 3],
        [{"node1": (["p1"], 0), "node5": (["p5"], 0)},
         {"node2": (["p2"], 0), "node3": (["p3"], 0)},
         {"node4": (["p4"], 0), "node5": (["p5"], 0)}],
        [4, 4, 4],
        id="preemption offset across multiple scheduling cycles and wrap around",
    ),
    pytest.param(
        DefaultPreemptionArgs(40, 2), FIT, [f"node{i}" for i in range(1, 6)],
        [p("p", HIGH, req=LARGE)],
        [p("p1", MID, "node1", LARGE, app="foo"), p("p2", MID, "node2", LARGE, app="foo"),
         p("p3", MID, "node3", LARGE), p("p4", MID, "node4", LARGE),
         p("p5", MID, "node5", LARGE, app="foo")],
        [make_pdb(match_labels=APP_FOO, disruptions_allowed=0)], Code.SUCCESS,
        [4],  # node5 (yes, pdb), node1 (yes, pdb), node2 (no room left, pdb), node3 (yes)
        [{"node1": (["p1"], 1), "node3": (["p3"], 0), "node5": (["p5"], 1)}], [8],
        id="preemption looks past numCandidates until a non-PDB violating node is found",
    ),
]  # fmt: skip


@pytest.mark.parametrize(
    (
        "args",
        "filter_name",
        "node_names",
        "preemptors",
        "pods",
        "pdbs",
        "fake_code",
        "offsets",
        "expected",
        "filter_calls",
    ),
    DRY_RUN_CASES,
)
def test_dry_run_preemption(
    args: DefaultPreemptionArgs | None,
    filter_name: str,
    node_names: list[str],
    preemptors: list[Pod],
    pods: list[Pod],
    pdbs: list[PodDisruptionBudget],
    fake_code: Code,
    offsets: list[int],
    expected: list[Expected],
    filter_calls: list[int],
) -> None:
    nodes = nodes_named(node_names)
    fake_codes = {n.metadata.name: fake_code for n in nodes}
    plugin, handle = make_plugin(
        nodes, pods, args=args, filters=filters_for(filter_name, fake_codes)
    )
    if offsets:
        plugin.rng = QueuedOffsets(*offsets)
    infos = sorted_infos(handle)
    for cycle, preemptor in enumerate(preemptors):
        calls_before = handle.filter_calls
        offset, num_candidates = plugin.offset_and_num_candidates(len(infos))
        result = plugin.dry_run(CycleState(), preemptor, infos, pdbs, offset, num_candidates)
        got = {
            c.node_name: (sorted(v.metadata.name for v in c.victims), c.num_pdb_violations)
            for c in result.candidates
        }
        assert got == expected[cycle], f"cycle {cycle}"
        assert handle.filter_calls - calls_before == filter_calls[cycle], f"cycle {cycle}"


def test_dry_run_leaves_the_snapshot_untouched() -> None:
    pods = [p("p1", MID, "node1", LARGE), p("p2", MID, "node2", LARGE)]
    plugin, handle = make_plugin(nodes_named(["node1", "node2"]), pods)
    infos = sorted_infos(handle)
    before = [(n.generation, [i.uid for i in n.pods], dict(n.requested)) for n in infos]
    plugin.dry_run(CycleState(), p("p", HIGH, req=LARGE), infos, [], 0, 2)
    assert [(n.generation, [i.uid for i in n.pods], dict(n.requested)) for n in infos] == before


def same_start(*specs: tuple[str, int, dict[str, str]], start: int = 0) -> list[Pod]:
    """Pods `(name, priority, requests)` on node `nodeN` (from the name "pN.x"), all
    started at upstream's epochTime."""
    return [p(name, priority, f"node{name[1]}", req, start) for name, priority, req in specs]


# upstream: TestSelectBestCandidate
SELECT_CASES = [
    pytest.param(
        p("p", HIGH, req=LARGE), 2,
        [p("p1", MID, "node1", LARGE, 0), p("p2", MID, "node2", LARGE, 0)],
        {"node1", "node2"},
        id="a pod that fits on both nodes when lower priority pods are preempted",
    ),
    pytest.param(
        p("p", HIGH, req=VERY_LARGE), 3,
        same_start(("p1.1", MID, MEDIUM), ("p1.2", MID, LARGE), ("p2.1", MID, MEDIUM),
                   ("p2.2", LOW, MEDIUM), ("p3.1", LOW, MEDIUM), ("p3.2", LOW, MEDIUM)),
        {"node3"},
        id="node with min highest priority pod is picked",
    ),
    pytest.param(
        p("p", HIGH, req=VERY_LARGE), 3,
        same_start(("p1.1", MID, MEDIUM), ("p1.2", MID, LARGE), ("p2.1", MID, LARGE),
                   ("p2.2", LOW, MEDIUM), ("p3.1", MID, MEDIUM), ("p3.2", MID, MEDIUM)),
        {"node2"},
        id="when highest priorities are the same, minimum sum of priorities is picked",
    ),
    pytest.param(
        p("p", HIGH, req=VERY_LARGE), 3,
        same_start(("p1.1", MID, SMALL), ("p1.2", NEG, SMALL), ("p1.3", MID, SMALL),
                   ("p1.4", NEG, SMALL), ("p2.1", MID, LARGE), ("p2.2", NEG, MEDIUM),
                   ("p3.1", MID, MEDIUM), ("p3.2", NEG, SMALL), ("p3.3", LOW, SMALL)),
        {"node2"},
        id="when highest priority and sum are the same, minimum number of pods is picked",
    ),
    pytest.param(
        p("p", HIGH, req=VERY_LARGE), 3,
        same_start(("p1.1", MID, SMALL), ("p1.2", NEG, SMALL), ("p1.3", NEG, SMALL),
                   ("p2.1", MID, LARGE), ("p2.2", NEG, MEDIUM), ("p3.1", MID, MEDIUM),
                   ("p3.2", NEG, SMALL), ("p3.3", LOW, SMALL)),
        {"node2"},
        id="sum of adjusted priorities is considered",
    ),
    pytest.param(
        p("p", VERY_HIGH, req=VERY_LARGE), 4,
        same_start(("p1.1", MID, SMALL), ("p1.2", LOW, SMALL), ("p1.3", LOW, SMALL),
                   ("p2.1", HIGH, LARGE), ("p3.1", MID, MEDIUM), ("p3.2", LOW, SMALL),
                   ("p3.3", LOW, SMALL), ("p3.4", LOW, MEDIUM), ("p4.1", MID, MEDIUM),
                   ("p4.2", MID, SMALL), ("p4.3", MID, SMALL), ("p4.4", NEG, SMALL)),
        {"node1"},
        id="non-overlapping lowest high priority, sum priorities, and number of pods",
    ),
    pytest.param(
        p("p", HIGH, req=VERY_LARGE), 3,
        [p("p1.1", MID, "node1", MEDIUM, 2), p("p1.2", MID, "node1", MEDIUM, 2),
         p("p2.1", MID, "node2", MEDIUM, 3), p("p2.2", MID, "node2", MEDIUM, 3),
         p("p3.1", MID, "node3", MEDIUM, 1), p("p3.2", MID, "node3", MEDIUM, 1)],
        {"node2"},
        id="same priority, same number of victims, different start time for each node's pod",
    ),
    pytest.param(
        p("p", HIGH, req=VERY_LARGE), 3,
        [p("p1.1", MID, "node1", MEDIUM, 4), p("p1.2", MID, "node1", MEDIUM, 2),
         p("p2.1", MID, "node2", MEDIUM, 5), p("p2.2", MID, "node2", MEDIUM, 1),
         p("p3.1", MID, "node3", MEDIUM, 3), p("p3.2", MID, "node3", MEDIUM, 6)],
        {"node3"},
        id="same priority, same number of victims, different start time for all pods",
    ),
    pytest.param(
        p("p", HIGH, req=VERY_LARGE), 3,
        [p("p1.1", LOW, "node1", MEDIUM, 4), p("p1.2", MID, "node1", MEDIUM, 2),
         p("p2.1", MID, "node2", MEDIUM, 6), p("p2.2", LOW, "node2", MEDIUM, 1),
         p("p3.1", LOW, "node3", MEDIUM, 3), p("p3.2", MID, "node3", MEDIUM, 5)],
        {"node2"},
        id="different priority, same number of victims, different start time for all pods",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("preemptor", "num_nodes", "pods", "expected"), SELECT_CASES)
@pytest.mark.parametrize("offset", [0, 1, 2])
def test_select_best_candidate(
    preemptor: Pod, num_nodes: int, pods: list[Pod], expected: set[str], offset: int
) -> None:
    nodes = nodes_named([f"node{i}" for i in range(1, num_nodes + 1)])
    plugin, handle = make_plugin(nodes, pods)
    infos = handle.lister.node_infos()
    _, num_candidates = plugin.offset_and_num_candidates(len(infos))
    result = plugin.dry_run(CycleState(), preemptor, infos, [], offset % len(infos), num_candidates)
    assert select_candidate(result.candidates).node_name in expected


# upstream: TestCustomSelection
def label_is(key: str, value: str) -> Callable[[NodeInfo, PodInfo, Pod], bool]:
    return lambda node_info, victim, preemptor: victim.pod.metadata.labels.get(key) == value


def node_is(name: str) -> Callable[[NodeInfo, PodInfo, Pod], bool]:
    return lambda node_info, victim, preemptor: node_info.name == name


def preemptor_at_least(priority: int) -> Callable[[NodeInfo, PodInfo, Pod], bool]:
    return lambda node_info, victim, preemptor: preemptor.priority >= priority


def victim_at_most(priority: int) -> Callable[[NodeInfo, PodInfo, Pod], bool]:
    return lambda node_info, victim, preemptor: victim.pod.priority <= priority


def labelled_victims() -> list[Pod]:
    return [
        p("v1", MID, "node1", LARGE, 0, preemptible="no"),
        p("v2", MID, "node2", LARGE, 0, preemptible="yes"),
        p("v3", LOW, "node3", LARGE, 0, preemptible="yes"),
        p("v4", LOW, "node4", LARGE, 0),
    ]


def node1_victims(v1_req: dict[str, str]) -> list[Pod]:
    return [
        p("v1", HIGH, "node1", v1_req, 0),
        p("v2", MID, "node1", SMALL, 0),
        p("v3", LOW, "node1", SMALL, 0),
        p("v4", MID, "node2", LARGE, 0),
        p("v5", LOW, "node3", LARGE, 0),
    ]


def one_per_node() -> list[Pod]:
    return [
        p("v1", HIGH, "node1", LARGE, 0),
        p("v2", MID, "node2", LARGE, 0),
        p("v3", LOW, "node3", LARGE, 0),
    ]


CUSTOM_SELECTION_CASES = [
    pytest.param(label_is("preemptible", "yes"), 4, p("p1", HIGH, req=LARGE), labelled_victims(),
                 {"node2": ["v2"], "node3": ["v3"]}, id="filter for matching pod label: high"),
    pytest.param(label_is("preemptible", "yes"), 4, p("p2", MID, req=LARGE), labelled_victims(),
                 {"node3": ["v3"]}, id="filter for matching pod label: mid"),
    pytest.param(label_is("preemptible", "yes"), 4, p("p3", LOW, req=LARGE), labelled_victims(),
                 {}, id="filter for matching pod label: low"),
    pytest.param(node_is("node1"), 3, p("p3", HIGH, req=LARGE), node1_victims(MEDIUM),
                 {"node1": ["v2", "v3"]}, id="filter for matching victim node: high"),
    pytest.param(node_is("node1"), 3, p("p3", MID, req=LARGE), node1_victims(SMALL),
                 {"node1": ["v3"]}, id="filter for matching victim node: mid"),
    pytest.param(node_is("node1"), 3, p("p3", LOW, req=LARGE), node1_victims(SMALL),
                 {}, id="filter for matching victim node: low"),
    pytest.param(preemptor_at_least(HIGH), 3, p("p1", HIGH, req=LARGE), one_per_node(),
                 {"node2": ["v2"], "node3": ["v3"]}, id="only pods at or above a priority: high"),
    pytest.param(preemptor_at_least(HIGH), 3, p("p2", MID, req=LARGE), one_per_node(),
                 {}, id="only pods at or above a priority: mid"),
    pytest.param(victim_at_most(MID), 3, p("p1", HIGH, req=LARGE), one_per_node(),
                 {"node2": ["v2"], "node3": ["v3"]}, id="only pods at or below a priority"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("eligible", "num_nodes", "preemptor", "pods", "expected"), CUSTOM_SELECTION_CASES
)
def test_custom_selection(
    eligible: Callable[[NodeInfo, PodInfo, Pod], bool],
    num_nodes: int,
    preemptor: Pod,
    pods: list[Pod],
    expected: dict[str, list[str]],
) -> None:
    nodes = nodes_named([f"node{i}" for i in range(1, num_nodes + 1)])
    plugin, handle = make_plugin(nodes, pods)
    plugin.is_eligible_pod = eligible  # type: ignore[method-assign, assignment]
    infos = handle.lister.node_infos()
    offset, num_candidates = plugin.offset_and_num_candidates(len(infos))
    candidates = plugin.dry_run(CycleState(), preemptor, infos, [], offset, num_candidates)
    remaining = list(candidates.candidates)
    assert len(remaining) == len(expected)
    while remaining:
        chosen = select_candidate(remaining)
        assert [v.metadata.name for v in chosen.victims] == expected[chosen.node_name]
        remaining.remove(chosen)


# upstream: TestCustomOrdering
def by_oldest_start(pod1: Pod, pod2: Pod) -> bool:
    return pod_start_time(pod1) < pod_start_time(pod2)


def by_name(pod1: Pod, pod2: Pod) -> bool:
    return pod1.metadata.name < pod2.metadata.name


@pytest.mark.parametrize(
    ("order", "pods", "expected"),
    [
        pytest.param(
            by_oldest_start,
            [p("v1", LOW, "node1", MEDIUM, 2), p("v2", LOW, "node1", MEDIUM, 0),
             p("v3", MID, "node1", MEDIUM, 1)],
            ["v3", "v1"],
            id="select newest pods",
        ),
        pytest.param(
            by_name,
            [make_pod("foo").uid("v1").node("node1").priority(LOW).req(MEDIUM).obj(),
             make_pod("bar").uid("v2").node("node1").priority(LOW).req(MEDIUM).obj(),
             make_pod("baz").uid("v3").node("node1").priority(MID).req(MEDIUM).obj()],
            ["baz", "foo"],
            id="select alphabetically-last pods",
        ),
    ],
)  # fmt: skip
def test_custom_ordering(
    order: Callable[[Pod, Pod], bool], pods: list[Pod], expected: list[str]
) -> None:
    plugin, handle = make_plugin(nodes_named(["node1"]), pods)
    plugin.more_important_pod = order
    infos = handle.lister.node_infos()
    result = plugin.dry_run(CycleState(), p("p2", HIGH, req=LARGE), infos, [], 0, 1)
    assert len(result.candidates) == 1
    assert [v.metadata.name for v in result.candidates[0].victims] == expected
