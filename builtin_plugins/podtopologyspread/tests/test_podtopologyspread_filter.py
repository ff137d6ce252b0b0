"""PreFilter, Filter and the AddPod/RemovePod extensions, re-expressing upstream's
TestSingleConstraint, TestMultipleConstraints and TestPreFilterStateAddPod cases."""

from __future__ import annotations

import pytest

from kubesched.api import LabelSelector, Node, Pod
from kubesched.framework import Code, PodInfo
from kubesched.testing import PluginHarness, make_node, make_pod, run_filter
from kubesched_podtopologyspread import PodTopologySpread

FOO = LabelSelector(match_labels={"foo": ""})
SKEW = "node(s) didn't match pod topology spread constraints"
MISSING = "node(s) didn't match pod topology spread constraints (missing required label)"
FOUR = [("node-a", "zone1"), ("node-b", "zone1"), ("node-x", "zone2"), ("node-y", "zone2")]


def nodes(layout: list[tuple[str, str]] = FOUR) -> list[Node]:
    return [make_node(n).label("zone", z).label("node", n).obj() for n, z in layout]


def foo_pods(spread: dict[str, int], namespace: str = "default") -> list[Pod]:
    """`spread[node]` pods labelled foo on each node, in the incoming pod's namespace
    unless another is named."""
    return [
        make_pod(f"p-{node[-1]}{i}").namespace(namespace).node(node).label("foo", "").obj()
        for node, count in spread.items()
        for i in range(1, count + 1)
    ]


def hard(max_skew: int, key: str, **kw: object) -> Pod:
    builder = make_pod("p").label("foo", "")
    return builder.spread_constraint(max_skew, key, "DoNotSchedule", FOO, **kw).obj()  # type: ignore[arg-type]


def outcome(pod: Pod, cluster: list[Node], pods: list[Pod]) -> dict[str, str]:
    """Per node: "ok", or the code and reason of the rejection."""
    result = {}
    for name, status in run_filter(PodTopologySpread, pod, cluster, pods=pods).items():
        result[name] = "ok" if status is None else f"{status.code.name}: {status.message}"
    return result


U = f"UNSCHEDULABLE: {SKEW}"
UR = f"UNSCHEDULABLE_AND_UNRESOLVABLE: {MISSING}"

CASES = [
    (
        "no existing pods",
        hard(1, "zone"),
        nodes(),
        {},
        dict.fromkeys(["node-a", "node-b", "node-x", "node-y"], "ok"),
    ),
    (
        "pods in another namespace do not count",
        hard(1, "zone"),
        nodes(),
        {"ns1": {"node-a": 1, "node-y": 2}},
        dict.fromkeys(["node-a", "node-b", "node-x", "node-y"], "ok"),
    ),
    (
        "spread 3/3 across zones, every node fits",
        hard(1, "zone"),
        nodes(),
        {"default": {"node-a": 1, "node-b": 2, "node-x": 1, "node-y": 2}},
        dict.fromkeys(["node-a", "node-b", "node-x", "node-y"], "ok"),
    ),
    (
        "spread 2/1/0/3 across nodes, only node-x fits",
        hard(1, "node"),
        nodes(),
        {"default": {"node-a": 2, "node-b": 1, "node-y": 3}},
        {"node-a": U, "node-b": U, "node-x": "ok", "node-y": U},
    ),
    (
        "spread 2/1/0/3 across nodes, maxSkew 2: node-b and node-x fit",
        hard(2, "node"),
        nodes(),
        {"default": {"node-a": 2, "node-b": 1, "node-y": 3}},
        {"node-a": U, "node-b": "ok", "node-x": "ok", "node-y": U},
    ),
    (
        "no node has the topology key",
        hard(1, "rack"),
        nodes(),
        {},
        dict.fromkeys(["node-a", "node-b", "node-x", "node-y"], UR),
    ),
    (
        "spread 3/1 across zones: only zone2 nodes fit",
        hard(1, "zone"),
        nodes(),
        {"default": {"node-a": 2, "node-b": 1, "node-x": 1}},
        {"node-a": U, "node-b": U, "node-x": "ok", "node-y": "ok"},
    ),
    (
        "minDomains 3 with two zones: the global minimum is 0",
        hard(2, "zone", min_domains=3),
        nodes(),
        {"default": {"node-a": 1, "node-b": 1, "node-x": 1, "node-y": 1}},
        dict.fromkeys(["node-a", "node-b", "node-x", "node-y"], U),
    ),
]


@pytest.mark.parametrize(
    ("pod", "cluster", "placed", "want"), [pytest.param(*c[1:], id=c[0]) for c in CASES]
)
def test_upstream_filter(
    pod: Pod, cluster: list[Node], placed: dict[str, dict[str, int]], want: dict[str, str]
) -> None:
    pods = [p for ns, spread in placed.items() for p in foo_pods(spread, ns)]
    assert outcome(pod, cluster, pods) == want


def test_pod_not_matching_its_own_selector_does_not_count_itself() -> None:
    pod = make_pod("p").label("bar", "").spread_constraint(1, "node", "DoNotSchedule", FOO).obj()
    pods = foo_pods({"node-a": 2, "node-b": 1, "node-y": 3})
    assert outcome(pod, nodes(), pods) == {"node-a": U, "node-b": "ok", "node-x": "ok", "node-y": U}


