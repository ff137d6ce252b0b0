"""PodTopologySpread in the whole scheduler (`kubesched.testing.simulate`): spreading
decides placements, and preemption's dry run sees victims leave a domain (RemovePod)."""

from __future__ import annotations

from kubesched.api import LabelSelector
from kubesched.testing import make_node, make_pod, simulate

WEB = LabelSelector(match_labels={"app": "web"})
ZONE = "topology.kubernetes.io/zone"


def test_replicas_alternate_between_zones() -> None:
    nodes = [make_node(f"n{i}").label(ZONE, z).obj() for i, z in enumerate("aabb")]
    pods = [
        make_pod(f"web-{i}")
        .label("app", "web")
        .spread_constraint(1, ZONE, "DoNotSchedule", WEB)
        .obj()
        for i in range(6)
    ]
    run = simulate(nodes, pods)
    zone = {"n0": "a", "n1": "a", "n2": "b", "n3": "b"}
    order = [zone[run.placements[f"default/web-{i}"] or ""] for i in range(6)]
    for placed in range(1, 7):
        counts = [order[:placed].count(z) for z in "ab"]
        assert max(counts) - min(counts) <= 1


def test_preemption_evicts_matching_pods_to_restore_the_skew() -> None:
    """Zone a holds two low-priority web pods; the important one may only run in zone a
    but counts zone b (Ignore), so zone a is 2 + 1 - 0 > 1 until both are evicted."""
    nodes = [make_node("node-a").label(ZONE, "a").obj(), make_node("node-b").label(ZONE, "b").obj()]
    low = [
        make_pod(f"low-{i}").node("node-a").label("app", "web").priority(1).obj() for i in range(2)
    ]
    important = (
        make_pod("important")
        .label("app", "web")
        .priority(100)
        .node_selector({ZONE: "a"})
        .spread_constraint(1, ZONE, "DoNotSchedule", WEB, node_affinity_policy="Ignore")
        .obj()
    )
    run = simulate(nodes, [*low, important])
    outcome = run.outcome("default/important")
    assert outcome.node == "node-a"
    assert sorted(outcome.victims) == ["default/low-0", "default/low-1"]
