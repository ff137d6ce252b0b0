"""Reasons only when needed: a batch Filter's per-node form is asked why a node was
rejected only when the pod fits nowhere (or is explained), and the outcome is the same."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.typing import NDArray

from kubesched import hookimpl
from kubesched.framework import Code, CycleState, FitError, NodeInfo, Status
from kubesched.framework._node_table import NodeTable
from kubesched.framework._profile import EffectiveProfile
from kubesched.framework._registry import Registry
from kubesched.framework._runtime import Framework
from kubesched.scheduler.algorithm import Algorithm
from kubesched.scheduler.cache import Cache
from kubesched.scheduler.snapshot import Snapshot
from kubesched.testing import make_node, make_pod


class BatchRejecter:
    """Filter with a batch form: rejects the nodes named in args; counts per-node calls."""

    name = "BatchRejecter"

    def __init__(self, args: Any, handle: Any) -> None:
        self.rejected = set(args or ())
        self.per_node_calls = 0

    @hookimpl
    def filter(self, node_info: NodeInfo) -> Status | None:
        self.per_node_calls += 1
        if node_info.name in self.rejected:
            return Status(Code.UNSCHEDULABLE, f"node {node_info.name} is out")
        return None

    @hookimpl
    def filter_batch(self, table: NodeTable) -> NDArray[np.bool_]:
        return np.array([n not in self.rejected for n in table.names], dtype=bool)


def _setup(registry: Registry, nodes: int, rejected: set[str]) -> tuple[Framework, Snapshot]:
    if "BatchRejecter" not in registry:
        registry.register("BatchRejecter", BatchRejecter)
    profile = EffectiveProfile(
        "default-scheduler",
        plugins={
            "queueSort": ("PrioritySort",),
            "filter": ("BatchRejecter",),
            "score": ("ConstantScore",),
            "bind": ("DefaultBinder",),
        },
        plugin_args={"BatchRejecter": rejected},
        percentage_of_nodes_to_score=None,
    )
    cache, snapshot = Cache(), Snapshot()
    for i in range(nodes):
        cache.add_node(make_node(f"n{i}").obj())
    cache.update_snapshot(snapshot)
    return Framework(profile, registry, snapshot=snapshot), snapshot


def _calls(fw: Framework) -> int:
    plugin: Any = fw.plugins["BatchRejecter"]
    return int(plugin.per_node_calls)


def test_reason_code_is_not_called_for_a_pod_that_schedules(registry: Registry) -> None:
    fw, snapshot = _setup(registry, 20, {f"n{i}" for i in range(0, 20, 2)})
    result = Algorithm(random.Random(0)).schedule_pod(
        fw, CycleState(), make_pod("p").obj(), snapshot, reasons=False
    )
    assert _calls(fw) == 0
    assert result.feasible == 10 and result.evaluated == 20
    assert result.host in {f"n{i}" for i in range(1, 20, 2)}


def test_an_explained_pod_still_gets_every_reason(registry: Registry) -> None:
    fw, snapshot = _setup(registry, 20, {f"n{i}" for i in range(0, 20, 2)})
    result = Algorithm(random.Random(0)).schedule_pod(
        fw, CycleState(), make_pod("p").obj(), snapshot, reasons=True
    )
    assert _calls(fw) == 10
    assert sorted(result.filter_statuses) == sorted(f"n{i}" for i in range(0, 20, 2))


def test_a_pod_that_fits_nowhere_gets_its_reasons(registry: Registry) -> None:
    fw, snapshot = _setup(registry, 5, {f"n{i}" for i in range(5)})
    try:
        Algorithm(random.Random(0)).schedule_pod(
            fw, CycleState(), make_pod("p").obj(), snapshot, reasons=False
        )
    except FitError as err:
        assert _calls(fw) == 5
        assert err.message == (
            "0/5 nodes are available: 1 node n0 is out, 1 node n1 is out, 1 node n2 is out, "
            "1 node n3 is out, 1 node n4 is out."
        )
    else:
        raise AssertionError("the pod should fit nowhere")


def _attempts(
    registry: Registry, nodes: int, rejected: set[str], pods: int, reasons: bool
) -> list[tuple[str, ...]]:
    fw, snapshot = _setup(registry, nodes, rejected)
    algorithm = Algorithm(random.Random(7))
    seen: list[tuple[str, ...]] = []
    for i in range(pods):
        pod = make_pod(f"p{i}").nominated_node_name(f"n{i % (nodes + 1)}").obj()
        try:
            result = algorithm.schedule_pod(fw, CycleState(), pod, snapshot, reasons=reasons)
        except FitError as err:
            statuses = err.diagnosis.node_to_status
            seen.append(("fit", err.message, *(f"{n}={s.message}" for n, s in statuses.items())))
        else:
            seen.append(("ok", result.host, str(result.evaluated), str(result.feasible)))
        seen.append(("next", str(algorithm.next_start_node_index)))
    return seen


@settings(max_examples=40, deadline=None)
@given(
    nodes=st.integers(1, 150),
    rejected=st.sets(st.integers(0, 149)),
    pods=st.integers(1, 6),
)
def test_lazy_and_eager_reasons_agree(
    registry: Registry, nodes: int, rejected: set[int], pods: int
) -> None:
    names = {f"n{i}" for i in rejected if i < nodes}
    eager = _attempts(registry, nodes, names, pods, reasons=True)
    lazy = _attempts(registry, nodes, names, pods, reasons=False)
    assert lazy == eager
