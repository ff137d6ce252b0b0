"""Properties on random clusters: the batch forms equal the per-node hooks, and no pod
passes Filter on a node with a hard taint it does not tolerate."""

from __future__ import annotations

import numpy as np
from attrs import evolve
from hypothesis import given
from hypothesis import strategies as st

from kubesched.api import Node, NodeSpec, ObjectMeta, Pod, PodSpec, Taint, Toleration
from kubesched.framework import Code, CycleState, NodeInfo, NodeTable
from kubesched_tainttoleration import TaintToleration
from kubesched_tainttoleration.plugin import REASON_UNTOLERATED
from kubesched_tainttoleration.tolerations import HARD_EFFECTS

EFFECTS = ["NoSchedule", "NoExecute", "PreferNoSchedule"]
KEYS = ["a", "b", "c"]
VALUES = ["", "1", "2"]

taints = st.builds(
    Taint, key=st.sampled_from(KEYS), value=st.sampled_from(VALUES), effect=st.sampled_from(EFFECTS)
)
tolerations = st.builds(
    Toleration,
    key=st.sampled_from(["", *KEYS]),
    operator=st.sampled_from(["", "Equal", "Exists", "Gt"]),
    value=st.sampled_from(VALUES),
    effect=st.sampled_from(["", *EFFECTS]),
)


def pods() -> st.SearchStrategy[Pod]:
    return st.lists(tolerations, max_size=3).map(lambda ts: Pod(spec=PodSpec(tolerations=ts)))


def nodes(name: str) -> st.SearchStrategy[Node]:
    return st.lists(taints, max_size=4).map(
        lambda ts: Node(metadata=ObjectMeta(name=name), spec=NodeSpec(taints=ts))
    )


@st.composite
def clusters(draw: st.DrawFn) -> list[NodeInfo]:
    """Node infos, some without taints, now and then one without a node."""
    count = draw(st.integers(min_value=0, max_value=25))
    infos = [NodeInfo(draw(nodes(f"n{i}"))) for i in range(count)]
    if draw(st.booleans()):
        infos.insert(draw(st.integers(min_value=0, max_value=count)), NodeInfo())
    return infos


PLUGIN = TaintToleration(None, None)


@given(pod=pods(), infos=clusters())
def test_filter_batch_equals_filter(pod: Pod, infos: list[NodeInfo]) -> None:
    mask = PLUGIN.filter_batch(state=CycleState(), pod=pod, table=NodeTable(infos))
    assert mask.dtype == np.bool_
    statuses = [PLUGIN.filter(state=CycleState(), pod=pod, node_info=ni) for ni in infos]
    assert mask.tolist() == [s is None for s in statuses]
    for ni, status in zip(infos, statuses, strict=True):
        if status is not None:
            want = (
                (Code.UNSCHEDULABLE_AND_UNRESOLVABLE, REASON_UNTOLERATED)
                if ni.node is not None
                else (Code.ERROR, "invalid nodeInfo")
            )
            assert (status.code, status.message) == want


@given(pod=pods(), infos=clusters(), data=st.data())
def test_score_batch_equals_score(pod: Pod, infos: list[NodeInfo], data: st.DataObject) -> None:
    with_node = [i for i, ni in enumerate(infos) if ni.node is not None]
    rows = np.array(data.draw(st.permutations(with_node)), dtype=np.intp)
    state = CycleState()
    PLUGIN.pre_score(state=state, pod=pod)
    scores = PLUGIN.score_batch(state=state, pod=pod, table=NodeTable(infos), rows=rows)
    assert scores.dtype == np.int64
    assert scores.tolist() == [PLUGIN.score(state=state, pod=pod, node_info=infos[i]) for i in rows]


@given(pod=pods(), infos=clusters(), replacement=nodes("replaced"), data=st.data())
def test_batch_follows_replaced_rows(
    pod: Pod, infos: list[NodeInfo], replacement: Node, data: st.DataObject
) -> None:
    table = NodeTable([*infos, NodeInfo(replacement)])
    PLUGIN.filter_batch(state=CycleState(), pod=pod, table=table)
    state = CycleState()
    PLUGIN.pre_score(state=state, pod=pod)
    PLUGIN.score_batch(state=state, pod=pod, table=table, rows=np.arange(len(table), dtype=np.intp))
    row = data.draw(st.integers(min_value=0, max_value=len(table) - 1))
    new_info = NodeInfo(data.draw(nodes("new")))
    table.replace_rows([(row, new_info)])
    assert PLUGIN.filter_batch(state=CycleState(), pod=pod, table=table)[row] == (
        PLUGIN.filter(state=CycleState(), pod=pod, node_info=new_info) is None
    )
    rows = np.array([row], dtype=np.intp)
    assert PLUGIN.score_batch(state=state, pod=pod, table=table, rows=rows).tolist() == [
        PLUGIN.score(state=state, pod=pod, node_info=new_info)
    ]


def _covers(toleration: Toleration, taint: Taint) -> bool:
    """The matching rules as documented, stated independently of the plugin's code."""
    key_ok = toleration.key in ("", taint.key)
    effect_ok = toleration.effect in ("", taint.effect)
    value_ok = toleration.operator == "Exists" or (
        toleration.operator in ("", "Equal") and toleration.value == taint.value
    )
    return key_ok and effect_ok and value_ok


@given(pod=pods(), node=nodes("n"))
def test_no_pod_passes_an_untolerated_hard_taint(pod: Pod, node: Node) -> None:
    untolerated = [
        t
        for t in node.spec.taints
        if t.effect in HARD_EFFECTS and not any(_covers(tol, t) for tol in pod.spec.tolerations)
    ]
    passes = PLUGIN.filter(state=CycleState(), pod=pod, node_info=NodeInfo(node)) is None
    assert passes == (not untolerated)


@given(pod=pods(), node=nodes("n"))
def test_prefer_no_schedule_taints_never_change_filter(pod: Pod, node: Node) -> None:
    hard = [t for t in node.spec.taints if t.effect in HARD_EFFECTS]
    hard_only = evolve(node, spec=evolve(node.spec, taints=hard))
    state = CycleState()
    with_all = PLUGIN.filter(state=state, pod=pod, node_info=NodeInfo(node))
    assert with_all == PLUGIN.filter(state=state, pod=pod, node_info=NodeInfo(hard_only))
