"""The batch Filter and Score agree with the per-node ones on random clusters and pods:
verdicts, reasons and scores."""

from __future__ import annotations

from random import Random

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from kubesched.api import (
    Node,
    NodeSelector,
    NodeSelectorRequirement,
    NodeSelectorTerm,
    Pod,
    PreferredSchedulingTerm,
)
from kubesched.api import NodeAffinity as Spec
from kubesched.errors import PluginError
from kubesched.framework import Code, CycleState, NodeInfo, NodeTable, Status
from kubesched.testing import make_node, make_pod
from kubesched_nodeaffinity import NodeAffinity, NodeAffinityArgs
from kubesched_nodeaffinity.plugin import REASON_ENFORCED, REASON_POD

KEYS = ["zone", "tier", "example.com/num"]
VALUES = ["a", "b", "", "1", "5", "07"]
NODE_VALUES = [*VALUES, "-3", "x y"]
NAMES = ["n0", "n1", "n2", ""]

keys = st.sampled_from(KEYS)
set_expressions = st.builds(
    NodeSelectorRequirement,
    keys,
    st.sampled_from(["In", "NotIn"]),
    st.lists(st.sampled_from(VALUES), min_size=1, max_size=2),
)
existence_expressions = st.builds(
    NodeSelectorRequirement, keys, st.sampled_from(["Exists", "DoesNotExist"])
)
number_expressions = st.builds(
    NodeSelectorRequirement,
    keys,
    st.sampled_from(["Gt", "Lt"]),
    st.lists(st.sampled_from(["0", "1", "5", "07"]), min_size=1, max_size=1),
)
any_expressions = st.builds(
    NodeSelectorRequirement,
    st.sampled_from([*KEYS, "invalid key"]),
    st.sampled_from(["In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt", "Bogus"]),
    st.lists(st.sampled_from(NODE_VALUES), max_size=2),
)
expressions = set_expressions | existence_expressions | number_expressions | any_expressions
name_fields = st.builds(
    NodeSelectorRequirement,
    st.just("metadata.name"),
    st.sampled_from(["In", "NotIn"]),
    st.lists(st.sampled_from(NAMES), min_size=1, max_size=1),
)
any_fields = st.builds(
    NodeSelectorRequirement,
    st.sampled_from(["metadata.name", "spec.other"]),
    st.sampled_from(["In", "NotIn", "Exists"]),
    st.lists(st.sampled_from(NAMES), max_size=2),
)
fields = name_fields | any_fields
terms = st.builds(NodeSelectorTerm, st.lists(expressions, max_size=2), st.lists(fields, max_size=2))
selectors = st.builds(NodeSelector, st.lists(terms, max_size=3))
preferred_terms = st.lists(
    st.builds(PreferredSchedulingTerm, st.integers(0, 10), terms), max_size=3
)
affinities = st.builds(Spec, st.none() | selectors, preferred_terms)
label_sets = st.dictionaries(keys, st.sampled_from(NODE_VALUES), max_size=3)


@st.composite
def nodes(draw: st.DrawFn) -> list[Node]:
    named = draw(st.lists(st.tuples(st.sampled_from(NAMES), label_sets), max_size=8))
    return [make_node(name).labels(labels).obj() for name, labels in named]


@st.composite
def pods(draw: st.DrawFn) -> Pod:
    selector = draw(st.dictionaries(keys, st.sampled_from(VALUES), max_size=2))
    builder = make_pod("p").node_selector(selector)
    affinity = draw(st.none() | affinities)
    return (builder.node_affinity(affinity) if affinity else builder).obj()


@st.composite
def plugins(draw: st.DrawFn) -> NodeAffinity:
    args = NodeAffinityArgs(draw(st.none() | affinities))
    assume(not args.validate(""))
    return NodeAffinity(args, None)


SETTINGS = settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.filter_too_much]
)


@SETTINGS
@given(plugins(), pods(), nodes(), st.booleans())
def test_filter_batch_matches_filter(
    plugin: NodeAffinity, pod: Pod, cluster: list[Node], pre_filter: bool
) -> None:
    state = CycleState()
    if pre_filter:
        plugin.pre_filter(state, pod)
    infos = [NodeInfo(n) for n in cluster]
    statuses = [plugin.filter(state, pod, ni) for ni in infos]
    assert plugin.filter_batch(state, pod, NodeTable(infos)).tolist() == [
        s is None for s in statuses
    ]
    enforced, own = plugin.filter_masks(state, pod, NodeTable(infos))
    reasons = [
        None if e and o else (REASON_POD if e else REASON_ENFORCED)
        for e, o in zip(enforced.tolist(), own.tolist(), strict=True)
    ]
    assert reasons == [None if s is None else s.message for s in statuses]
    assert all(s is None or s.code == Code.UNSCHEDULABLE_AND_UNRESOLVABLE for s in statuses)


@SETTINGS
@given(plugins(), pods(), nodes(), st.booleans(), st.randoms())
def test_score_batch_matches_score(
    plugin: NodeAffinity, pod: Pod, cluster: list[Node], pre_score: bool, random: Random
) -> None:
    state = CycleState()
    if pre_score:
        status = plugin.pre_score(state, pod)
        assume(status is None)
    infos = [NodeInfo(n) for n in cluster]
    rows = np.array(random.sample(range(len(infos)), k=random.randint(0, len(infos))), np.intp)
    probe = plugin.score(state, pod, NodeInfo(make_node("probe").obj()))
    if isinstance(probe, Status):
        assert probe.code == Code.ERROR
        with pytest.raises(PluginError) as raised:
            plugin.score_batch(state, pod, NodeTable(infos), rows)
        assert str(raised.value) == probe.message
        return
    scores = [plugin.score(state, pod, infos[i]) for i in rows]
    assert plugin.score_batch(state, pod, NodeTable(infos), rows).tolist() == scores


def test_columns_follow_replaced_rows() -> None:
    pod = make_pod("p").node_selector({"zone": "a"}).obj()
    plugin = NodeAffinity()
    table = NodeTable([NodeInfo(make_node("n0").label("zone", "b").obj())])
    state = CycleState()
    assert plugin.filter_batch(state, pod, table).tolist() == [False]
    table.replace_rows([(0, NodeInfo(make_node("n0").label("zone", "a").obj()))])
    assert plugin.filter_batch(state, pod, table).tolist() == [True]


def test_rows_without_a_node_read_as_an_empty_node() -> None:
    pod = make_pod("p").node_affinity_in("zone", ["a"]).obj()
    plugin = NodeAffinity()
    empty = NodeInfo()
    assert plugin.filter(CycleState(), pod, empty) is not None
    assert plugin.filter_batch(CycleState(), pod, NodeTable([empty])).tolist() == [False]
    assert plugin.filter_batch(CycleState(), make_pod("q").obj(), NodeTable([empty])).tolist() == [
        True
    ]
