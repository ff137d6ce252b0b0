"""NodeResourcesBalancedAllocation in the default profile, through `kubesched.testing.simulate`."""

from __future__ import annotations

from kubesched.framework import default_registry
from kubesched.testing import make_node, make_pod, simulate

NAME = "NodeResourcesBalancedAllocation"
NODES = [
    make_node("even").capacity(cpu="4", memory="4Gi").obj(),
    make_node("memory-rich").capacity(cpu="4", memory="16Gi").obj(),
]
POD = make_pod("web").namespace("default").req(cpu="1", memory="1Gi").obj()


def test_balance_decides_between_otherwise_close_nodes() -> None:
    assert NAME in default_registry()
    run = simulate(NODES, [POD], explain=True)
    outcome = run.outcome("default/web")
    assert outcome.node == "even"
    assert outcome.nodes is not None
    # even: shares 0.25 and 0.25 -> 100; memory-rich: 0.25 and 0.0625 -> 90 (weight 1).
    assert outcome.nodes["even"].scores[NAME] == (100, 100)
    assert outcome.nodes["memory-rich"].scores[NAME] == (90, 90)
    # LeastAllocated alone prefers the emptier node: 75 against 84.
    assert outcome.nodes["even"].scores["NodeResourcesFit"] == (75, 75)
    assert outcome.nodes["memory-rich"].scores["NodeResourcesFit"] == (84, 84)


def test_without_it_the_other_node_wins() -> None:
    config = {"profiles": [{"plugins": {"multiPoint": {"disabled": [{"name": NAME}]}}}]}
    run = simulate(NODES, [POD], config)
    assert run.placements == {"default/web": "memory-rich"}


def test_best_effort_pods_are_not_scored_by_it() -> None:
    pod = make_pod("idle").namespace("default").container("nginx").obj()
    run = simulate(NODES, [pod], explain=True)
    outcome = run.outcome("default/idle")
    assert outcome.nodes is not None
    assert all(NAME not in n.scores for n in outcome.nodes.values())
