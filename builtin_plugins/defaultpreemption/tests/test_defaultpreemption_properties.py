"""Invariants on random clusters: preemption evicts only lower-priority pods, all from
the nominated node, and no more of them than the preemptor needs."""

from __future__ import annotations

from dataclasses import dataclass

from defaultpreemption_testlib import FitFilter, make_pdb, make_plugin
from hypothesis import event, given, reject, settings
from hypothesis import strategies as st

from kubesched.api import Node, Pod, PodDisruptionBudget
from kubesched.framework import Code, CycleState, NodeInfo, PodInfo, PostFilterResult, Status
from kubesched.testing import make_node, make_pod

PRIORITIES = st.sampled_from([-10, 0, 5, 10, 100])
CPU_MILLIS = st.integers(min_value=50, max_value=2000)


@dataclass
class Cluster:
    nodes: list[Node]
    pods: list[Pod]
    pdbs: list[PodDisruptionBudget]
    preemptor: Pod


@st.composite
def clusters(draw: st.DrawFn) -> Cluster:
    nodes = [
        make_node(f"n{i}")
        .capacity(cpu=f"{draw(st.integers(1000, 4000))}m", pods=draw(st.integers(1, 6)))
        .obj()
        for i in range(draw(st.integers(1, 4)))
    ]
    pods = []
    for i in range(draw(st.integers(0, 12))):
        builder = (
            make_pod(f"p{i}")
            .namespace("ns")
            .node(draw(st.sampled_from(nodes)).metadata.name)
            .priority(draw(PRIORITIES))
            .req(cpu=f"{draw(CPU_MILLIS)}m")
        )
        if draw(st.booleans()):
            builder = builder.label("app", "guarded")
        pods.append(builder.obj())
    pdbs = [
        make_pdb(
            "guard",
            "ns",
            match_labels={"app": "guarded"},
            disruptions_allowed=draw(st.integers(0, 2)),
        )
    ]
    preemptor = (
        make_pod("preemptor")
        .namespace("ns")
        .priority(draw(PRIORITIES))
        .req(cpu=f"{draw(st.integers(500, 4000))}m")
        .obj()
    )
    return Cluster(nodes, pods, pdbs, preemptor)


def fits(pod: Pod, node: NodeInfo) -> bool:
    return FitFilter().filter(CycleState(), pod, node) is None


@settings(max_examples=300, deadline=None)
@given(clusters(), st.integers(0, 3))
def test_preemption_evicts_only_what_it_must(cluster: Cluster, seed: int) -> None:
    plugin, handle = make_plugin(cluster.nodes, cluster.pods, pdbs=cluster.pdbs)
    plugin.rng.seed(seed)
    statuses: dict[str, Status] = {}
    for node_info in handle.lister.node_infos():
        status = FitFilter().filter(CycleState(), cluster.preemptor, node_info)
        if status is None:
            reject()  # PostFilter runs only when the pod fits nowhere
        statuses[node_info.name] = status
    outcome = plugin.post_filter(CycleState(), cluster.preemptor, statuses)

    event("no preemption" if isinstance(outcome, Status) else "preempted")
    if isinstance(outcome, Status):
        assert outcome.code == Code.UNSCHEDULABLE
        assert handle.client.deleted == []
        return
    assert isinstance(outcome, PostFilterResult)
    chosen = handle.lister.get(outcome.nominated_node_name)
    assert chosen is not None
    by_key = {p.key: p for p in cluster.pods}
    victims = [by_key[key] for key in outcome.victims]
    assert victims, "a nomination always evicts someone"
    assert sorted(handle.client.deleted) == sorted(v.metadata.name for v in victims)
    for v in victims:
        assert v.priority < cluster.preemptor.priority
        assert v.spec.node_name == outcome.nominated_node_name

    emptied = chosen.snapshot()
    for v in victims:
        emptied.remove_pod(v)
    assert fits(cluster.preemptor, emptied), "the preemptor fits once the victims are gone"
    for v in victims:
        with_one_back = emptied.snapshot()
        with_one_back.add_pod_info(PodInfo(v))
        assert not fits(cluster.preemptor, with_one_back), f"{v.key} was evicted needlessly"
