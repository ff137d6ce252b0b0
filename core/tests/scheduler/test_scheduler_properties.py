"""Properties of whole simulations on random clusters, with the default profile.

No node is over-committed; no pod is bound where a Filter plugin rejects it;
every pending pod ends bound or reported with a reason; the same seed gives
the same placements.
"""

from __future__ import annotations

from typing import Any

from attrs import evolve
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kubesched.api import CPU, MEMORY, PODS, Node, Pod, pod_requests
from kubesched.cluster.memory import InMemoryCluster
from kubesched.config import default_config
from kubesched.framework import CycleState, NodeInfo, PodInfo
from kubesched.framework._registry import default_registry
from kubesched.profile import build_simulation, effective_profiles
from kubesched.scheduler.simulation import Simulation, SimulationResult
from kubesched.testing import make_node, make_pod

ZONES = ("a", "b", "c")
TAINT_KEYS = ("gpu", "spot")

REGISTRY = default_registry()
PROFILES = effective_profiles(default_config(REGISTRY), REGISTRY)


@st.composite
def nodes(draw: st.DrawFn) -> list[Node]:
    out = []
    for i in range(draw(st.integers(1, 6))):
        builder = make_node(f"n{i}").label("zone", draw(st.sampled_from(ZONES)))
        builder = builder.capacity(
            cpu=f"{draw(st.integers(1, 8))}", memory=f"{draw(st.integers(1, 16))}Gi",
            pods=draw(st.integers(1, 8)),
        )  # fmt: skip
        if draw(st.booleans()):
            effect = draw(st.sampled_from(["NoSchedule", "PreferNoSchedule", "NoExecute"]))
            builder = builder.taint(draw(st.sampled_from(TAINT_KEYS)), "true", effect)
        if draw(st.integers(0, 9)) == 0:
            builder = builder.unschedulable()
        out.append(builder.obj())
    return out


@st.composite
def pods(draw: st.DrawFn, prefix: str, count: int) -> list[Pod]:
    out = []
    for i in range(draw(st.integers(0, count))):
        builder = make_pod(f"{prefix}{i}").namespace("default")
        builder = builder.req(
            cpu=f"{draw(st.sampled_from([0, 100, 250, 500, 1000, 2500]))}m",
            memory=f"{draw(st.integers(0, 4096))}Mi",
        )
        builder = builder.priority(draw(st.integers(0, 3)))
        for key in draw(st.sets(st.sampled_from(TAINT_KEYS))):
            builder = builder.toleration(key=key, operator="Exists")
        if draw(st.integers(0, 3)) == 0:
            builder = builder.node_selector({"zone": draw(st.sampled_from(ZONES))})
        out.append(builder.obj())
    return out


def _fits(node: Node, pods_on_node: list[Pod]) -> bool:
    used = {CPU: 0, MEMORY: 0}
    for p in pods_on_node:
        for name, amount in pod_requests(p).items():
            used[name] = used.get(name, 0) + amount
    alloc = node.status.allocatable
    return (
        len(pods_on_node) <= alloc.get(PODS, 0)
        and used[CPU] <= alloc.get(CPU, 0)
        and used[MEMORY] <= alloc.get(MEMORY, 0)
    )


@st.composite
def clusters(draw: st.DrawFn) -> tuple[list[Node], list[Pod]]:
    """Nodes, running pods that fit where they run, and pending pods."""
    node_list = draw(nodes())
    running: list[Pod] = []
    for candidate in draw(pods("run", 8)):
        node = draw(st.sampled_from(node_list))
        pod = evolve(candidate, spec=evolve(candidate.spec, node_name=node.name))
        on_node = [p for p in running if p.spec.node_name == node.name]
        if _fits(node, [*on_node, pod]):
            running.append(pod)
    return node_list, running + draw(pods("pend", 12))


def _simulate(
    node_list: list[Node], pod_list: list[Pod], seed: int
) -> tuple[Simulation, SimulationResult]:
    cluster = InMemoryCluster(nodes=node_list, pods=pod_list)
    simulation = build_simulation(None, REGISTRY, cluster, profiles=PROFILES, seed=seed)
    return simulation, simulation.run()


def _placements(result: SimulationResult) -> list[tuple[str, Any, str]]:
    return [(o.pod, o.node, o.status) for o in result.outcomes]


COMMON = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@COMMON
@given(clusters(), st.integers(0, 3))
def test_no_node_is_over_committed(cluster: tuple[list[Node], list[Pod]], seed: int) -> None:
    node_list, pod_list = cluster
    sim, _ = _simulate(node_list, pod_list, seed)
    live = sim.cluster.pods()
    for node in sim.cluster.nodes():
        assert _fits(node, [p for p in live if p.spec.node_name == node.name]), node.name


@COMMON
@given(clusters(), st.integers(0, 3))
def test_no_pod_is_bound_where_a_filter_rejects_it(
    cluster: tuple[list[Node], list[Pod]], seed: int
) -> None:
    node_list, pod_list = cluster
    sim, _ = _simulate(node_list, pod_list, seed)
    fw = sim.scheduler.frameworks["default-scheduler"]
    pending = {p.uid for p in pod_list if not p.spec.node_name}
    live = sim.cluster.pods()
    by_name = {n.name: n for n in sim.cluster.nodes()}
    for pod in live:
        if pod.uid not in pending or not pod.spec.node_name:
            continue
        others = [
            PodInfo(p) for p in live if p.spec.node_name == pod.spec.node_name and p is not pod
        ]
        node_info = NodeInfo(by_name[pod.spec.node_name], others)
        unbound = evolve(pod, spec=evolve(pod.spec, node_name=""))
        state = CycleState()
        fw.run_pre_filter_plugins(state, unbound, [node_info])
        assert fw.run_filter_plugins(state, unbound, node_info) is None, pod.key


@COMMON
@given(clusters())
def test_every_pending_pod_is_bound_or_has_a_reason(cluster: tuple[list[Node], list[Pod]]) -> None:
    node_list, pod_list = cluster
    sim, result = _simulate(node_list, pod_list, 0)
    outcomes = {o.pod: o for o in result.outcomes}
    pending = [p for p in pod_list if not p.spec.node_name]
    assert set(outcomes) == {p.key for p in pending}
    live = {p.key: p for p in sim.cluster.pods()}
    for outcome in outcomes.values():
        if outcome.status == "Scheduled":
            assert outcome.node and live[outcome.pod].spec.node_name == outcome.node
        else:
            assert outcome.node is None and outcome.message
            assert outcome.pod not in live or not live[outcome.pod].spec.node_name


@COMMON
@given(clusters(), st.integers(0, 1000))
def test_same_seed_same_placements(cluster: tuple[list[Node], list[Pod]], seed: int) -> None:
    node_list, pod_list = cluster
    _, first = _simulate(node_list, pod_list, seed)
    _, second = _simulate(node_list, pod_list, seed)
    assert _placements(first) == _placements(second)
