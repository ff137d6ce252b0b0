"""PreScore, Score and NormalizeScore, re-expressing upstream's TestTaintTolerationScore and
TestDefaultNormalizeScore."""

from __future__ import annotations

import numpy as np
import pytest

from kubesched.api import Node, Pod
from kubesched.framework import Code, CycleState, NodeInfo, NodeScoreList, Status
from kubesched.testing import make_node, make_pod
from kubesched_tainttoleration import TaintToleration

PNS = "PreferNoSchedule"


def run_scoring(pod: Pod, nodes: list[Node]) -> dict[str, int]:
    """PreScore, Score on every node, then NormalizeScore, as upstream's test does."""
    plugin = TaintToleration(None, None)
    state = CycleState()
    infos = [NodeInfo(n) for n in nodes]
    assert plugin.pre_score(state=state, pod=pod) is None
    raw = [plugin.score(state=state, pod=pod, node_info=ni) for ni in infos]
    assert all(isinstance(s, int) for s in raw)
    scores = NodeScoreList([ni.name for ni in infos], np.array(raw, dtype=np.int64))
    assert plugin.normalize_score(scores=scores) is None
    return scores.as_dict()


# (name, pod, nodes, expected normalised scores)
CASES = [
    (
        "a node whose taints the pod tolerates outscores one with an intolerable taint",
        make_pod("pod1").toleration("foo", value="bar", effect=PNS, operator="Equal").obj(),
        [
            make_node("nodeA").taint("foo", "bar", PNS).obj(),
            make_node("nodeB").taint("foo", "blah", PNS).obj(),
        ],
        {"nodeA": 100, "nodeB": 0},
    ),
    (
        "how many tolerated taints a node has does not matter",
        make_pod("pod1")
        .toleration("cpu-type", value="arm64", effect=PNS, operator="Equal")
        .toleration("disk-type", value="ssd", effect=PNS, operator="Equal")
        .obj(),
        [
            make_node("nodeA").obj(),
            make_node("nodeB").taint("cpu-type", "arm64", PNS).obj(),
            make_node("nodeC").taint("cpu-type", "arm64", PNS).taint("disk-type", "ssd", PNS).obj(),
        ],
        {"nodeA": 100, "nodeB": 100, "nodeC": 100},
    ),
    (
        "the more intolerable taints a node has, the lower it scores",
        make_pod("pod1").toleration("foo", value="bar", effect=PNS, operator="Equal").obj(),
        [
            make_node("nodeA").obj(),
            make_node("nodeB").taint("cpu-type", "arm64", PNS).obj(),
            make_node("nodeC").taint("cpu-type", "arm64", PNS).taint("disk-type", "ssd", PNS).obj(),
        ],
        {"nodeA": 100, "nodeB": 50, "nodeC": 0},
    ),
    (
        "only PreferNoSchedule taints and tolerations count",
        make_pod("pod1")
        .toleration("cpu-type", value="arm64", effect="NoSchedule", operator="Equal")
        .toleration("disk-type", value="ssd", effect="NoSchedule", operator="Equal")
        .obj(),
        [
            make_node("nodeA").obj(),
            make_node("nodeB").taint("cpu-type", "arm64", "NoSchedule").obj(),
            make_node("nodeC").taint("cpu-type", "arm64", PNS).taint("disk-type", "ssd", PNS).obj(),
        ],
        {"nodeA": 100, "nodeB": 100, "nodeC": 0},
    ),
    (
        "without tolerations the pod prefers the node without taints",
        make_pod("pod1").obj(),
        [
            make_node("nodeA").obj(),
            make_node("nodeB").taint("cpu-type", "arm64", PNS).obj(),
        ],
        {"nodeA": 100, "nodeB": 0},
    ),
    # Beyond upstream's table: a toleration without effect covers PreferNoSchedule.
    (
        "a toleration with an empty effect covers a PreferNoSchedule taint",
        make_pod("pod1").toleration("foo", operator="Exists").obj(),
        [
            make_node("nodeA").taint("foo", "x", PNS).obj(),
            make_node("nodeB").taint("bar", "x", PNS).obj(),
        ],
        {"nodeA": 100, "nodeB": 0},
    ),
]


@pytest.mark.parametrize(
    ("pod", "nodes", "expected"),
    [pytest.param(pod, nodes, want, id=name) for name, pod, nodes, want in CASES],
)
def test_score(pod: Pod, nodes: list[Node], expected: dict[str, int]) -> None:
    assert run_scoring(pod, nodes) == expected


def test_raw_score_counts_untolerated_prefer_no_schedule_taints() -> None:
    plugin = TaintToleration(None, None)
    state = CycleState()
    pod = make_pod("p").toleration("a", effect=PNS).obj()
    plugin.pre_score(state=state, pod=pod)
    node = make_node("n").taint("a", "", PNS).taint("b", "", PNS).taint("c", "", PNS)
    node = node.taint("d", "", "NoSchedule")
    assert plugin.score(state=state, pod=pod, node_info=NodeInfo(node.obj())) == 2


def test_score_without_pre_score_is_an_error() -> None:
    status = TaintToleration(None, None).score(
        state=CycleState(), pod=make_pod("p").obj(), node_info=NodeInfo(make_node("n").obj())
    )
    assert isinstance(status, Status)
    assert status.code == Code.ERROR
    assert status.message == 'failed to read "PreScoreTaintToleration" from cycleState: not found'


def test_pre_score_state_survives_a_cycle_state_clone() -> None:
    plugin = TaintToleration(None, None)
    state = CycleState()
    pod = make_pod("p").obj()
    plugin.pre_score(state=state, pod=pod)
    node_info = NodeInfo(make_node("n").taint("a", "", PNS).obj())
    assert plugin.score(state=state.clone(), pod=pod, node_info=node_info) == 1


# (reverse, raw scores, normalised scores)
