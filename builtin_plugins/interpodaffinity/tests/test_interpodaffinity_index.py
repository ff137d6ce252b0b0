"""The index-based PreFilter and PreScore states equal the reference walks over every pod,
on random clusters with random terms of all four kinds (namespaces, namespaceSelectors,
several operators and topology keys), also after pods come and go between cycles
while one index is kept; and the batch forms agree with Filter and Score there."""

from __future__ import annotations

from unittest.mock import patch

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ipa_reference import pre_filter_state as reference_pre_filter
from ipa_reference import score_of, topology_score
from ipa_testlib import EXISTS, IN, NOT_IN, affinity, node, pod, sel, weighted

from kubesched.api import LabelSelector, Namespace, Node, ObjectMeta, Pod, PodAffinityTerm
from kubesched.framework import NodeTable, pod_affinity_terms
from kubesched.testing import PluginHarness, assert_batch_agrees
from kubesched_interpodaffinity import InterPodAffinity, InterPodAffinityArgs, columns, from_index
from kubesched_interpodaffinity import index as index_module
from kubesched_interpodaffinity.filtering import PreFilterState
from kubesched_interpodaffinity.index import ClusterIndex

KEYS = ("kubernetes.io/hostname", "zone", "region")
APPS = ("a", "b", "c")
NAMESPACES = [
    Namespace(ObjectMeta(name="ns1", labels={"team": "t1"})),
    Namespace(ObjectMeta(name="ns2", labels={"team": "t2"})),
    Namespace(ObjectMeta(name="ns3")),
]
NAMESPACE_NAMES = ("ns1", "ns2", "ns3", "gone")
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def nodes(draw: st.DrawFn) -> list[Node]:
    count = draw(st.integers(1, 7))
    zones = draw(st.integers(1, 3))
    out = []
    for i in range(count):
        labels = {"kubernetes.io/hostname": f"n{i}"}
        if draw(st.integers(0, 4)):
            labels["zone"] = f"z{i % zones}"
        if draw(st.booleans()):
            labels["region"] = "r1"
        out.append(node(f"n{i}", labels))
    return out


@st.composite
def terms(draw: st.DrawFn) -> PodAffinityTerm:
    operator = draw(st.sampled_from((IN, NOT_IN, EXISTS)))
    values = [] if operator == EXISTS else draw(st.lists(st.sampled_from(APPS), min_size=1))
    namespace_selector = draw(
        st.sampled_from(
            (None, None, LabelSelector(), sel(("team", IN, ["t1"])), sel(("team", NOT_IN, ["t1"])))
        )
    )
    return PodAffinityTerm(
        topology_key=draw(st.sampled_from(KEYS)),
        label_selector=sel(("app", operator, values)),
        namespaces=draw(st.lists(st.sampled_from(NAMESPACE_NAMES), max_size=2)),
        namespace_selector=namespace_selector,
    )


@st.composite
def pods(draw: st.DrawFn, node_names: list[str], count: int) -> list[Pod]:
    out = []
    for _ in range(count):
        small = st.lists(terms(), max_size=2)
        aff = affinity(
            draw(st.lists(terms(), max_size=1)),
            draw(st.lists(terms(), max_size=1)),
            [weighted(draw(st.integers(1, 100)), t) for t in draw(small)],
            [weighted(draw(st.integers(1, 100)), t) for t in draw(small)],
        )
        labels = {"app": draw(st.sampled_from(APPS))} if draw(st.integers(0, 5)) else {}
        out.append(
            pod(
                labels,
                node_name=draw(st.sampled_from(node_names)) if node_names else "",
                namespace=draw(st.sampled_from(NAMESPACE_NAMES[:3])),
                aff=aff if draw(st.booleans()) else None,
            )
        )
    return out


def _filter_counts(state: PreFilterState | None) -> object:
    if state is None or state.is_trivial():
        return None
    return (
        dict(state.existing_anti_affinity),
        dict(state.affinity),
        dict(state.anti_affinity),
        state.affinity_terms,
        state.anti_affinity_terms,
    )


def _assert_states_agree(
    incoming: Pod, table: NodeTable, index: ClusterIndex, args: InterPodAffinityArgs
) -> None:
    compiled = pod_affinity_terms(incoming)
    want = reference_pre_filter(incoming, compiled, table, NAMESPACES)
    got = from_index.pre_filter_state(incoming, compiled, table, index, NAMESPACES)
    assert _filter_counts(got) == _filter_counts(want)
    if got is not None and got.positive is not None:
        from_flags = columns.filter_mask(table, got)
        got.positive = None
        assert columns.filter_mask(table, got).tolist() == from_flags.tolist()
    reference = topology_score(incoming, compiled, table, NAMESPACES, args)
    fast = from_index.pre_score_state(incoming, compiled, table, index, NAMESPACES, args)
    assert (fast is None) == (reference is None)
    if fast is None or reference is None:
        return
    per_node = {
        ni.name: score_of(reference, ni.node.metadata.labels)
        for ni in table.node_infos
        if ni.node is not None
    }
    assert {
        ni.name: fast.score(ni.node.metadata.labels)
        for ni in table.node_infos
        if ni.node is not None
    } == per_node
    rows = np.arange(len(table), dtype=np.intp)
    assert dict(zip(table.names, columns.scores(table, rows, fast).tolist(), strict=True)) == (
        per_node
    )


@SETTINGS
@given(data=st.data())
def test_index_states_equal_the_reference_walks(data: st.DataObject) -> None:
    cluster_nodes = data.draw(nodes())
    names = [n.metadata.name for n in cluster_nodes]
    existing = data.draw(pods(names, data.draw(st.integers(0, 10))))
    (incoming,) = data.draw(pods([], 1))
    args = InterPodAffinityArgs(data.draw(st.integers(0, 3)), data.draw(st.booleans()))
    dense_after = data.draw(st.sampled_from((index_module.DENSE_AFTER, 0, 1)))
    with patch.object(index_module, "DENSE_AFTER", dense_after):
        _index_states(data, cluster_nodes, existing, incoming, args)


def _index_states(
    data: st.DataObject,
    cluster_nodes: list[Node],
    existing: list[Pod],
    incoming: Pod,
    args: InterPodAffinityArgs,
) -> None:
    names = [n.metadata.name for n in cluster_nodes]
    harness = PluginHarness(
        InterPodAffinity, nodes=cluster_nodes, pods=existing, namespaces=NAMESPACES
    )
    index = ClusterIndex()
    _assert_states_agree(incoming, harness.snapshot.node_table, index, args)
    for _ in range(3):
        most = len(existing) - 1
        gone = data.draw(st.sets(st.integers(0, most), max_size=2)) if existing else set()
        for i in sorted(gone, reverse=True):
            harness.cache.remove_pod(existing.pop(i))
        added = data.draw(pods(names, data.draw(st.integers(0, 3))))
        for p in added:
            harness.cache.add_pod(p)
        existing += added
        harness.new_cycle()
        _assert_states_agree(incoming, harness.snapshot.node_table, index, args)


@SETTINGS
@given(data=st.data())
def test_batch_forms_agree_with_random_terms(data: st.DataObject) -> None:
    cluster_nodes = data.draw(nodes())
    names = [n.metadata.name for n in cluster_nodes]
    existing = data.draw(pods(names, data.draw(st.integers(0, 10))))
    (incoming,) = data.draw(pods([], 1))
    args = InterPodAffinityArgs(data.draw(st.integers(0, 3)), data.draw(st.booleans()))
    assert_batch_agrees(
        InterPodAffinity, incoming, cluster_nodes, args, pods=existing, namespaces=NAMESPACES
    )
