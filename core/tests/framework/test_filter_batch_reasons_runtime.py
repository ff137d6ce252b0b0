"""In the runtime, the reasons `filter_batch_reasons` gives in batch (also for nodes with
nominated pods, on copies with those pods added) equal the one-by-one path's: every
rejected node's status from `run_filter_plugins_with_nominated_pods`, code, reasons and
plugin alike, on random small clusters."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from kubesched.api import Pod
from kubesched.framework import CycleState, NodeInfo, PodInfo, default_registry
from kubesched.framework._profile import EffectiveProfile
from kubesched.framework._runtime import Framework
from kubesched.scheduler.cache import Cache
from kubesched.scheduler.nominator import Nominator
from kubesched.scheduler.snapshot import Snapshot
from kubesched.testing import make_node, make_pod

PROFILE = EffectiveProfile(
    "default-scheduler",
    plugins={
        "queueSort": ("PrioritySort",),
        "preFilter": ("NodeResourcesFit",),
        "filter": ("NodeUnschedulable", "NodeResourcesFit", "TaintToleration"),
        "bind": ("DefaultBinder",),
    },
)
PRIORITIES = st.sampled_from([0, 5, 10])


@st.composite
def clusters(draw: st.DrawFn) -> tuple[list[Any], list[Pod], list[tuple[Pod, str]], Pod]:
    n = draw(st.integers(1, 8))
    nodes, running, nominated = [], [], []
    for i in range(n):
        builder = make_node(f"n{i}").capacity(
            cpu=f"{draw(st.integers(1, 4))}", pods=draw(st.integers(1, 4))
        )
        if draw(st.integers(0, 5)) == 0:
            builder = builder.unschedulable()
        if draw(st.integers(0, 5)) == 0:
            builder = builder.taint("dedicated", "x")
        nodes.append(builder.obj())
        for j in range(draw(st.integers(0, 3))):
            cpu = f"{draw(st.integers(1, 20)) * 100}m"
            running.append(make_pod(f"r{i}-{j}").node(f"n{i}").req(cpu=cpu).obj())
    for k in range(draw(st.integers(0, 6))):
        cpu = f"{draw(st.integers(1, 30)) * 100}m"
        pod = make_pod(f"nom{k}").priority(draw(PRIORITIES)).req(cpu=cpu).obj()
        nominated.append((pod, f"n{draw(st.integers(0, n - 1))}"))
    cpu = f"{draw(st.integers(1, 40)) * 100}m"
    pod = make_pod("p").uid("p-uid").priority(draw(PRIORITIES)).req(cpu=cpu).obj()
    return nodes, running, nominated, pod


def _framework(
    nodes: list[Any], running: list[Pod], nominated: list[tuple[Pod, str]]
) -> tuple[Framework, Snapshot]:
    cache, snapshot, nominator = Cache(), Snapshot(), Nominator()
    for node in nodes:
        cache.add_node(node)
    for pod in running:
        cache.add_pod(pod)
    cache.update_snapshot(snapshot)
    for pod, node_name in nominated:
        nominator.add_nominated_pod(PodInfo(pod), node_name)
    fw = Framework(PROFILE, default_registry(), snapshot=snapshot, nominator=nominator)
    return fw, snapshot


def _shown(status: Any) -> Any:
    return None if status is None else (status.code, status.plugin, *status.reasons)


@settings(max_examples=120, deadline=None)
@given(cluster=clusters(), lazy=st.booleans())
def test_batched_reasons_equal_the_one_by_one_path(cluster: Any, lazy: bool) -> None:
    nodes, running, nominated, pod = cluster
    fw, snapshot = _framework(nodes, running, nominated)
    node_infos: list[NodeInfo] = snapshot.node_infos()
    state = CycleState()
    _result, status, _ = fw.run_pre_filter_plugins(state, pod, node_infos)
    assert status is None or status.is_success()
    outcome = fw.find_feasible_nodes(state, pod, snapshot.node_table, reasons=not lazy)
    outcome.explain_rejected()
    assert outcome.error is None
    one_by_one = {
        ni.name: _shown(fw.run_filter_plugins_with_nominated_pods(state, pod, ni))
        for ni in node_infos
    }
    feasible = {node_infos[r].name for r in outcome.rows.tolist()}
    assert {name for name, s in one_by_one.items() if s is None} == feasible
    assert {name: _shown(s) for name, s in outcome.statuses.items()} == {
        name: s for name, s in one_by_one.items() if s is not None
    }