def test_node_missing_the_key_is_unresolvable() -> None:
    cluster = [*nodes([("node-a", "zone1")]), make_node("node-b").label("node", "node-b").obj()]
    assert outcome(hard(1, "zone"), cluster, []) == {"node-a": "ok", "node-b": UR}


def test_node_affinity_policy_honor_leaves_unmatched_domains_out() -> None:
    """Honor (the default): zone2, which the pod cannot reach, is no domain, so zone1's
    count is the minimum and zone1 still fits; Ignore counts zone2 at 0."""
    pods = foo_pods({"node-a": 1})
    honor = make_pod("p").label("foo", "").node_selector({"zone": "zone1"})
    honor = honor.spread_constraint(1, "zone", "DoNotSchedule", FOO)
    assert outcome(honor.obj(), nodes(), pods)["node-a"] == "ok"
    ignore = make_pod("p").label("foo", "").node_selector({"zone": "zone1"})
    ignore = ignore.spread_constraint(
        1, "zone", "DoNotSchedule", FOO, node_affinity_policy="Ignore"
    )
    assert outcome(ignore.obj(), nodes(), pods)["node-a"] == U


def test_node_taints_policy_honor_leaves_tainted_domains_out() -> None:
    cluster = [
        make_node("node-a").label("zone", "zone1").obj(),
        make_node("node-x").label("zone", "zone2").taint("dedicated", "x").obj(),
    ]
    pods = foo_pods({"node-a": 1})
    ignore = hard(1, "zone")
    assert outcome(ignore, cluster, pods)["node-a"] == U
    honor = hard(1, "zone", node_taints_policy="Honor")
    assert outcome(honor, cluster, pods)["node-a"] == "ok"


def test_match_label_keys_narrow_the_selector() -> None:
    """Only pods sharing the incoming pod's `rev` label count."""
    pods = [
        make_pod(f"o{i}").node("node-a").label("foo", "").label("rev", "1").obj() for i in range(3)
    ]
    pod = make_pod("p").label("foo", "").label("rev", "2")
    plain = pod.spread_constraint(1, "zone", "DoNotSchedule", FOO).obj()
    keyed = pod.spread_constraint(1, "zone", "DoNotSchedule", FOO, match_label_keys=["rev"]).obj()
    assert outcome(plain, nodes(), pods)["node-a"] == U
    keyed_pod = make_pod("p").label("foo", "").label("rev", "2")
    keyed_pod = keyed_pod.spread_constraint(
        1, "zone", "DoNotSchedule", FOO, match_label_keys=["rev"]
    )
    assert outcome(keyed_pod.obj(), nodes(), pods)["node-a"] == "ok"
    assert keyed.spec.topology_spread_constraints


def test_terminating_pods_do_not_count() -> None:
    from datetime import datetime, timezone

    gone = [
        make_pod(f"t{i}")
        .node("node-a")
        .label("foo", "")
        .deletion_timestamp(datetime.now(timezone.utc))
        .obj()
        for i in range(3)
    ]
    assert outcome(hard(1, "zone"), nodes(), gone)["node-a"] == "ok"


def test_pod_without_hard_constraints_skips_filter() -> None:
    soft = make_pod("p").label("foo", "").spread_constraint(1, "zone", "ScheduleAnyway", FOO).obj()
    harness = PluginHarness(PodTopologySpread, nodes=nodes())
    assert harness.pre_filter(soft) is None
    assert harness.state.skip_filter_plugins == {"PodTopologySpread"}


def test_malformed_selector_is_an_error() -> None:
    bad = LabelSelector(match_labels={"a b": "x"})
    pod = make_pod("p").spread_constraint(1, "zone", "DoNotSchedule", bad).obj()
    status = PluginHarness(PodTopologySpread, nodes=nodes()).pre_filter(pod)
    assert status is not None and status.code == Code.ERROR
    assert "get constraints from pod" in status.message


def test_add_and_remove_pod_move_the_minimum() -> None:
    """Spread 1/0 across zones: zone2 fits; a pod added there makes zone1 fit too, and
    removing the zone1 pod makes zone2 the fuller one."""
    pods = foo_pods({"node-a": 1})
    harness = PluginHarness(PodTopologySpread, nodes=nodes(), pods=pods)
    pod = hard(1, "zone")
    assert harness.pre_filter(pod) is None
    by_name = {ni.name: ni for ni in harness.nodes}
    plugin, state = harness.plugin, harness.state

    def passing() -> list[str]:
        return [n for n, ni in by_name.items() if plugin.filter(state=state, node_info=ni) is None]

    assert passing() == ["node-x", "node-y"]
    added = PodInfo(make_pod("new").node("node-x").label("foo", "").obj())
    assert (
        plugin.pre_filter_add_pod(
            state=state, pod_to_schedule=pod, pod_info_to_add=added, node_info=by_name["node-x"]
        )
        is None
    )
    assert passing() == ["node-a", "node-b", "node-x", "node-y"]
    removed = PodInfo(pods[0])
    assert (
        plugin.pre_filter_remove_pod(
            state=state,
            pod_to_schedule=pod,
            pod_info_to_remove=removed,
            node_info=by_name["node-a"],
        )
        is None
    )
    assert passing() == ["node-a", "node-b"]
    other_ns = PodInfo(make_pod("o").namespace("ns1").node("node-a").label("foo", "").obj())
    clone = state.clone()
    plugin.pre_filter_add_pod(
        state=clone, pod_to_schedule=pod, pod_info_to_add=other_ns, node_info=by_name["node-a"]
    )
    assert passing() == ["node-a", "node-b"]
