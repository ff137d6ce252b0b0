"""DefaultPreemption inside the real scheduler: the default profile, the in-memory
cluster and the simulated clock, with NodeResourcesFit doing the filtering."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from kubesched.api import LabelSelector, ObjectMeta, Pod, PodDisruptionBudget, PriorityClass
from kubesched.api._policy import PodDisruptionBudgetSpec, PodDisruptionBudgetStatus
from kubesched.cluster.memory import InMemoryCluster
from kubesched.config import default_config
from kubesched.framework._registry import default_registry
from kubesched.profile import build_simulation
from kubesched.scheduler.outcome import SCHEDULED, UNSCHEDULABLE, PodOutcome
from kubesched.scheduler.simulation import Simulation
from kubesched.testing import make_node, make_pod

STARTED = datetime(2024, 5, 1, 10, 0, tzinfo=timezone.utc)
CLASSES = [
    PriorityClass(metadata=ObjectMeta(name="batch"), value=100),
    PriorityClass(metadata=ObjectMeta(name="service"), value=500),
    PriorityClass(metadata=ObjectMeta(name="critical"), value=1000),
]


def running(name: str, node: str, cpu: str, klass: str, minutes: int, **labels: str) -> Pod:
    return (
        make_pod(name)
        .namespace("apps")
        .priority_class_name(klass)
        .node(node)
        .labels(labels)
        .req(cpu=cpu, memory="512Mi")
        .start_time(STARTED + timedelta(minutes=minutes))
        .obj()
    )


def cluster(*, preemption_policy: str | None = None) -> InMemoryCluster:
    nodes = [make_node(n).capacity(cpu="2", memory="8Gi", pods=10).obj() for n in ("a", "b", "c")]
    pods = [
        running("web-a", "a", "1500m", "service", 0),
        running("batch-a", "a", "500m", "batch", 5),
        running("batch-b1", "b", "1", "batch", 1, app="etl"),
        running("batch-b2", "b", "1", "batch", 2, app="etl"),
        running("web-c", "c", "1", "service", 3),
        running("batch-c", "c", "1", "batch", 4),
    ]
    pending = make_pod("checkout").namespace("apps").priority_class_name("critical")
    if preemption_policy is not None:
        pending = pending.preemption_policy(preemption_policy)
    pdb = PodDisruptionBudget(
        metadata=ObjectMeta(name="etl", namespace="apps"),
        spec=PodDisruptionBudgetSpec(selector=LabelSelector(match_labels={"app": "etl"})),
        status=PodDisruptionBudgetStatus(disruptions_allowed=1),
    )
    return InMemoryCluster(
        nodes=nodes,
        pods=[*pods, pending.req(cpu="1", memory="1Gi").obj()],
        pod_disruption_budgets=[pdb],
        priority_classes=CLASSES,
    )


def simulate(c: InMemoryCluster) -> tuple[Simulation, PodOutcome]:
    registry = default_registry()
    sim = build_simulation(default_config(registry), registry, c)
    result = sim.run()
    (outcome,) = result.outcomes
    return sim, outcome


def test_high_priority_pod_preempts_and_lands_on_the_nominated_node() -> None:
    c = cluster()
    sim, outcome = simulate(c)
    # a: evicting batch-a frees only 500m; b: both etl pods would have to go, and the
    # budget allows one disruption; c: one batch pod, no budget. So c, evicting batch-c.
    assert outcome.status == SCHEDULED
    assert (outcome.node, outcome.nominated_node, outcome.victims) == ("c", "c", ["apps/batch-c"])
    remaining = {p.metadata.name for p in c.pods()}
    assert "batch-c" not in remaining
    assert {"web-a", "batch-a", "batch-b1", "batch-b2", "web-c"} <= remaining
    preempted = [e for e in sim.recorder.events if e.reason == "Preempted"]
    checkout = next(p for p in c.pods() if p.metadata.name == "checkout")
    assert [(e.involved, e.type, e.message) for e in preempted] == [
        ("Pod apps/batch-c", "Normal", f"Preempted by pod {checkout.uid} on node c")
    ]
    assert checkout.spec.node_name == "c"


def test_preemption_policy_never_leaves_the_pod_pending_and_evicts_nothing() -> None:
    c = cluster(preemption_policy="Never")
    before = {p.metadata.name for p in c.pods()}
    _, outcome = simulate(c)
    assert outcome.status == UNSCHEDULABLE
    assert outcome.nominated_node is None
    assert outcome.victims == []
    assert outcome.message == (
        "0/3 nodes are available: 3 Insufficient cpu. "
        "preemption: not eligible due to preemptionPolicy=Never."
    )
    assert {p.metadata.name for p in c.pods()} == before


@pytest.mark.parametrize("seed", [0, 1, 7])
def test_the_outcome_does_not_depend_on_the_seed(seed: int) -> None:
    registry = default_registry()
    result = build_simulation(default_config(registry), registry, cluster(), seed=seed).run()
    (outcome,) = result.outcomes
    assert (outcome.node, outcome.victims) == ("c", ["apps/batch-c"])


def test_dry_run_offset_comes_from_the_scheduler_seed() -> None:
    registry = default_registry()
    cfg = default_config(registry)
    runs = [build_simulation(cfg, registry, cluster(), seed=seed) for seed in (3, 3, 4)]
    frameworks = [sim.scheduler.frameworks["default-scheduler"] for sim in runs]
    plugins = [fw.plugins["DefaultPreemption"] for fw in frameworks]
    assert all(p.rng is fw.rng for p, fw in zip(plugins, frameworks, strict=True))  # type: ignore[attr-defined]
    draws = [p.rng.random() for p in plugins]  # type: ignore[attr-defined]
    assert draws[0] == draws[1] != draws[2]
