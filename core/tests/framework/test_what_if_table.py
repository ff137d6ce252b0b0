"""WhatIfTable: every column of rows changed by removed and added pods equals the column
of a plain NodeTable over copies of those nodes with the same changes applied, also when
one what-if table is the base of another."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kubesched.api import CPU, MEMORY
from kubesched.framework import NodeInfo, NodeTable, PodInfo, WhatIfTable
from kubesched.testing import make_node, make_pod

GPU = "example.com/gpu"
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
    assert what_if._copies is None


def test_a_what_if_table_cannot_be_updated() -> None:
    base = NodeTable([_node(0, [])])
    with pytest.raises(TypeError, match="read-only"):
        WhatIfTable(base, [0], [([], [])]).replace_rows([])
    assert np.array_equal(base.pod_count(), [0])
