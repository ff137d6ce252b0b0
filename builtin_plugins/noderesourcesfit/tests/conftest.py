"""Helpers shared by the NodeResourcesFit tests: run the plugin as the framework would.

Every run also calls the batch form on the same nodes and checks it agrees
with the per-node form, so each table case doubles as a batch check.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import pytest

from kubesched.api import Node, Pod
from kubesched.framework import CycleState, NodeInfo, NodeTable, PodInfo, Status
from kubesched_noderesourcesfit import NodeResourcesFit, NodeResourcesFitArgs

RunFilter = Callable[[NodeResourcesFitArgs | None, Pod, NodeInfo], Status | None]
RunScores = Callable[..., list[tuple[str, int]]]


def build_node_infos(nodes: Sequence[Node], pods: Sequence[Pod] = ()) -> list[NodeInfo]:
    """NodeInfos with each pod on the node its spec.nodeName names (as a snapshot holds them)."""
    return [
        NodeInfo(node, [PodInfo(p) for p in pods if p.spec.node_name == node.name])
        for node in nodes
    ]


def filter_status(
    args: NodeResourcesFitArgs | None, pod: Pod, node_info: NodeInfo
) -> Status | None:
    plugin = NodeResourcesFit(args, None)
    state = CycleState()
    assert plugin.pre_filter(state, pod, [node_info]) is None
    status = plugin.filter(state, pod, node_info)
    mask = plugin.filter_batch(state, pod, NodeTable([node_info]))
    assert mask.tolist() == [status is None], "filter_batch disagrees with filter"
    return status


def scores(
    args: NodeResourcesFitArgs | None,
    pod: Pod,
    nodes: Sequence[Node],
    existing: Sequence[Pod] = (),
    *,
    pre_score: bool = True,
) -> list[tuple[str, int]]:
    plugin = NodeResourcesFit(args, None)
    infos = build_node_infos(nodes, existing)
    state = CycleState()
    if pre_score:
        assert plugin.pre_score(state, pod, infos) is None
    per_node = [(ni.name, plugin.score(state, pod, ni)) for ni in infos]
    rows = np.arange(len(infos), dtype=np.intp)
    batch = plugin.score_batch(state, pod, NodeTable(infos), rows)
    assert batch.tolist() == [s for _, s in per_node], "score_batch disagrees with score"
    return per_node


@pytest.fixture
def run_filter() -> RunFilter:
    """PreFilter then Filter (and filter_batch) of a fresh plugin built with these args."""
    return filter_status


@pytest.fixture
def run_scores() -> RunScores:
    """(PreScore then) Score of every node (and score_batch), as [(node name, score)]."""
    return scores
