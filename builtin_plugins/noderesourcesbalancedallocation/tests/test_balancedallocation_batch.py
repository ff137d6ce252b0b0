"""Properties on random clusters: score_batch equals score, scores stay in 0..100, and with
two resources the score is `(1 - |f1 - f2| / 2) * 100` computed independently."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from kubesched.api import Pod
from kubesched.framework import CycleState, NodeInfo, NodeTable, PodInfo
from kubesched.testing import assert_batch_agrees, make_node, make_pod
from kubesched_noderesourcesbalancedallocation import (
    NodeResourcesBalancedAllocation,
    NodeResourcesBalancedAllocationArgs,
    ResourceSpec,
)

GPU = "example.com/gpu"
amounts = st.integers(min_value=0, max_value=64_000)


@st.composite
def pods(draw: st.DrawFn, name: str = "pod", node: str = "") -> Pod:
    builder = make_pod(name).node(node)
    for _ in range(draw(st.integers(min_value=0, max_value=2))):
        requests: dict[str, int | str] = {
            "cpu": f"{draw(amounts)}m",
            "memory": draw(amounts),
        }
        if draw(st.booleans()):
            requests[GPU] = draw(st.integers(min_value=0, max_value=4))
        if draw(st.booleans()):
            requests["ephemeral-storage"] = draw(amounts)
        builder = builder.req(requests)
    return builder.obj()


@st.composite
def clusters(draw: st.DrawFn) -> list[NodeInfo]:
    infos = []
    for i in range(draw(st.integers(min_value=0, max_value=8))):
        capacity: dict[str, int | str] = {"cpu": f"{draw(amounts)}m", "memory": draw(amounts)}
        if draw(st.booleans()):
            capacity[GPU] = draw(st.integers(min_value=0, max_value=8))
        if draw(st.booleans()):
            capacity["ephemeral-storage"] = draw(amounts)
        running = [draw(pods(f"p{i}-{j}", f"n{i}")) for j in range(draw(st.integers(0, 3)))]
        infos.append(NodeInfo(make_node(f"n{i}").capacity(capacity).obj(), map(PodInfo, running)))
    return infos


RESOURCE_SETS = [
    (),
    (ResourceSpec("cpu"), ResourceSpec("memory"), ResourceSpec(GPU)),
    (
        ResourceSpec("memory"),
        ResourceSpec("ephemeral-storage"),
        ResourceSpec("cpu"),
        ResourceSpec(GPU),
    ),
    (ResourceSpec("cpu"),),
]


@given(pod=pods(), infos=clusters(), resources=st.sampled_from(RESOURCE_SETS), data=st.data())
def test_score_batch_equals_score(
    pod: Pod,
    infos: list[NodeInfo],
    resources: tuple[ResourceSpec, ...],
    data: st.DataObject,
) -> None:
    plugin = NodeResourcesBalancedAllocation(NodeResourcesBalancedAllocationArgs(resources))
    rows = np.array(data.draw(st.permutations(range(len(infos)))), dtype=np.intp)
    state = CycleState()
    plugin.pre_score(state=state, pod=pod)
    batch = plugin.score_batch(state=state, pod=pod, table=NodeTable(infos), rows=rows)
    per_node = [plugin.score(state=state, pod=pod, node_info=infos[r]) for r in rows]
    assert batch.dtype == np.int64
    assert batch.tolist() == per_node
    assert all(0 <= s <= 100 for s in per_node)


@given(pod=pods(), infos=clusters())
def test_two_resources_score_half_the_difference(pod: Pod, infos: list[NodeInfo]) -> None:
    plugin = NodeResourcesBalancedAllocation()
    requests = PodInfo(pod).requests
    if not requests.get("cpu", 0) and not requests.get("memory", 0):
        return
    for ni in infos:
        shares = []
        for name in ("cpu", "memory"):
            alloc = ni.allocatable.get(name, 0)
            if alloc:
                used = ni.requested.get(name, 0) + requests.get(name, 0)
                shares.append(min(float(used) / float(alloc), 1.0))
        spread = abs(shares[0] - shares[1]) / 2 if len(shares) == 2 else 0.0
        expected = math.trunc((1 - spread) * 100)
        assert plugin.score(state=CycleState(), pod=pod, node_info=ni) == expected


@settings(max_examples=15, deadline=None)
@given(pod=pods(), data=st.data())
def test_batch_agrees_through_the_framework(pod: Pod, data: st.DataObject) -> None:
    running = [data.draw(pods(f"r{i}", "n1")) for i in range(data.draw(st.integers(0, 3)))]
    nodes = [
        make_node("n1").capacity(cpu="8", memory="16Gi").obj(),
        make_node("n2").capacity(cpu="2", memory="64Gi").obj(),
    ]
    assert_batch_agrees(NodeResourcesBalancedAllocation, pod, nodes, pods=running)
