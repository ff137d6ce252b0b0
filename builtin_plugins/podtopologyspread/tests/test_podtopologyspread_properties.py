"""Properties on random clusters: the batch forms and the table counting equal the
per-node ones, and the scheduler never places a pod against a DoNotSchedule constraint."""

from __future__ import annotations

from collections import Counter

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from kubesched.api import LabelSelector, Node, Pod
from kubesched.testing import PluginHarness, assert_batch_agrees, make_node, make_pod, simulate
from kubesched_nodeaffinity.pod_affinity import required_node_affinity
from kubesched_podtopologyspread import PodTopologySpread
from kubesched_podtopologyspread.counting import count_by_node, count_by_table
from kubesched_podtopologyspread.scoring import (
    PreScoreState,
    count_domains_by_node,
    count_domains_by_table,
    register_domains,
    register_domains_by_table,
)

KEYS = ["zone", "rack", "kubernetes.io/hostname"]
APPS = ["web", "db"]


@st.composite
def clusters(draw: st.DrawFn) -> tuple[list[Node], list[Pod]]:
    """Nodes with some of the topology labels (now and then a taint), pods on them."""
    nodes, pods = [], []
    for i in range(draw(st.integers(0, 12))):
        builder = make_node(f"n{i}")
        if draw(st.booleans()):
            builder.label("zone", draw(st.sampled_from(["z1", "z2", "z3"])))
        if draw(st.integers(0, 3)):
            builder.label("rack", draw(st.sampled_from(["r1", "r2"])))
        if draw(st.integers(0, 4)):
            builder.label("kubernetes.io/hostname", f"n{i}")
        if not draw(st.integers(0, 5)):
            builder.taint("dedicated", "x")
        nodes.append(builder.obj())
        for j in range(draw(st.integers(0, 3))):
            pod = make_pod(f"n{i}-p{j}").node(f"n{i}").label("app", draw(st.sampled_from(APPS)))
            if not draw(st.integers(0, 4)):
                pod.namespace("other")
            pods.append(pod.obj())
    return nodes, pods


@st.composite
def incoming(draw: st.DrawFn) -> Pod:
    builder = make_pod("incoming").label("app", draw(st.sampled_from(APPS)))
    if draw(st.booleans()):
        builder.node_selector({"rack": "r1"})
    for _ in range(draw(st.integers(1, 3))):
        builder.spread_constraint(
            draw(st.integers(1, 3)),
            draw(st.sampled_from(KEYS)),
            draw(st.sampled_from(["DoNotSchedule", "ScheduleAnyway"])),
            LabelSelector(match_labels={"app": draw(st.sampled_from(APPS))}),
            min_domains=draw(st.sampled_from([None, 1, 4])),
            node_affinity_policy=draw(st.sampled_from([None, "Honor", "Ignore"])),
            node_taints_policy=draw(st.sampled_from([None, "Honor", "Ignore"])),
        )
    return builder.obj()


@settings(max_examples=150, deadline=None)
@given(cluster=clusters(), pod=incoming())
def test_batch_forms_agree_with_per_node(cluster: tuple[list[Node], list[Pod]], pod: Pod) -> None:
    nodes, pods = cluster
    assert_batch_agrees(PodTopologySpread, pod, nodes, pods=pods)


@settings(max_examples=150, deadline=None)
@given(cluster=clusters(), pod=incoming())
def test_table_counting_equals_node_counting(
    cluster: tuple[list[Node], list[Pod]], pod: Pod
) -> None:
    nodes, pods = cluster
    harness = PluginHarness(PodTopologySpread, nodes=nodes, pods=pods)
    plugin = harness.plugin
    for action in ("DoNotSchedule", "ScheduleAnyway"):
        constraints = plugin.constraints(pod, action)
        required = required_node_affinity(pod)
        table = harness.snapshot.node_table
        by_node = count_by_node(constraints, pod, harness.nodes, required)
        assert count_by_table(constraints, pod, table, required) == by_node


@settings(max_examples=40, deadline=None)
@given(
    zones=st.lists(st.sampled_from(["z1", "z2", "z3"]), min_size=1, max_size=6),
    replicas=st.integers(1, 12),
    max_skew=st.integers(1, 2),
)
def test_do_not_schedule_is_never_violated(zones: list[str], replicas: int, max_skew: int) -> None:
    """After every placement, the zones holding pods differ by at most maxSkew (every zone
    is eligible, and each pod counts itself)."""
    nodes = [make_node(f"n{i}").label("zone", z).obj() for i, z in enumerate(zones)]
    selector = LabelSelector(match_labels={"app": "web"})
    pods = [
        make_pod(f"web-{k:02d}")
        .label("app", "web")
        .spread_constraint(max_skew, "zone", "DoNotSchedule", selector)
        .obj()
        for k in range(replicas)
    ]
    run = simulate(nodes, pods)
    zone_of = {f"n{i}": z for i, z in enumerate(zones)}
    placed = {key: node for key, node in run.placements.items() if node is not None}
    per_zone = Counter(zone_of[node] for node in placed.values())
    counts = [per_zone.get(z, 0) for z in set(zones)]
    assert max(counts) - min(counts) <= max_skew
    assert len(placed) == replicas  # with no resource limits, spreading never blocks


@settings(max_examples=150, deadline=None)
@given(cluster=clusters(), pod=incoming(), data=st.data())
def test_pre_score_by_table_equals_by_node(
    cluster: tuple[list[Node], list[Pod]], pod: Pod, data: st.DataObject
) -> None:
    """Registering the feasible nodes' domains and counting them, from the table's
    columns, gives what the node-by-node reference gives, for any feasible subset."""
    nodes, pods = cluster
    harness = PluginHarness(PodTopologySpread, nodes=nodes, pods=pods)
    table = harness.snapshot.node_table
    subset = data.draw(st.lists(st.sampled_from(range(len(table))), unique=True)) if nodes else []
    rows = np.array(sorted(subset), dtype=np.intp)
    feasible = [table.node_infos[r] for r in rows.tolist()]
    constraints = harness.plugin.constraints(pod, "ScheduleAnyway")
    required = required_node_affinity(pod)
    for require_all in (True, False):
        ignored, counts, weights = register_domains(constraints, feasible, require_all)
        assert register_domains_by_table(constraints, table, rows, require_all) == (
            ignored,
            counts,
            weights,
        )
        by_node = PreScoreState(constraints, ignored, [dict(c) for c in counts], weights)
        by_table = PreScoreState(constraints, ignored, [dict(c) for c in counts], weights)
        count_domains_by_node(by_node, pod, table.node_infos, required, require_all)
        count_domains_by_table(by_table, pod, table, required, require_all)
        assert by_table.counts == by_node.counts
