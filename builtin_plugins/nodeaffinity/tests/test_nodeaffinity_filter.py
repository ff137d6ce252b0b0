"""NodeAffinity PreFilter and Filter: upstream's TestNodeAffinity table, case by case.

Each case also runs the batch Filter over a one-row table, which must agree.
"""

from __future__ import annotations

from typing import NamedTuple

import pytest

from kubesched.api import NodeAffinity as Spec
from kubesched.api import NodeSelector, Pod
from kubesched.api import NodeSelectorRequirement as R
from kubesched.api import NodeSelectorTerm as T
from kubesched.framework import (
    Code,
    CycleState,
    NodeInfo,
    NodeTable,
    PreFilterResult,
    Status,
)
from kubesched.testing import make_node, make_pod
from kubesched_nodeaffinity import NodeAffinity, NodeAffinityArgs
from kubesched_nodeaffinity.plugin import REASON_CONFLICT, REASON_ENFORCED, REASON_POD

NAME = "metadata.name"
POD_MISMATCH = Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, REASON_POD)


def required(*terms: T) -> Spec:
    return Spec(required_during_scheduling_ignored_during_execution=NodeSelector(list(terms)))


def pod(affinity: Spec | None = None, selector: dict[str, str] | None = None) -> Pod:
    builder = make_pod("p").node_selector(selector or {})
    return (builder.node_affinity(affinity) if affinity else builder).obj()


class Case(NamedTuple):
    name: str
    pod: Pod
    labels: dict[str, str]
    node_name: str = ""
    want_status: Status | None = None
    want_pre_filter: Status | PreFilterResult | None = None
    added: Spec | None = None
    run_pre_filter: bool = True


