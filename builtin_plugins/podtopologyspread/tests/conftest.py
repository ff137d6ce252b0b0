"""Fixtures for the PodTopologySpread tests: `feasible_scores` scores only the feasible
nodes, by both forms, and normalises."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import pytest

from kubesched.api import Node, Pod
from kubesched.framework import NodeInfo, NodeScoreList
from kubesched.testing import PluginHarness
from kubesched_podtopologyspread import PodTopologySpread, PodTopologySpreadArgs


def scores(
    pod: Pod,
    nodes: Sequence[Node],
    failed: Sequence[Node] = (),
    pods: Sequence[Pod] = (),
    args: PodTopologySpreadArgs | None = None,
) -> dict[str, int]:
    """PreScore over the feasible `nodes` (all nodes: `nodes` + `failed`), then Score on
    them by both forms (they must agree), then NormalizeScore; {} when PreScore skips."""
    harness = PluginHarness(PodTopologySpread, args, nodes=[*nodes, *failed], pods=pods)
    plugin, state = harness.plugin, harness.state
    table = harness.snapshot.node_table
    names = [n.metadata.name for n in nodes]
    rows = np.array([table.index[n] for n in names], dtype=np.intp)
    feasible: list[NodeInfo] = [table.node_infos[r] for r in rows]
    status = plugin.pre_score(state=state, pod=pod, nodes=feasible)
    if status is not None:
        assert status.code.name == "SKIP", status
        return {}
    raw = [plugin.score(state=state, pod=pod, node_info=ni) for ni in feasible]
    batch = plugin.score_batch(state=state, pod=pod, table=table, rows=rows)
    assert batch.tolist() == raw
    result = NodeScoreList(names, np.array(raw, dtype=np.int64))
    assert plugin.normalize_score(state=state, scores=result) is None
    return result.as_dict()


@pytest.fixture
def feasible_scores() -> Callable[..., dict[str, int]]:
    return scores
