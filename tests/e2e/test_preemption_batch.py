"""The dry run worked out in batches gives what the node-by-node dry run gives: the same
pods scheduled, nominated nodes, victims, candidates and messages, in the real scheduler
(default profile, in-memory cluster) on random clusters."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta, timezone
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from kubesched.api import (
    LabelSelector,
    ObjectMeta,
    Pod,
    PodDisruptionBudget,
    PodDisruptionBudgetSpec,
    PodDisruptionBudgetStatus,
)
from kubesched.cluster.memory import InMemoryCluster
from kubesched.config import default_config
from kubesched.framework import default_registry
from kubesched.profile import build_simulation
from kubesched.scheduler.outcome import SCHEDULED
from kubesched.testing import make_node, make_pod
from kubesched_defaultpreemption import DefaultPreemption, batch_victims

STARTED = datetime(2024, 5, 1, 10, 0, tzinfo=timezone.utc)
PRIORITIES = st.sampled_from([-10, 0, 5, 10])


def make_pdb(
    name: str, namespace: str, match_labels: dict[str, str], allowed: int
) -> PodDisruptionBudget:
    return PodDisruptionBudget(
        metadata=ObjectMeta(name=name, namespace=namespace),
        spec=PodDisruptionBudgetSpec(selector=LabelSelector(match_labels=match_labels)),
        status=PodDisruptionBudgetStatus(disruptions_allowed=allowed),
    )


@contextmanager
def batching(on: bool) -> Iterator[None]:
    saved = DefaultPreemption.batch_dry_run
    DefaultPreemption.batch_dry_run = on
    try:
        yield
    finally:
        DefaultPreemption.batch_dry_run = saved


@contextmanager
def counting_chunks() -> Iterator[list[int]]:
    """Count the chunks the batch dry run works out."""
    calls: list[int] = []
    original = batch_victims.BatchVictims._work_out

    def spy(self: batch_victims.BatchVictims, nodes: Any) -> None:
        calls.append(len(nodes))
        original(self, nodes)

    batch_victims.BatchVictims._work_out = spy  # type: ignore[method-assign]
    try:
        yield calls
    finally:
        batch_victims.BatchVictims._work_out = original  # type: ignore[method-assign]


@st.composite
def clusters(draw: st.DrawFn) -> dict[str, Any]:
    nodes = []
    for i in range(draw(st.integers(1, 8))):
        builder = (
            make_node(f"n{i}")
            .label("zone", f"z{i % 2}")
            .capacity(
                cpu=f"{draw(st.integers(1000, 4000))}m", memory="8Gi", pods=draw(st.integers(2, 8))
            )
        )
        if draw(st.integers(0, 4)) == 0:
            builder = builder.taint("dedicated", "infra")
        nodes.append(builder.obj())
    anti_affinity = draw(st.integers(0, 5)) == 0
    pods: list[Pod] = []
    for i in range(draw(st.integers(0, 20))):
        builder = (
            make_pod(f"p{i}")
            .namespace("ns")
            .uid(f"p{i}")
            .node(draw(st.sampled_from(nodes)).metadata.name)
            .priority(draw(PRIORITIES))
            .req(cpu=f"{draw(st.integers(100, 1500))}m", memory="256Mi")
            .start_time(STARTED + timedelta(minutes=draw(st.integers(0, 3))))
        )
        if draw(st.booleans()):
            builder = builder.label("app", "guarded")
        if draw(st.integers(0, 5)) == 0:
            builder = builder.host_port(8080)
        if anti_affinity and draw(st.booleans()):
            selector = LabelSelector(match_labels={"role": "preemptor"})
            builder = builder.pod_anti_affinity("zone", selector)
        pods.append(builder.obj())
    pending: list[Pod] = []
    for i in range(draw(st.integers(1, 4))):
        builder = (
            make_pod(f"high{i}")
            .namespace("ns")
            .uid(f"high{i}")
            .label("role", "preemptor")
            .priority(draw(st.sampled_from([5, 10, 100])))
            .req(cpu=f"{draw(st.integers(500, 3000))}m", memory="256Mi")
        )
        if draw(st.booleans()):
            builder = builder.toleration("dedicated")
        if draw(st.integers(0, 3)) == 0:
            builder = builder.node_affinity_in("zone", ["z0"])
        if draw(st.integers(0, 5)) == 0:
            builder = builder.host_port(8080)
        pending.append(builder.obj())
    pdb = make_pdb("guard", "ns", {"app": "guarded"}, draw(st.integers(0, 2)))
    return {"nodes": nodes, "pods": pods + pending, "pdbs": [pdb]}


def outcomes(spec: dict[str, Any], batch: bool) -> list[tuple[Any, ...]]:
    cluster = InMemoryCluster(
        nodes=spec["nodes"], pods=spec["pods"], pod_disruption_budgets=spec["pdbs"]
    )
    registry = default_registry()
    with batching(batch):
        result = build_simulation(default_config(registry), registry, cluster).run()
    return [
        (
            o.pod,
            o.status,
            o.node,
            o.message,
            o.nominated_node,
            tuple(o.victims),
            o.preempted_by,
            None if o.preemption is None else dict(o.preemption),
        )
        for o in result.outcomes
    ]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(clusters())
def test_batch_dry_run_matches_the_node_by_node_one(spec: dict[str, Any]) -> None:
    with counting_chunks() as chunks:
        batched = outcomes(spec, True)
    event("worked out in batches" if chunks else "node by node")
    assert batched == outcomes(spec, False)


def full_cluster(nodes: int) -> dict[str, Any]:
    """PreemptionBasic in small: every node full of low-priority pods, then as many
    preemptors as nodes, each needing three of a node's four pods evicted."""
    node_objs = [
        make_node(f"n{i}").capacity(cpu="4", memory="32Gi", pods=110).obj() for i in range(nodes)
    ]
    low = [
        make_pod(f"low{i}")
        .namespace("ns")
        .uid(f"low{i}")
        .node(f"n{i % nodes}")
        .priority(0)
        .req(cpu="900m", memory="500Mi")
        .obj()
        for i in range(4 * nodes)
    ]
    high = [
        make_pod(f"high{i}").namespace("ns").uid(f"high{i}").priority(10).req(cpu="3").obj()
        for i in range(nodes)
    ]
    return {"nodes": node_objs, "pods": low + high, "pdbs": []}


def test_preemption_basic_in_small_is_worked_out_in_batches() -> None:
    spec = full_cluster(12)
    with counting_chunks() as chunks:
        batched = outcomes(spec, True)
    assert chunks, "the batch dry run was not used"
    assert batched == outcomes(spec, False)
    preemptors = [o for o in batched if o[0].startswith("ns/high")]
    assert [o[1] for o in preemptors] == [SCHEDULED] * 12
    assert sum(len(o[5]) for o in batched) == 36
