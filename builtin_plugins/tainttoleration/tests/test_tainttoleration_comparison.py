"""The Gt and Lt toleration operators behind TaintTolerationComparisonOperators: off by
default (they tolerate nothing), on through the Handle's feature gates; the batch forms
agree with the per-node hooks either way, in the same process."""

from __future__ import annotations

import numpy as np
from attrs import frozen
from hypothesis import given
from hypothesis import strategies as st

from kubesched.api import Node, NodeSpec, ObjectMeta, Pod, PodSpec, Taint, Toleration
from kubesched.features import parse_feature_gates
from kubesched.framework import (
    DEFAULT_FEATURE_GATES,
    ActionType,
    ClusterEvent,
    CycleState,
    EventResource,
    FeatureGates,
    NodeInfo,
    NodeTable,
    QueueingHint,
)
from kubesched_tainttoleration import TaintToleration


@frozen
class _Handle:
    feature_gates: FeatureGates


ON = TaintToleration(None, _Handle(parse_feature_gates("TaintTolerationComparisonOperators=true")))
OFF = TaintToleration(None, _Handle(DEFAULT_FEATURE_GATES))

VALUES = ["", "1", "5", "10", "-3", "01", "x"]
taints = st.builds(
    Taint,
    key=st.sampled_from(["a", "b"]),
    value=st.sampled_from(VALUES),
    effect=st.sampled_from(["NoSchedule", "NoExecute", "PreferNoSchedule"]),
)
tolerations = st.builds(
    Toleration,
    key=st.sampled_from(["", "a", "b"]),
    operator=st.sampled_from(["", "Equal", "Exists", "Gt", "Lt"]),
    value=st.sampled_from(VALUES),
    effect=st.sampled_from(["", "NoSchedule", "PreferNoSchedule"]),
)
pods = st.lists(tolerations, max_size=3).map(lambda ts: Pod(spec=PodSpec(tolerations=ts)))


def _node(name: str, *taints: Taint) -> Node:
    return Node(metadata=ObjectMeta(name=name), spec=NodeSpec(taints=list(taints)))


@st.composite
def clusters(draw: st.DrawFn) -> list[NodeInfo]:
    count = draw(st.integers(min_value=0, max_value=12))
    return [NodeInfo(_node(f"n{i}", *draw(st.lists(taints, max_size=3)))) for i in range(count)]


def _sla_pod(operator: str, value: str) -> Pod:
    toleration = Toleration(key="sla", operator=operator, value=value, effect="NoSchedule")
    return Pod(spec=PodSpec(tolerations=[toleration]))


SLA_950 = NodeInfo(_node("n", Taint(key="sla", value="950", effect="NoSchedule")))


def test_gt_tolerates_a_greater_taint_value_only_with_the_gate() -> None:
    pod = _sla_pod("Gt", "900")
    assert ON.filter(state=CycleState(), pod=pod, node_info=SLA_950) is None
    assert OFF.filter(state=CycleState(), pod=pod, node_info=SLA_950) is not None
    assert ON.filter(state=CycleState(), pod=_sla_pod("Gt", "950"), node_info=SLA_950) is not None


def test_lt_tolerates_a_smaller_taint_value_only_with_the_gate() -> None:
    assert ON.filter(state=CycleState(), pod=_sla_pod("Lt", "1000"), node_info=SLA_950) is None
    assert ON.filter(state=CycleState(), pod=_sla_pod("Lt", "900"), node_info=SLA_950) is not None
    assert OFF.filter(state=CycleState(), pod=_sla_pod("Lt", "1000"), node_info=SLA_950) is not None


def test_the_node_hint_follows_the_gate() -> None:
    pod = _sla_pod("Gt", "900")
    old = _node("n", Taint(key="sla", value="800", effect="NoSchedule"))
    new = _node("n", Taint(key="sla", value="950", effect="NoSchedule"))
    event = ClusterEvent(EventResource.NODE, ActionType.ADD | ActionType.UPDATE_NODE_TAINT)
    [on_hint] = [r.hint for r in ON.events_to_register() if r.event == event]
    [off_hint] = [r.hint for r in OFF.events_to_register() if r.event == event]
    assert on_hint is not None and off_hint is not None
    assert on_hint(pod, old, new) is QueueingHint.QUEUE
    assert off_hint(pod, old, new) is QueueingHint.QUEUE_SKIP


@given(pod=pods, infos=clusters())
def test_filter_batch_equals_filter_under_either_gate(pod: Pod, infos: list[NodeInfo]) -> None:
    for plugin in (ON, OFF):
        mask = plugin.filter_batch(state=CycleState(), pod=pod, table=NodeTable(infos))
        want = [plugin.filter(state=CycleState(), pod=pod, node_info=ni) is None for ni in infos]
        assert mask.tolist() == want


@given(pod=pods, infos=clusters())
def test_score_batch_equals_score_under_either_gate(pod: Pod, infos: list[NodeInfo]) -> None:
    rows = np.arange(len(infos), dtype=np.intp)
    for plugin in (ON, OFF):
        state = CycleState()
        plugin.pre_score(state=state, pod=pod)
        scores = plugin.score_batch(state=state, pod=pod, table=NodeTable(infos), rows=rows)
        want = [plugin.score(state=state, pod=pod, node_info=ni) for ni in infos]
        assert scores.tolist() == want


@given(pod=pods, infos=clusters())
def test_the_gate_only_adds_tolerated_nodes(pod: Pod, infos: list[NodeInfo]) -> None:
    table = NodeTable(infos)
    on = ON.filter_batch(state=CycleState(), pod=pod, table=table)
    off = OFF.filter_batch(state=CycleState(), pod=pod, table=table)
    assert not (off & ~on).any()
    if all(t.operator not in ("Gt", "Lt") for t in pod.spec.tolerations):
        assert on.tolist() == off.tolist()