CASES = [
    Case("missing labels", pod(selector={"foo": "bar"}), {}, want_status=POD_MISMATCH),
    Case("same labels", pod(selector={"foo": "bar"}), {"foo": "bar"}),
    Case(
        "node labels are superset",
        pod(selector={"foo": "bar"}),
        {"foo": "bar", "baz": "blah"},
    ),
    Case(
        "node labels are subset",
        pod(selector={"foo": "bar", "baz": "blah"}),
        {"foo": "bar"},
        want_status=POD_MISMATCH,
    ),
    Case(
        "In operator that matches the existing node",
        pod(required(T([R("foo", "In", ["bar", "value2"])]))),
        {"foo": "bar"},
    ),
    Case(
        "Gt operator that matches the existing node",
        pod(required(T([R("kernel-version", "Gt", ["0204"])]))),
        {"kernel-version": "0206"},
    ),
    Case(
        "NotIn operator that matches the existing node",
        pod(required(T([R("mem-type", "NotIn", ["DDR", "DDR2"])]))),
        {"mem-type": "DDR3"},
    ),
    Case(
        "Exists operator that matches the existing node",
        pod(required(T([R("GPU", "Exists")]))),
        {"GPU": "NVIDIA-GRID-K1"},
    ),
    Case(
        "affinity that doesn't match node's labels",
        pod(required(T([R("foo", "In", ["value1", "value2"])]))),
        {"foo": "bar"},
        want_status=POD_MISMATCH,
    ),
    Case(
        "empty MatchExpressions matches no objects",
        pod(required(T(match_expressions=[]))),
        {"foo": "bar"},
        want_status=POD_MISMATCH,
    ),
    Case(
        "no Affinity",
        pod(),
        {"foo": "bar"},
        want_pre_filter=Status(Code.SKIP),
    ),
    Case(
        "Affinity but nil NodeSelector",
        pod(Spec(required_during_scheduling_ignored_during_execution=None)),
        {"foo": "bar"},
        want_pre_filter=Status(Code.SKIP),
    ),
    Case(
        "multiple matchExpressions ANDed that matches the existing node",
        pod(required(T([R("GPU", "Exists"), R("GPU", "NotIn", ["AMD", "INTER"])]))),
        {"GPU": "NVIDIA-GRID-K1"},
    ),
    Case(
        "multiple matchExpressions ANDed that doesn't match the existing node",
        pod(required(T([R("GPU", "Exists"), R("GPU", "In", ["AMD", "INTER"])]))),
        {"GPU": "NVIDIA-GRID-K1"},
        want_status=POD_MISMATCH,
    ),
    Case(
        "multiple NodeSelectorTerms ORed",
        pod(
            required(
                T([R("foo", "In", ["bar", "value2"])]),
                T([R("diffkey", "In", ["wrong", "value2"])]),
            )
        ),
        {"foo": "bar"},
    ),
    Case(
        "Affinity and nodeSelector both satisfied",
        pod(required(T([R("foo", "Exists")])), selector={"foo": "bar"}),
        {"foo": "bar"},
    ),
    Case(
        "Affinity matches but nodeSelector is not satisfied",
        pod(required(T([R("foo", "Exists")])), selector={"foo": "bar"}),
        {"foo": "barrrrrr"},
        want_status=POD_MISMATCH,
    ),
    Case(
        "invalid value in Affinity term",
        pod(required(T([R("foo", "NotIn", ["invalid value: ___@#$%^"])]))),
        {"foo": "bar"},
        want_status=POD_MISMATCH,
    ),
    Case(
        "matchFields In that matches the existing node",
        pod(required(T(match_fields=[R(NAME, "In", ["node1"])]))),
        {},
        node_name="node1",
        want_pre_filter=PreFilterResult(frozenset({"node1"})),
    ),
    Case(
        "matchFields In that does not match the existing node",
        pod(required(T(match_fields=[R(NAME, "In", ["node1"])]))),
        {},
        node_name="node2",
        want_status=POD_MISMATCH,
        want_pre_filter=PreFilterResult(frozenset({"node1"})),
    ),
    Case(
        "two terms: matchFields does not match, but matchExpressions matches",
        pod(
            required(
                T(match_fields=[R(NAME, "In", ["node1"]), R(NAME, "In", ["node2"])]),
                T([R("foo", "In", ["bar"])]),
            )
        ),
        {"foo": "bar"},
        node_name="node2",
    ),
    Case(
        "one term: matchFields does not match, but matchExpressions matches",
        pod(required(T([R("foo", "In", ["bar"])], [R(NAME, "In", ["node1"])]))),
        {"foo": "bar"},
        node_name="node2",
        want_status=POD_MISMATCH,
        want_pre_filter=PreFilterResult(frozenset({"node1"})),
    ),
    Case(
        "one term: both matchFields and matchExpressions match",
        pod(required(T([R("foo", "In", ["bar"])], [R(NAME, "In", ["node1"])]))),
        {"foo": "bar"},
        node_name="node1",
        want_pre_filter=PreFilterResult(frozenset({"node1"})),
    ),
    Case(
        "two terms: both matchFields and matchExpressions do not match",
        pod(
            required(
                T(match_fields=[R(NAME, "In", ["node1"])]),
                T([R("foo", "In", ["not-match-to-bar"])]),
            )
        ),
        {"foo": "bar"},
        node_name="node2",
        want_status=POD_MISMATCH,
    ),
    Case(
        "two terms of node.Name affinity",
        pod(
            required(
                T(match_fields=[R(NAME, "In", ["node1"])]),
                T(match_fields=[R(NAME, "In", ["node2"])]),
            )
        ),
        {},
        node_name="node2",
        want_pre_filter=PreFilterResult(frozenset({"node1", "node2"})),
    ),
    Case(
        "two conflicting match field requirements",
        pod(required(T(match_fields=[R(NAME, "In", ["node1"]), R(NAME, "In", ["node2"])]))),
        {"foo": "bar"},
        node_name="node2",
        want_status=POD_MISMATCH,
        want_pre_filter=Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, REASON_CONFLICT),
    ),
    Case(
        "matches added affinity and Pod's node affinity",
        pod(required(T([R("zone", "In", ["foo"])]))),
        {"zone": "foo"},
        node_name="node2",
        added=required(T(match_fields=[R(NAME, "In", ["node2"])])),
    ),
    Case(
        "matches added affinity but not Pod's node affinity",
        pod(required(T([R("zone", "In", ["bar"])]))),
        {"zone": "foo"},
        node_name="node2",
        want_status=POD_MISMATCH,
        added=required(T(match_fields=[R(NAME, "In", ["node2"])])),
    ),
    Case(
        "doesn't match added affinity",
        pod(),
        {"zone": "foo"},
        node_name="node2",
        want_status=Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, REASON_ENFORCED),
        added=required(T([R("zone", "In", ["bar"])])),
    ),
    Case(
        "matches node selector correctly even if PreFilter is not called",
        pod(selector={"foo": "bar"}),
        {"foo": "bar", "baz": "blah"},
        run_pre_filter=False,
    ),
    Case(
        "matches node affinity correctly even if PreFilter is not called",
        pod(required(T([R("GPU", "Exists"), R("GPU", "NotIn", ["AMD", "INTER"])]))),
        {"GPU": "NVIDIA-GRID-K1"},
        run_pre_filter=False,
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_node_affinity_filter(case: Case) -> None:
    node_info = NodeInfo(make_node(case.node_name).labels(case.labels).obj())
    plugin = NodeAffinity(NodeAffinityArgs(added_affinity=case.added), None)
    state = CycleState()
    if case.run_pre_filter:
        assert plugin.pre_filter(state, case.pod) == case.want_pre_filter
    assert plugin.filter(state, case.pod, node_info) == case.want_status
    mask = plugin.filter_batch(state, case.pod, NodeTable([node_info]))
    assert mask.tolist() == [case.want_status is None]


def test_pre_filter_keeps_state_for_pods_with_a_selector_only() -> None:
    state = CycleState()
    NodeAffinity().pre_filter(state, pod(selector={"foo": "bar"}))
    assert "PreFilterNodeAffinity" in state
    assert state.clone().read("PreFilterNodeAffinity") is state.read("PreFilterNodeAffinity")


def test_pre_filter_does_not_skip_pods_without_affinity_when_args_add_some() -> None:
    added = required(T([R("zone", "In", ["a"])]))
    state = CycleState()
    assert NodeAffinity(NodeAffinityArgs(added), None).pre_filter(state, pod()) is None
    assert "PreFilterNodeAffinity" in state


def test_pre_filter_without_terms_narrows_nothing() -> None:
    state = CycleState()
    empty = Spec(required_during_scheduling_ignored_during_execution=NodeSelector([]))
    assert NodeAffinity().pre_filter(state, pod(empty)) is None
    node_info = NodeInfo(make_node("n").obj())
    assert NodeAffinity().filter(state, pod(empty), node_info) == POD_MISMATCH
