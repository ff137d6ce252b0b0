"""Properties on random clusters: no two placed pods break a required anti-affinity term
between them, required affinity holds where a pod was placed, and the batch forms agree
with Filter and Score node by node."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ipa_testlib import IN, affinity, node, pod, term, weighted

from kubesched.api import Node, Pod
from kubesched.testing import assert_batch_agrees, simulate
from kubesched_interpodaffinity import InterPodAffinity

KEYS = ("kubernetes.io/hostname", "zone")
APPS = ("a", "b", "c")


@st.composite
def nodes(draw: st.DrawFn) -> list[Node]:
    count = draw(st.integers(1, 6))
    zones = draw(st.integers(1, 3))
    return [
        node(f"n{i}", {"kubernetes.io/hostname": f"n{i}", "zone": f"z{i % zones}"})
        for i in range(count)
    ]


@st.composite
def pods(draw: st.DrawFn, node_names: list[str], bound: bool, count: int = -1) -> list[Pod]:
    out = []
    for i in range(count if count >= 0 else draw(st.integers(0, 8))):
        app = draw(st.sampled_from(APPS))
        anti = [term(draw(st.sampled_from(KEYS)), ("app", IN, [draw(st.sampled_from(APPS))]))]
        required = draw(st.booleans())
        preferred = [weighted(draw(st.integers(1, 100)), t) for t in anti if not required]
        aff = affinity(anti=anti if required else [], preferred_anti=preferred)
        if draw(st.booleans()):
            aff = affinity(
                [term(draw(st.sampled_from(KEYS)), ("app", IN, [draw(st.sampled_from(APPS))]))],
                aff.pod_anti_affinity.required_during_scheduling_ignored_during_execution
                if aff.pod_anti_affinity
                else [],
            )
        node_name = draw(st.sampled_from(node_names)) if bound and node_names else ""
        out.append(
            pod({"app": app}, node_name=node_name, namespace="default", aff=aff, name=f"p{i}")
        )
    return out


def _domain(cluster: dict[str, Node], node_name: str, key: str) -> str | None:
    return cluster[node_name].metadata.labels.get(key)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_no_placed_pair_breaks_required_anti_affinity(data: st.DataObject) -> None:
    cluster_nodes = data.draw(nodes())
    pending = data.draw(pods([], bound=False))
    run = simulate(cluster_nodes, pending)
    by_name = {n.metadata.name: n for n in cluster_nodes}
    placed = [(p, run.placements[p.key]) for p in pending if run.placements[p.key]]
    for a, node_a in placed:
        anti = a.spec.affinity.pod_anti_affinity if a.spec.affinity else None
        for t in anti.required_during_scheduling_ignored_during_execution if anti else []:
            for b, node_b in placed:
                if b is a or node_a is None or node_b is None:
                    continue
                same = _domain(by_name, node_a, t.topology_key) == _domain(
                    by_name, node_b, t.topology_key
                )
                assert t.label_selector is not None
                selects = (
                    b.metadata.labels.get("app") in t.label_selector.match_expressions[0].values
                )
                assert not (same and selects), f"{a.key} on {node_a} and {b.key} on {node_b}"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_batch_forms_agree_with_filter_and_score(data: st.DataObject) -> None:
    cluster_nodes = data.draw(nodes())
    names = [n.metadata.name for n in cluster_nodes]
    existing = data.draw(pods(names, bound=True))
    (incoming,) = data.draw(pods([], bound=False, count=1))
    assert_batch_agrees(InterPodAffinity, incoming, cluster_nodes, pods=existing)
