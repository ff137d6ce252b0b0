"""WhatIfTable: every column of rows changed by removed and added pods equals the column
of a plain NodeTable over copies of those nodes with the same changes applied, also when
one what-if table is the base of another."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

import attrs
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from numpy.typing import NDArray

from kubesched import hookimpl
from kubesched.api import CPU, MEMORY
from kubesched.framework import Code, NodeInfo, NodeTable, PodInfo, Status, WhatIfTable
from kubesched.testing import FrameworkHarness, make_node, make_pod

GPU = "example.com/gpu"
POD_X = make_pod("incoming").obj()
RESOURCES = (CPU, MEMORY, GPU, "ephemeral-storage")
Change = tuple[list[PodInfo], list[PodInfo]]


def _pod(name: str, cpu: int, memory: int, gpu: int, port: int | None) -> PodInfo:
    builder = make_pod(name).req({CPU: f"{cpu}m", MEMORY: memory, GPU: gpu} if cpu else {})
    if port is not None:
        builder = builder.host_port(port)
    return PodInfo(builder.obj())


pods = st.builds(
    _pod,
    st.uuids().map(str),
    st.integers(0, 4000),
    st.integers(0, 2**34),
    st.integers(0, 4),
    st.none() | st.integers(8000, 8003),
)


def _node(i: int, residents: list[PodInfo]) -> NodeInfo:
    node = make_node(f"n{i}").capacity(cpu="8", memory="32Gi").label("zone", f"z{i % 3}").obj()
    info = NodeInfo(node)
    for pi in residents:
        info.add_pod_info(pi)
    return info


def _applied(info: NodeInfo, removed: list[PodInfo], added: list[PodInfo]) -> NodeInfo:
    copy = info.snapshot()
    for pi in removed:
        copy.remove_pod(pi.pod)
    for pi in added:
        copy.add_pod_info(pi)
    return copy


@st.composite
def changes(draw: st.DrawFn, infos: list[NodeInfo]) -> tuple[list[int], list[Change]]:
    rows = draw(st.lists(st.integers(0, len(infos) - 1), max_size=6))
    picked: list[Change] = []
    for r in rows:
        residents = infos[r].pods
        removed = draw(st.lists(st.sampled_from(residents), unique_by=id)) if residents else []
        added = draw(st.lists(pods, max_size=3))
        picked.append((removed, added))
    return rows, picked


def _columns(table: NodeTable) -> dict[str, list[object]]:
    cols: dict[str, list[object]] = {"pod_count": table.pod_count().tolist()}
    for kind in ("allocatable", "requested", "non_zero_requested"):
        for name in RESOURCES:
            cols[f"{kind}:{name}"] = table.resource(kind, name).tolist()
    zone = table.column("zone", lambda ni: ni.node.metadata.labels["zone"], node_only=True)
    cols["zone"] = zone.tolist()
    cols["ports"] = table.column("ports", lambda ni: sorted(ni.used_ports)).tolist()
    cols["names"] = list(table.names)
    return cols


@given(st.lists(st.lists(pods, max_size=4), min_size=1, max_size=5), st.data())
def test_columns_equal_those_of_changed_copies(
    residents: list[list[PodInfo]], data: st.DataObject
) -> None:
    infos = [_node(i, r) for i, r in enumerate(residents)]
    base = NodeTable(infos)
    rows, picked = data.draw(changes(infos))
    what_if = WhatIfTable(base, rows, picked)
    copies = [_applied(infos[r], rem, add) for r, (rem, add) in zip(rows, picked, strict=True)]
    assert _columns(what_if) == _columns(NodeTable(copies))

    inner_rows, inner_picked = data.draw(changes(copies)) if copies else ([], [])
    nested = WhatIfTable(what_if, inner_rows, inner_picked)
    twice = [
        _applied(copies[r], rem, add)
        for r, (rem, add) in zip(inner_rows, inner_picked, strict=True)
    ]
    assert _columns(nested) == _columns(NodeTable(twice))
    assert [[p.uid for p in ni.pods] for ni in nested.node_infos] == [
        [p.uid for p in ni.pods] for ni in twice
    ]


def test_node_only_columns_come_from_the_base_without_copying_nodes() -> None:
    infos = [_node(i, [_pod(f"p{i}", 100, 1, 0, None)]) for i in range(3)]
    base = NodeTable(infos)
    calls: list[str] = []

    def zone(ni: NodeInfo) -> str:
        calls.append(ni.name)
        return str(ni.node.metadata.labels["zone"]) if ni.node is not None else ""

    what_if = WhatIfTable(base, [2, 0], [(infos[2].pods, []), ([], [])])
    assert what_if.column("zone", zone, node_only=True).tolist() == ["z2", "z0"]
    assert what_if.resource("requested", CPU).tolist() == [0, 100]
    assert calls == ["n0", "n1", "n2"]  # the base's column, built once over its rows
    assert not any(what_if._copies._made)  # no node copied


def test_a_what_if_table_cannot_be_updated() -> None:
    base = NodeTable([_node(0, [])])
    with pytest.raises(TypeError, match="read-only"):
        WhatIfTable(base, [0], [([], [])]).replace_rows([])
    assert np.array_equal(base.pod_count(), [0])


class CpuBatch:
    """Rejects a node whose pods request more than 1 cpu, with a batch form."""

    def __init__(self, args: object, handle: object) -> None:
        pass

    @hookimpl
    def filter(self, node_info: NodeInfo) -> Status | None:
        return None if node_info.requested.get(CPU, 0) <= 1000 else Status(Code.UNSCHEDULABLE)

    @hookimpl
    def filter_batch(self, table: NodeTable) -> NDArray[np.bool_]:
        return table.resource("requested", CPU) <= 1000


class FewPods:
    """Rejects a node with more than one pod, node by node only."""

    seen: ClassVar[list[int]] = []

    def __init__(self, args: object, handle: object) -> None:
        pass

    @hookimpl
    def filter(self, node_info: NodeInfo) -> Status | None:
        FewPods.seen.append(len(node_info.pods))
        return None if len(node_info.pods) <= 1 else Status(Code.UNSCHEDULABLE)


class Evaluations:
    """Records `scheduler_plugin_evaluation_total` increments."""

    def __init__(self) -> None:
        self.counts: dict[str, int] = {}

    def add_plugin_evaluations(self, plugin: str, point: str, profile: str, count: int) -> None:
        self.counts[plugin] = self.counts.get(plugin, 0) + count

    def __getattr__(self, name: str) -> Callable[..., None]:
        return lambda *args, **kwargs: None


def test_feasible_mask_filters_what_if_rows_with_batch_and_per_node_plugins() -> None:
    residents = [
        [_pod("a", 600, 1, 0, None), _pod("b", 600, 1, 0, None)],
        [_pod("c", 300, 1, 0, None)],
        [_pod("d", 900, 1, 0, None), _pod("e", 100, 1, 0, None)],
    ]
    nodes = [_node(i, []).node for i in range(len(residents))]
    bound = [
        attrs.evolve(pi.pod, spec=attrs.evolve(pi.pod.spec, node_name=f"n{i}"))
        for i, pods in enumerate(residents)
        for pi in pods
    ]
    harness = FrameworkHarness([CpuBatch, FewPods], nodes=[n for n in nodes if n], pods=bound)
    metrics = Evaluations()
    harness.framework._metrics = metrics  # type: ignore[assignment]
    table = harness.snapshot.node_table
    infos = table.node_infos
    extra = _pod("x", 500, 1, 0, None)
    changes: list[Change] = [
        ([infos[0].pods[0]], []),  # n0 without a: 600m, one pod -> fits
        ([], [extra]),  # n1 with x: 800m, two pods -> FewPods rejects
        ([], []),  # n2 as it is: 1000m, two pods -> FewPods rejects
        ([], [extra]),  # n0 with x: 1700m -> CpuBatch rejects
    ]
    what_if = WhatIfTable(table, [0, 1, 2, 0], changes)
    FewPods.seen.clear()
    mask = harness.framework.feasible_mask(harness.state, POD_X, what_if)
    assert np.asarray(mask).tolist() == [True, False, False, False]
    assert FewPods.seen == [1, 2, 2]  # asked on copies of the rows CpuBatch passed
    assert metrics.counts == {"CpuBatch": 4, "FewPods": 3}
    assert [len(ni.pods) for ni in infos] == [2, 1, 2]  # the snapshot's nodes unchanged
