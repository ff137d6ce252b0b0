"""Properties on random clusters: the batch forms equal the per-node forms (verdicts, the
reasons derived from the insufficient-resource matrix, filter_batch_reasons, scores),
and a pod that passes Filter never overcommits the node in anything it requests."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from kubesched.api import Container, Node, NodeStatus, ObjectMeta, Pod, PodSpec
from kubesched.api import ResourceRequirements as Requirements
from kubesched.framework import CycleState, NodeInfo, NodeTable, PodInfo, Status
from kubesched_noderesourcesfit import (
    NodeResourcesFit,
    NodeResourcesFitArgs,
    RequestedToCapacityRatioParam,
    ResourceSpec,
    ScoringStrategy,
    UtilizationShapePoint,
    compute_fit_request,
)
from kubesched_noderesourcesfit.fit import FitCheck, is_ignored, node_shortages
from kubesched_noderesourcesfit.plugin import PRE_FILTER_STATE_KEY, filter_status

# Every kind of name the plugin treats differently: native, pods, extended (two groups),
# kubernetes.io-prefixed, hugepages, and a name the scheduler does not track.
RESOURCE_MAX = {
    "cpu": 16_000,
    "memory": 64 * 2**30,
    "ephemeral-storage": 2**40,
    "pods": 8,
    "example.com/gpu": 8,
    "example.com/fpga": 4,
    "vendor.io/nic": 4,
    "kubernetes.io/something": 4,
    "hugepages-2Mi": 2**30,
    "untracked": 4,
}
NAMES = sorted(RESOURCE_MAX)
EXTENDED = ["example.com/gpu", "example.com/fpga", "vendor.io/nic"]


def amounts(names: list[str], scale: int = 1) -> st.SearchStrategy[dict[str, int]]:
    """Resource lists over `names`, amounts up to RESOURCE_MAX // scale, zeros often."""
    return st.lists(st.sampled_from(names), unique=True).flatmap(
        lambda keys: st.fixed_dictionaries(
            {k: st.just(0) | st.integers(0, max(RESOURCE_MAX[k] // scale, 1)) for k in keys}
        )
    )


REQUESTABLE = [n for n in NAMES if n != "pods"]


@st.composite
def pods(draw: st.DrawFn, node_name: str = "") -> Pod:
    """A pod with containers, init containers, sidecars and overhead, any of them empty."""

    def containers(prefix: str, sidecar: bool = False) -> list[Container]:
        n = draw(st.integers(0, 2))
        return [
            Container(
                name=f"{prefix}{i}",
                resources=Requirements(requests=draw(amounts(REQUESTABLE, scale=4))),
                restart_policy="Always" if sidecar and draw(st.booleans()) else None,
            )
            for i in range(n)
        ]

    uid = f"{node_name}-{draw(st.integers(0, 10**9))}"
    spec = PodSpec(
        containers=containers("c"),
        init_containers=containers("i", sidecar=True),
        overhead=draw(amounts(["cpu", "memory"], scale=100)),
        node_name=node_name,
    )
    return Pod(metadata=ObjectMeta(name=uid, uid=uid), spec=spec)


@st.composite
def node_infos(draw: st.DrawFn, name: str, roomy: bool = False) -> NodeInfo:
    """A node with some pods on it; a `roomy` one has every resource and room for a pod."""
    if roomy:
        allocatable = draw(
            st.fixed_dictionaries({k: st.integers(m // 4, m) for k, m in RESOURCE_MAX.items()})
        )
        allocatable["pods"] = draw(st.integers(1, RESOURCE_MAX["pods"]))
    else:
        allocatable = draw(amounts(NAMES))
    node = Node(metadata=ObjectMeta(name=name), status=NodeStatus(allocatable=allocatable))
    existing = draw(st.lists(pods(name), max_size=3))
    return NodeInfo(node, [PodInfo(p) for p in existing])


clusters = st.integers(1, 5).flatmap(
    lambda n: st.tuples(
        *[node_infos(f"node-{i}") | node_infos(f"node-{i}", roomy=True) for i in range(n)]
    ).map(list)
)


@st.composite
def shapes(draw: st.DrawFn) -> RequestedToCapacityRatioParam:
    utils = sorted(draw(st.sets(st.integers(0, 100), min_size=1, max_size=4)))
    return RequestedToCapacityRatioParam(
        [UtilizationShapePoint(u, draw(st.integers(0, 10))) for u in utils]
    )


scoring_strategies = st.builds(
    ScoringStrategy,
    type=st.sampled_from(["LeastAllocated", "MostAllocated", "RequestedToCapacityRatio"]),
    resources=st.lists(
        st.builds(ResourceSpec, st.sampled_from(NAMES), st.integers(1, 100)), max_size=5
    ),
    requested_to_capacity_ratio=shapes(),
)

fit_args = st.builds(
    NodeResourcesFitArgs,
    ignored_resources=st.lists(st.sampled_from(EXTENDED), max_size=2),
    ignored_resource_groups=st.lists(st.sampled_from(["example.com", "vendor.io"]), max_size=1),
    scoring_strategy=scoring_strategies,
)


def _shown(status: Status | None) -> tuple[object, ...] | None:
    return None if status is None else (status.code, *status.reasons)


def check_batch_agrees(plugin: NodeResourcesFit, pod: Pod, infos: list[NodeInfo]) -> None:
    table = NodeTable(infos)
    state = CycleState()
    plugin.pre_filter(state, pod, infos)
    plugin.pre_score(state, pod, infos)
    mask = plugin.filter_batch(state, pod, table)
    verdicts = [plugin.filter(state, pod, ni) for ni in table.node_infos]
    assert mask.tolist() == [v is None for v in verdicts]
    matrix = plugin.insufficient_matrix(state, table)
    for row, verdict in enumerate(verdicts):
        from_matrix = filter_status(matrix.insufficient_at(row))
        assert _shown(from_matrix) == _shown(verdict)
        assert matrix.insufficient_at(row) == node_shortages(
            state.read_as(PRE_FILTER_STATE_KEY, FitCheck), table.node_infos[row]
        )
    rejected = np.flatnonzero(~mask)[::-1]  # any order: the hook answers in the order given
    reasons = plugin.filter_batch_reasons(state, pod, table, rejected)
    assert [_shown(s) for s in reasons] == [_shown(verdicts[r]) for r in rejected]
    rows = np.arange(len(infos), dtype=np.intp)[::-1]
    scores = plugin.score_batch(state, pod, table, rows)
    assert scores.dtype == np.int64
    assert scores.tolist() == [plugin.score(state, pod, table.node_infos[r]) for r in rows]


@settings(max_examples=150, deadline=None)
@given(args=fit_args, pod=pods(), infos=clusters)
def test_batch_forms_equal_per_node_forms(
    args: NodeResourcesFitArgs, pod: Pod, infos: list[NodeInfo]
) -> None:
    check_batch_agrees(NodeResourcesFit(args, None), pod, infos)


@settings(max_examples=40, deadline=None)
@given(args=fit_args, pod=pods(), infos=clusters, data=st.data())
def test_batch_forms_follow_replaced_rows(
    args: NodeResourcesFitArgs, pod: Pod, infos: list[NodeInfo], data: st.DataObject
) -> None:
    """After the snapshot replaces changed rows, cached columns stay right."""
    plugin = NodeResourcesFit(args, None)
    table = NodeTable(infos)
    check_batch_agrees(plugin, pod, table.node_infos)
    row = data.draw(st.integers(0, len(infos) - 1))
    table.replace_rows([(row, data.draw(node_infos(infos[row].name)))])
    state = CycleState()
    plugin.pre_filter(state, pod, table.node_infos)
    mask = plugin.filter_batch(state, pod, table)
    assert mask.tolist() == [plugin.filter(state, pod, ni) is None for ni in table.node_infos]
    rows = np.arange(len(table), dtype=np.intp)
    assert plugin.score_batch(state, pod, table, rows).tolist() == [
        plugin.score(state, pod, ni) for ni in table.node_infos
    ]


@settings(max_examples=200, deadline=None)
@given(args=fit_args, pod=pods(), info=node_infos("node") | node_infos("node", roomy=True))
def test_a_pod_passing_filter_never_overcommits_the_node(
    args: NodeResourcesFitArgs, pod: Pod, info: NodeInfo
) -> None:
    plugin = NodeResourcesFit(args, None)
    state = CycleState()
    plugin.pre_filter(state, pod, [info])
    if plugin.filter(state, pod, info) is not None:
        return
    after = info.snapshot()
    after.add_pod(pod)
    assert len(after.pods) <= after.allocatable.get("pods", 0)
    request = compute_fit_request(pod)
    ignored = (args.ignored_resources, args.ignored_resource_groups)
    checked = [n for n, a in request.native if a > 0]
    checked += [n for n, a in request.scalars if a > 0 and not is_ignored(n, *ignored)]
    for name in checked:
        assert after.requested.get(name, 0) <= after.allocatable.get(name, 0), name


@settings(max_examples=60, deadline=None)
@given(args=fit_args, pod=pods(), info=node_infos("node"))
def test_scores_stay_in_range(args: NodeResourcesFitArgs, pod: Pod, info: NodeInfo) -> None:
    state = CycleState()
    assert 0 <= NodeResourcesFit(args, None).score(state, pod, info) <= 100
