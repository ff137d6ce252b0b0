"""NodeAffinity PreScore, Score and NormalizeScore: upstream's TestNodeAffinityPriority and
TestDefaultNormalizeScore tables.

Each scoring case also runs the batch Score, which must give the same raw scores.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pytest

from kubesched.api import Node, Pod, PreferredSchedulingTerm
from kubesched.api import NodeAffinity as Spec
from kubesched.api import NodeSelectorRequirement as R
from kubesched.api import NodeSelectorTerm as T
from kubesched.errors import PluginError
from kubesched.framework import (
    MAX_NODE_SCORE,
    Code,
    CycleState,
    NodeInfo,
    NodeScoreList,
    NodeTable,
    Status,
)
from kubesched.testing import make_node, make_pod
from kubesched_nodeaffinity import NodeAffinity, NodeAffinityArgs

LABEL1 = {"foo": "bar"}
LABEL2 = {"key": "value"}
LABEL3 = {"az": "az1"}
LABEL4 = {"abc": "az11", "def": "az22"}
LABEL5 = {"foo": "bar", "key": "value", "az": "az1"}


def preferred(*terms: tuple[int, list[R]]) -> Spec:
    return Spec(
        preferred_during_scheduling_ignored_during_execution=[
            PreferredSchedulingTerm(weight, T(exprs)) for weight, exprs in terms
        ]
    )


AFFINITY1 = preferred((2, [R("foo", "In", ["bar"])]))
AFFINITY2 = preferred(
    (2, [R("foo", "In", ["bar"])]),
    (4, [R("key", "In", ["value"])]),
    (5, [R("foo", "In", ["bar"]), R("key", "In", ["value"]), R("az", "In", ["az1"])]),
)
BROKEN = preferred((2, [R("invalid key", "In", ["bar"])]))
BROKEN_MESSAGE = (
    '[0].matchExpressions[0].key: Invalid value: "invalid key": name part must consist of '
    "alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric "
    "character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
    "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
)


def pod(affinity: Spec | None = None) -> Pod:
    builder = make_pod("p")
    return (builder.node_affinity(affinity) if affinity else builder).obj()


def nodes(*named: tuple[str, dict[str, str]]) -> list[Node]:
    return [make_node(name).labels(labels).obj() for name, labels in named]


class Case(NamedTuple):
    name: str
    pod: Pod
    nodes: list[Node]
    expected: list[int]
    added: Spec | None = None
    run_pre_score: bool = True


CASES = [
    Case(
        "all nodes are same priority as NodeAffinity is nil",
        pod(),
        nodes(("node1", LABEL1), ("node2", LABEL2), ("node3", LABEL3)),
        [0, 0, 0],
        run_pre_score=False,
    ),
    Case(
        "no node matches preferred scheduling requirements, all scores are zero",
        pod(AFFINITY1),
        nodes(("node1", LABEL4), ("node2", LABEL2), ("node3", LABEL3)),
        [0, 0, 0],
    ),
    Case(
        "only node1 matches the preferred scheduling requirements of pod",
        pod(AFFINITY1),
        nodes(("node1", LABEL1), ("node2", LABEL2), ("node3", LABEL3)),
        [MAX_NODE_SCORE, 0, 0],
    ),
    Case(
        "all nodes match the preferred requirements but with different priorities",
        pod(AFFINITY2),
        nodes(("node1", LABEL1), ("node5", LABEL5), ("node2", LABEL2)),
        [18, MAX_NODE_SCORE, 36],
    ),
    Case(
        "added affinity",
        pod(),
        nodes(("node1", LABEL1), ("node2", LABEL2)),
        [MAX_NODE_SCORE, 0],
        added=AFFINITY1,
    ),
    Case(
        "added affinity and pod has default affinity",
        pod(AFFINITY1),
        nodes(("node1", LABEL1), ("node2", LABEL2), ("node3", LABEL5)),
        [40, 60, MAX_NODE_SCORE],
        added=preferred((3, [R("key", "In", ["value"])])),
    ),
    Case(
        "calculate the priorities correctly even if PreScore is not called",
        pod(AFFINITY2),
        nodes(("node1", LABEL1), ("node5", LABEL5), ("node2", LABEL2)),
        [18, MAX_NODE_SCORE, 36],
        run_pre_score=False,
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_node_affinity_priority(case: Case) -> None:
    plugin = NodeAffinity(NodeAffinityArgs(added_affinity=case.added), None)
    state = CycleState()
    if case.run_pre_score:
        assert plugin.pre_score(state, case.pod) is None
    infos = [NodeInfo(n) for n in case.nodes]
    raw = [plugin.score(state, case.pod, ni) for ni in infos]
    batch = plugin.score_batch(state, case.pod, NodeTable(infos), np.arange(len(infos)))
    assert batch.tolist() == raw
    scores = NodeScoreList([n.name for n in case.nodes], np.array(raw, dtype=np.int64))
    plugin.normalize_score(scores)
    assert scores.scores.tolist() == case.expected


def test_pre_score_skips_pods_without_preferred_terms() -> None:
    assert NodeAffinity().pre_score(CycleState(), pod()) == Status(Code.SKIP)


def test_pre_score_does_not_skip_when_args_add_preferred_terms() -> None:
    plugin = NodeAffinity(NodeAffinityArgs(AFFINITY1), None)
    state = CycleState()
    assert plugin.pre_score(state, pod()) is None
    assert state.clone().read("PreScoreNodeAffinity") is state.read("PreScoreNodeAffinity")


def test_pre_score_reports_a_broken_affinity() -> None:
    status = NodeAffinity().pre_score(CycleState(), pod(BROKEN))
    assert status is not None
    assert status.code == Code.ERROR
    assert status.message == BROKEN_MESSAGE


def test_score_without_pre_score_reports_a_broken_affinity() -> None:
    node_info = NodeInfo(make_node("node1").labels(LABEL1).obj())
    status = NodeAffinity().score(CycleState(), pod(BROKEN), node_info)
    assert isinstance(status, Status)
    assert (status.code, status.message) == (Code.ERROR, BROKEN_MESSAGE)
    with pytest.raises(PluginError, match="invalid key"):
        NodeAffinity().score_batch(CycleState(), pod(BROKEN), NodeTable([node_info]), np.arange(1))
