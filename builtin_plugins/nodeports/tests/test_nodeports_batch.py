"""Properties on random clusters: filter_batch equals filter (also after the table's rows
change), and a node that passes has none of the pod's ports in a clashing use."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from kubesched.api import Pod
from kubesched.framework import CycleState, NodeInfo, NodeTable, PodInfo, host_ports
from kubesched.testing import assert_batch_agrees, make_node, make_pod
from kubesched_nodeports import NodePorts

IPS = ["", "0.0.0.0", "127.0.0.1", "10.0.0.1"]
PROTOCOLS = ["TCP", "UDP", "SCTP", ""]
port_specs = st.tuples(
    st.sampled_from(IPS), st.sampled_from(PROTOCOLS), st.integers(min_value=8000, max_value=8003)
)


def ports_pod(name: str, specs: list[tuple[str, str, int]], node: str = "") -> Pod:
    builder = make_pod(name)
    if node:
        builder = builder.node(node)
    for ip, protocol, port in specs:
        builder = builder.host_port(port, protocol, ip)
    return builder.obj()


@st.composite
def clusters(draw: st.DrawFn) -> list[NodeInfo]:
    infos = []
    for i in range(draw(st.integers(min_value=0, max_value=12))):
        node = make_node(f"n{i}").obj()
        pods = draw(st.lists(st.lists(port_specs, max_size=3), max_size=3))
        infos.append(
            NodeInfo(
                node, [PodInfo(ports_pod(f"p{i}-{j}", s, node=f"n{i}")) for j, s in enumerate(pods)]
            )
        )
    return infos


def wanted() -> st.SearchStrategy[list[tuple[str, str, int]]]:
    return st.lists(port_specs, min_size=1, max_size=3)


PLUGIN = NodePorts()


def _prepared(pod: Pod) -> CycleState:
    state = CycleState()
    assert PLUGIN.pre_filter(state=state, pod=pod) is None
    return state


def _clashes(want: tuple[str, str, int], used: tuple[str, str, int]) -> bool:
    """The rule, spelled out independently: same protocol and port, and either side binds
    every address or both bind the same one."""
    return want[1:] == used[1:] and ("0.0.0.0" in (want[0], used[0]) or want[0] == used[0])


@given(specs=wanted(), infos=clusters())
def test_filter_batch_equals_filter_and_the_rule(
    specs: list[tuple[str, str, int]], infos: list[NodeInfo]
) -> None:
    pod = ports_pod("pod", specs)
    state = _prepared(pod)
    mask = PLUGIN.filter_batch(state=state, table=NodeTable(infos))
    per_node = [PLUGIN.filter(state=state, node_info=ni) is None for ni in infos]
    assert mask.dtype == np.bool_
    assert mask.tolist() == per_node
    for ni, passes in zip(infos, per_node, strict=True):
        used = [p for pi in ni.pods for p in host_ports(pi.pod)]
        clash = any(_clashes(w, u) for w in host_ports(pod) for u in used)
        assert passes == (not clash)


@given(specs=wanted(), infos=clusters(), replacement=st.lists(port_specs, max_size=3))
def test_filter_batch_follows_replaced_rows(
    specs: list[tuple[str, str, int]],
    infos: list[NodeInfo],
    replacement: list[tuple[str, str, int]],
) -> None:
    if not infos:
        return
    pod = ports_pod("pod", specs)
    state = _prepared(pod)
    table = NodeTable(infos)
    PLUGIN.filter_batch(state=state, table=table)
    changed = NodeInfo(infos[0].node, [PodInfo(ports_pod("new", replacement, node="n0"))])
    table.replace_rows([(0, changed)])
    mask = PLUGIN.filter_batch(state=state, table=table)
    assert mask.tolist() == [
        PLUGIN.filter(state=state, node_info=ni) is None for ni in table.node_infos
    ]


@settings(max_examples=20, deadline=None)
@given(specs=wanted(), used=st.lists(st.lists(port_specs, max_size=2), max_size=4))
def test_batch_agrees_through_the_framework(
    specs: list[tuple[str, str, int]], used: list[list[tuple[str, str, int]]]
) -> None:
    nodes = [make_node(f"n{i}").obj() for i in range(3)]
    pods = [ports_pod(f"p{i}", s, node=f"n{i % 3}") for i, s in enumerate(used)]
    assert_batch_agrees(NodePorts, ports_pod("pod", specs), nodes, pods=pods)
