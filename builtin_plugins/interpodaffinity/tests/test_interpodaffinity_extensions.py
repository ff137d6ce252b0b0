"""PreFilter's AddPod and RemovePod: upstream's TestPreFilterStateAddRemovePod table, and
the state's clone. Adding a pod gives the counts PreFilter computes with the pod already
there; removing it again gives the counts before."""

from __future__ import annotations

from typing import NamedTuple

import pytest
from ipa_testlib import IN, NOT_IN, affinity, node, pod, term

from kubesched.api import Node, Pod
from kubesched.framework import PodInfo
from kubesched.testing import PluginHarness
from kubesched_interpodaffinity import InterPodAffinity
from kubesched_interpodaffinity.counts import TopologyCounts
from kubesched_interpodaffinity.filtering import PreFilterState

KEY = "PreFilterInterPodAffinity"
NODES = [
    node("nodeA", {"region": "r1", "zone": "z11"}),
    node("nodeB", {"region": "r1", "zone": "z12"}),
    node("nodeC", {"region": "r2", "zone": "z21"}),
]
FOO_BAR = {"foo": "bar"}
ANTI_FOO_BAR = [term("region", ("foo", IN, ["bar"]))]
COMPLEX = [
    term("region", ("foo", IN, ["bar", "buzz"])),
    term("zone", ("service", NOT_IN, ["bar", "security", "test"])),
]


class Case(NamedTuple):
    pending: Pod
    existing: list[Pod]
    added: Pod
    want_anti: dict[tuple[str, str], int]
    want_affinity: dict[tuple[str, str], int]


CASES = {
    "anti-affinity counts": Case(
        pod(FOO_BAR, aff=affinity(anti=ANTI_FOO_BAR)),
        [
            pod(FOO_BAR, node_name="nodeA"),
            pod(node_name="nodeC", aff=affinity(anti=ANTI_FOO_BAR)),
        ],
        pod(FOO_BAR, node_name="nodeB", aff=affinity(anti=ANTI_FOO_BAR)),
        {("region", "r1"): 2},
        {},
    ),
    "anti-affinity counts, several terms": Case(
        pod(FOO_BAR, aff=affinity(anti=COMPLEX)),
        [
            pod(FOO_BAR, node_name="nodeA"),
            pod(node_name="nodeC", aff=affinity(anti=ANTI_FOO_BAR)),
        ],
        pod(FOO_BAR, node_name="nodeA", aff=affinity(anti=COMPLEX)),
        {("region", "r1"): 2, ("zone", "z11"): 2, ("zone", "z21"): 1},
        {},
    ),
    "affinity counts": Case(
        pod(FOO_BAR, aff=affinity(COMPLEX)),
        [
            pod(FOO_BAR, node_name="nodeA"),
            pod(node_name="nodeC", aff=affinity(COMPLEX, anti=ANTI_FOO_BAR)),
        ],
        pod(FOO_BAR, node_name="nodeA", aff=affinity(anti=COMPLEX)),
        {},
        {("region", "r1"): 2, ("zone", "z11"): 2},
    ),
}


def _state(
    nodes: list[Node], pods: list[Pod], pending: Pod
) -> tuple[PluginHarness, PreFilterState]:
    harness = PluginHarness(InterPodAffinity, nodes=nodes, pods=pods)
    assert harness.pre_filter(pending) is None
    return harness, harness.state.read_as(KEY, PreFilterState)


def _counts(state: PreFilterState) -> tuple[TopologyCounts, ...]:
    return (state.existing_anti_affinity, state.affinity, state.anti_affinity)


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_add_and_remove_pod(case: Case) -> None:
    _, with_added = _state(NODES, [*case.existing, case.added], case.pending)
    harness, state = _state(NODES, case.existing, case.pending)
    before = tuple(dict(c) for c in _counts(state))
    node_info = next(ni for ni in harness.nodes if ni.name == case.added.spec.node_name)
    added = PodInfo(case.added)
    fw = harness.framework
    assert (
        fw.run_pre_filter_extension_add_pod(harness.state, case.pending, added, node_info) is None
    )
    assert state.anti_affinity == case.want_anti
    assert state.affinity == case.want_affinity
    assert _counts(state) == _counts(with_added)
    status = fw.run_pre_filter_extension_remove_pod(harness.state, case.pending, added, node_info)
    assert status is None
    assert tuple(dict(c) for c in _counts(state)) == before


def test_clone_is_a_copy() -> None:
    _, state = _state(
        NODES, [pod(FOO_BAR, node_name="nodeA")], pod(aff=affinity(anti=ANTI_FOO_BAR))
    )
    clone = state.clone()
    assert clone is not state and _counts(clone) == _counts(state)
    clone.anti_affinity.add(("region", "r1"), 5)
    assert state.anti_affinity == {("region", "r1"): 1}


def test_counts_drop_pairs_that_return_to_zero() -> None:
    counts = TopologyCounts()
    counts.add(("zone", "a"), 1)
    counts.add(("zone", "a"), -1)
    assert counts == {}


def test_a_nominated_pod_counts_through_add_pod() -> None:
    """A pod nominated to nodeA (by an earlier preemption) is counted by AddPod when Filter
    runs with nominated pods: its label is selected by the incoming pod's anti-affinity."""
    nominated = pod(FOO_BAR, name="nominated")
    incoming = pod(name="incoming", aff=affinity(anti=[term("zone", ("foo", IN, ["bar"]))]))
    harness = PluginHarness(InterPodAffinity, nodes=NODES, pods=[nominated])
    harness.framework.nominator.add_nominated_pod(PodInfo(nominated), "nodeA")
    assert harness.pre_filter(incoming) is None
    fw, state = harness.framework, harness.state
    by_name = {ni.name: ni for ni in harness.nodes}
    status = fw.run_filter_plugins_with_nominated_pods(state, incoming, by_name["nodeA"])
    assert status is not None and status.reasons == (
        "node(s) didn't match pod anti-affinity rules",
    )
    assert fw.run_filter_plugins_with_nominated_pods(state, incoming, by_name["nodeB"]) is None
    assert fw.run_filter_plugins(state, incoming, by_name["nodeA"]) is None
