"""The batched dry run (`batch_victims`) chooses what the per-node one chooses: same
victims, same nominated node, same messages, on random clusters run end to end."""

from __future__ import annotations

from typing import Any
from unittest import mock

from defaultpreemption_testlib import make_pdb
from hypothesis import given, settings
from hypothesis import strategies as st

from kubesched.api import Pod
from kubesched.cluster import InMemoryCluster
from kubesched.config import default_config
from kubesched.framework import default_registry
from kubesched.profile import build_simulation
from kubesched.testing import make_node, make_pod
from kubesched_defaultpreemption import batch_victims, plugin
from kubesched_defaultpreemption.dry_run import dry_run_preemption

PRIORITIES = st.sampled_from([-10, 0, 5, 10, 100])
REGISTRY = default_registry()


@st.composite
def workloads(draw: st.DrawFn) -> tuple[list[Any], list[Pod], list[Any]]:
    nodes = [
        make_node(f"n{i}")
        .capacity(cpu=f"{draw(st.integers(1000, 4000))}m", pods=draw(st.integers(1, 6)))
        .obj()
        for i in range(draw(st.integers(1, 8)))
    ]
    pods = []
    for i in range(draw(st.integers(0, 16))):
        builder = (
            make_pod(f"low{i}")
            .node(draw(st.sampled_from(nodes)).metadata.name)
            .priority(draw(PRIORITIES))
            .req(cpu=f"{draw(st.integers(50, 2000))}m")
            .start_time(f"2024-01-01T00:00:{i:02d}Z")
        )
        if draw(st.booleans()):
            builder = builder.label("app", "guarded")
        if draw(st.integers(0, 5)) == 0:
            builder = builder.host_port(8080)
        pods.append(builder.obj())
    for i in range(draw(st.integers(1, 6))):
        builder = (
            make_pod(f"high{i}")
            .priority(draw(PRIORITIES))
            .req(cpu=f"{draw(st.integers(300, 4000))}m")
        )
        if draw(st.integers(0, 5)) == 0:
            builder = builder.host_port(8080)
        pods.append(builder.obj())
    pdbs = [
        make_pdb(
            "guard", match_labels={"app": "guarded"}, disruptions_allowed=draw(st.integers(0, 2))
        )
    ]
    return nodes, pods, pdbs


def _run(
    nodes: list[Any], pods: list[Pod], pdbs: list[Any], seed: int, as_before: bool = False
) -> list[tuple[Any, ...]]:
    cluster = InMemoryCluster(nodes=nodes, pods=pods, pod_disruption_budgets=pdbs)
    simulation = build_simulation(
        default_config(REGISTRY), REGISTRY, cluster, seed=seed, explain=True
    )
    if as_before:
        fw_class = type(next(iter(simulation.scheduler.frameworks.values())))
        with mock.patch.object(fw_class, "_filter_by_masks", _filter_as_before(fw_class)):
            result = simulation.run()
    else:
        result = simulation.run()
    return [
        (
            o.pod,
            o.status,
            o.node,
            o.message,
            o.nominated_node,
            tuple(o.victims),
            o.preempted_by,
            repr(o.preemption),
        )
        for o in result.outcomes
    ]


def _filter_as_before(fw_class: Any) -> Any:
    """The Filter of before batching: nodes with nominated pods, when any, visited one by
    one (a replacement for the framework class's mask path)."""
    by_masks = fw_class._filter_by_masks

    def filter_by_masks(self: Any, steps: Any, state: Any, pod: Any, table: Any, *rest: Any) -> Any:
        order, limit, _reasons, special = rest
        if special:
            return self._visit(steps, state, pod, table.node_infos, order.tolist(), limit, special)
        return by_masks(self, steps, state, pod, table, *rest)

    return filter_by_masks


@settings(max_examples=40, deadline=None)
@given(workloads(), st.integers(0, 3))
def test_batched_and_per_node_dry_runs_agree(workload: Any, seed: int) -> None:
    nodes, pods, pdbs = workload
    batched = _run(nodes, pods, pdbs, seed)
    with mock.patch.object(plugin, "ready", lambda handle, state: False):
        per_node = _run(nodes, pods, pdbs, seed, as_before=True)
    assert batched == per_node


def test_the_batched_path_runs_in_a_real_cycle() -> None:
    nodes = [make_node(f"n{i}").capacity(cpu="2", pods=10).obj() for i in range(3)]
    low = [
        make_pod(f"low{i}").node(f"n{i % 3}").priority(0).req(cpu="900m").obj() for i in range(6)
    ]
    high = make_pod("high").priority(10).req(cpu="1500m").obj()
    calls: list[int] = []
    original = batch_victims.select_victims_batch

    def counting(*args: Any, **kwargs: Any) -> Any:
        calls.append(len(args[3]))
        return original(*args, **kwargs)

    with mock.patch.object(plugin, "select_victims_batch", counting):
        outcomes = _run(nodes, [*low, high], [], 0)
    assert calls == [3]
    high_outcome = next(o for o in outcomes if o[0] == "default/high")
    assert high_outcome[1] == "Scheduled" and len(high_outcome[5]) == 2


def test_deferred_statuses_are_settled_in_visiting_order() -> None:
    from kubesched.framework import Code, Status
    from kubesched_defaultpreemption.batch_victims import Deferred

    nodes = [make_node(f"n{i}").obj() for i in range(3)]
    from kubesched.framework import NodeInfo

    infos = [NodeInfo(n) for n in nodes]

    def check_nodes(part: Any) -> list[Any]:
        return [Deferred(lambda n=n: Status(Code.UNSCHEDULABLE, f"no {n.name}")) for n in part]

    result = dry_run_preemption(infos, 1, 2, lambda n: Status(Code.ERROR, "unused"), check_nodes)
    assert not result.node_statuses
    result.settle()
    assert list(result.node_statuses) == ["n1", "n2", "n0"]
    assert result.node_statuses["n2"].message == "no n2"
