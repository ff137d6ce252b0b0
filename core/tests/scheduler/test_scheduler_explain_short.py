"""Short explanations: the nodes shown, the others grouped by verdict, the pod's effective
request and the shown nodes' amounts, recorded by the scheduler as the full ones would be."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from kubesched.api import Pod
from kubesched.cluster.memory import InMemoryCluster
from kubesched.framework import Code, Status, default_registry
from kubesched.profile import build_simulation, load_profiles
from kubesched.scheduler.explain import effective_request, short_view
from kubesched.scheduler.outcome import NodeExplanation, PodOutcome
from kubesched.testing import make_node, make_pod

GI = 2**30


def _failed(plugin: str, *reasons: str) -> NodeExplanation:
    return NodeExplanation(Status(Code.UNSCHEDULABLE, *reasons, plugin=plugin))


def test_the_chosen_node_and_the_best_totals_are_shown_in_the_schedulers_order() -> None:
    nodes = {
        "a": NodeExplanation(total=10),
        "b": _failed("TaintToleration", "node(s) had untolerated taint(s)"),
        "c": NodeExplanation(total=30),
        "d": NodeExplanation(total=30),
        "e": NodeExplanation(total=20),
        "f": NodeExplanation(total=5),
        "g": _failed("TaintToleration", "node(s) had untolerated taint(s)"),
        "h": _failed("NodeResourcesFit", "Insufficient cpu"),
    }
    shown, groups = short_view(nodes, "f", 2)
    assert list(shown) == ["c", "d", "f"]  # the top 2 (a tie, in order) and the chosen one
    assert [(g.filter and g.filter.plugin, g.count, g.examples) for g in groups] == [
        (None, 2, ["a", "e"]),  # passed, scored lower: first seen, so first among equals
        ("TaintToleration", 2, ["b", "g"]),
        ("NodeResourcesFit", 1, ["h"]),
    ]


def test_a_group_names_three_nodes_at_most() -> None:
    nodes = {f"n{i}": _failed("NodeResourcesFit", "Insufficient cpu") for i in range(7)}
    shown, groups = short_view(nodes, None, 3)
    assert shown == {}
    assert [(g.count, g.examples) for g in groups] == [(7, ["n0", "n1", "n2"])]


def test_nodes_with_the_same_plugin_but_other_reasons_are_other_groups() -> None:
    nodes = {
        "a": _failed("NodeResourcesFit", "Insufficient cpu"),
        "b": _failed("NodeResourcesFit", "Insufficient cpu", "Insufficient memory"),
        "c": _failed("NodeResourcesFit", "Insufficient cpu"),
    }
    _, groups = short_view(nodes, None, 3)
    assert [(g.filter.reasons if g.filter else (), g.count) for g in groups] == [
        (("Insufficient cpu",), 2),
        (("Insufficient cpu", "Insufficient memory"), 1),
    ]


VERDICTS = st.one_of(
    st.integers(0, 300).map(lambda total: NodeExplanation(total=total)),
    st.sampled_from(
        [("NodeResourcesFit", "Insufficient cpu"), ("TaintToleration", "untolerated")]
    ).map(lambda pr: _failed(*pr)),
)


@st.composite
def attempts(draw: st.DrawFn) -> tuple[dict[str, NodeExplanation], str | None, int]:
    verdicts = draw(st.lists(VERDICTS, max_size=40))
    nodes = {f"node-{i}": v for i, v in enumerate(verdicts)}
    feasible = [n for n, v in nodes.items() if v.filter is None]
    chosen = draw(st.sampled_from(feasible)) if feasible and draw(st.booleans()) else None
    return nodes, chosen, draw(st.integers(0, 6))


@given(attempts())
def test_the_groups_count_every_node_not_shown_and_the_chosen_node_is_shown(
    attempt: tuple[dict[str, NodeExplanation], str | None, int],
) -> None:
    nodes, chosen, top = attempt
    shown, groups = short_view(nodes, chosen, top)
    assert all(node.filter is None for node in shown.values())
    assert sum(g.count for g in groups) == len(nodes) - len(shown)
    if chosen is not None:
        assert chosen in shown
    assert len(shown) <= top + 1
    assert len(groups) <= 3  # bounded by the verdicts, not by the nodes
    best = sorted((n.total or 0 for n in nodes.values() if n.filter is None), reverse=True)
    assert sorted((n.total or 0 for n in shown.values()), reverse=True)[:top] == best[:top]
    for group in groups:
        assert 1 <= len(group.examples) <= min(3, group.count)
    assert list(shown) == [name for name in nodes if name in shown]


def _request(pod: Pod) -> dict[str, int]:
    return effective_request(pod)


def test_the_effective_request_is_what_noderesourcesfit_compares() -> None:
    plain = make_pod("p").req(cpu="1", memory="1Gi").req(cpu="500m").obj()
    assert _request(plain) == {"pods": 1, "cpu": 1500, "memory": GI}
    init = make_pod("p").req(cpu="1").init_req(cpu="3").obj()
    assert _request(init) == {"pods": 1, "cpu": 3000}  # the largest init container
    sidecar = make_pod("p").req(cpu="1").sidecar_req(cpu="2").init_req(cpu="1").obj()
    assert _request(sidecar) == {"pods": 1, "cpu": 3000}  # the sidecar runs beside both
    overhead = make_pod("p").req(cpu="1").overhead(cpu="250m").obj()
    assert _request(overhead) == {"pods": 1, "cpu": 1250}
    gpu = make_pod("p").req({"nvidia.com/gpu": 2, "example.com/zero": 0}).obj()
    assert _request(gpu) == {"pods": 1, "nvidia.com/gpu": 2}
    assert _request(make_pod("p").obj()) == {"pods": 1}


def _run(explain_nodes: int | None) -> list[PodOutcome]:
    nodes = [make_node(f"n{i}").capacity(cpu="4", memory="8Gi", pods=10).obj() for i in range(9)]
    nodes.append(make_node("tiny").capacity(cpu="1", memory="8Gi", pods=10).obj())
    pods = [make_pod(f"p{i}").req(cpu="2", memory=f"{i + 1}Gi").obj() for i in range(12)]
    registry = default_registry()
    cfg, profiles = load_profiles(None, registry)
    cluster = InMemoryCluster(nodes=nodes, pods=pods)
    simulation = build_simulation(
        cfg, registry, cluster, profiles=profiles, explain=True, explain_nodes=explain_nodes
    )
    return list(simulation.run().outcomes)


def test_the_scheduler_records_the_short_view_of_the_full_explanation() -> None:
    full, short = _run(None), _run(2)
    assert [o.node for o in full] == [o.node for o in short]
    for whole, brief in zip(full, short, strict=True):
        assert whole.nodes is not None and brief.nodes is not None
        shown, groups = short_view(whole.nodes, whole.node, 2)
        assert list(brief.nodes) == list(shown)
        assert brief.not_shown == groups
        assert whole.not_shown is None
        assert brief.request == whole.request
        for name in shown:
            assert brief.nodes[name].resources == whole.nodes[name].resources


def test_each_shown_node_has_its_amounts_of_what_the_pod_requests_when_it_was_tried() -> None:
    outcomes = _run(None)
    first, second = outcomes[0], outcomes[1]
    assert first.request == {"pods": 1, "cpu": 2000, "memory": GI}
    assert first.nodes is not None and second.nodes is not None
    assert first.nodes["n0"].resources == {"pods": (10, 0), "cpu": (4000, 0), "memory": (8 * GI, 0)}
    assert first.nodes["tiny"].resources["cpu"] == (1000, 0)
    assert first.node is not None
    used = second.nodes[first.node].resources  # the first pod is there now
    assert used == {"pods": (10, 1), "cpu": (4000, 2000), "memory": (8 * GI, GI)}
