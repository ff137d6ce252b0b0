"""PreScore and Score: upstream's TestFitScore, least_allocated_test.go, most_allocated_test.go
and requested_to_capacity_ratio_test.go, every case that applies.

Not applicable: the DRA-backed extended resource cases (DRAExtendedResource
is off), and "Resources not set" (an empty resource list is defaulted to cpu
and memory by v1 defaulting before the plugin sees it; see the args tests).
The invalid-weight cases are in test_noderesourcesfit_args.py. Each run also
checks score_batch against score (see conftest).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from kubesched.api import Node, Pod
from kubesched.testing import Amount, make_node, make_pod
from kubesched_noderesourcesfit import (
    LEAST_ALLOCATED,
    MOST_ALLOCATED,
    REQUESTED_TO_CAPACITY_RATIO,
    NodeResourcesFitArgs,
    RequestedToCapacityRatioParam,
    ResourceSpec,
    ScoringStrategy,
    UtilizationShapePoint,
)
from kubesched_noderesourcesfit.scoring import broken_linear

EXT = "abc.com/xyz"
DEFAULT = (ResourceSpec("cpu", 1), ResourceSpec("memory", 1))
WITH_EXT = (*DEFAULT, ResourceSpec(EXT, 1))
MEMORY_HEAVY = (ResourceSpec("memory", 2), ResourceSpec("cpu", 1))
EXT_FIRST = (ResourceSpec(EXT, 2), ResourceSpec("cpu", 1), ResourceSpec("memory", 1))


def node(name: str, capacity: Mapping[str, Amount] | None = None) -> Node:
    builder = make_node(name)
    if capacity is not None:
        builder.capacity(capacity)
    return builder.obj()


def pod(*requests: Mapping[str, Amount], on: str = "") -> Pod:
    builder = make_pod("p")
    for r in requests:
        builder.req(r)
    if on:
        builder.node(on)
    return builder.obj()


def shape(*points: tuple[int, int]) -> RequestedToCapacityRatioParam:
    return RequestedToCapacityRatioParam([UtilizationShapePoint(u, s) for u, s in points])


def fit_args(
    type_: str,
    resources: Sequence[ResourceSpec] = DEFAULT,
    curve: RequestedToCapacityRatioParam | None = None,
) -> NodeResourcesFitArgs:
    return NodeResourcesFitArgs(
        scoring_strategy=ScoringStrategy(
            type=type_, resources=resources, requested_to_capacity_ratio=curve
        )
    )


N4 = node("node1", {"cpu": "4000", "memory": "10000"})
N6 = node("node2", {"cpu": "6000", "memory": "10000"})
N4_2 = node("node2", {"cpu": "4000", "memory": "10000"})
N10_1 = node("node1", {"cpu": "10000", "memory": "20000"})
N10_2 = node("node2", {"cpu": "10000", "memory": "20000"})
C1000 = {"cpu": "1000", "memory": "2000"}
C2000 = {"cpu": "2000", "memory": "3000"}
C3000_0 = {"cpu": "3000", "memory": "0"}
C3000_5000 = {"cpu": "3000", "memory": "5000"}
E6_1 = node("node1", {"cpu": "6000", "memory": "10000"})
E6_2 = node("node2", {"cpu": "6000", "memory": "10000", EXT: "4"})
FIT_EXISTING = [
    pod({"cpu": "2000", "memory": "4000"}, on="node1"),
    pod({"cpu": "1000", "memory": "2000"}, on="node2"),
]
SIDECAR_EXISTING = [
    make_pod("s").node("node1").req(C1000).sidecar_req(C1000).obj(),
    pod(C1000, on="node2"),
]
LEAST_TO_MOST = shape((0, 10), (100, 0))
MOST_TO_LEAST = shape((0, 0), (100, 10))

FIT_SCORE = [
    pytest.param(
        fit_args(REQUESTED_TO_CAPACITY_RATIO, curve=LEAST_TO_MOST),
        pod({"cpu": "3000", "memory": "5000"}),
        [N4, N6],
        FIT_EXISTING,
        [10, 32],
        id="test case for ScoringStrategy RequestedToCapacityRatio case1",
    ),
    pytest.param(
        fit_args(REQUESTED_TO_CAPACITY_RATIO, curve=MOST_TO_LEAST),
        pod({"cpu": "3000", "memory": "5000"}),
        [N4, N6],
        FIT_EXISTING,
        [95, 68],
        id="test case for ScoringStrategy RequestedToCapacityRatio case2",
    ),
    pytest.param(
        fit_args(MOST_ALLOCATED),
        pod(C1000),
        [N4, N6],
        FIT_EXISTING,
        [67, 36],
        id="test case for ScoringStrategy MostAllocated",
    ),
    pytest.param(
        fit_args(LEAST_ALLOCATED),
        pod(C1000),
        [N4, N6],
        FIT_EXISTING,
        [32, 63],
        id="test case for ScoringStrategy LeastAllocated",
    ),
    pytest.param(
        fit_args(MOST_ALLOCATED),
        pod(C1000),
        [N4, N4_2],
        SIDECAR_EXISTING,
        [67, 45],
        id="test case for ScoringStrategy MostAllocated with sidecar container",
    ),
    pytest.param(
        fit_args(LEAST_ALLOCATED),
        pod(C1000),
        [N4, N4_2],
        SIDECAR_EXISTING,
        [32, 55],
        id="test case for ScoringStrategy LeastAllocated with sidecar container",
    ),
]


@pytest.mark.parametrize("pre_score", [True, False], ids=["", "if PreScore is not called"])
@pytest.mark.parametrize(("args", "incoming", "nodes", "existing", "want"), FIT_SCORE)
def test_fit_score(run_scores, args, incoming, nodes, existing, want, pre_score) -> None:
    got = run_scores(args, incoming, nodes, existing, pre_score=pre_score)
    assert got == list(zip([n.name for n in nodes], want, strict=True))


LEAST_ALLOCATED_CASES = [
    pytest.param(
        DEFAULT, pod(), [N4, N4_2], [], [100, 100], id="nothing scheduled, nothing requested"
    ),
    pytest.param(
        DEFAULT,
        pod(C1000, C2000),
        [N4, N6],
        [],
        [37, 50],
        id="nothing scheduled, resources requested, differently sized nodes",
    ),
    pytest.param(
        DEFAULT,
        pod(),
        [N4, N4_2],
        [pod(on="node1"), pod(on="node1"), pod(on="node2"), pod(on="node2")],
        [100, 100],
        id="no resources requested, pods scheduled",
    ),
    pytest.param(
        DEFAULT,
        pod(),
        [N10_1, N10_2],
        [
            pod(C3000_0, on="node1"),
            pod(C3000_0, on="node1"),
            pod(C3000_0, on="node2"),
            pod(C3000_5000, on="node2"),
        ],
        [70, 57],
        id="no resources requested, pods scheduled with resources",
    ),
    pytest.param(
        DEFAULT,
        pod(C1000, C2000),
        [N10_1, N10_2],
        [pod(C3000_0, on="node1"), pod(C3000_5000, on="node2")],
        [57, 45],
        id="resources requested, pods scheduled with resources",
    ),
    pytest.param(
        DEFAULT,
        pod(C1000, C2000),
        [N10_1, node("node2", {"cpu": "10000", "memory": "50000"})],
        [pod(C3000_0, on="node1"), pod(C3000_5000, on="node2")],
        [57, 60],
        id="resources requested, pods scheduled with resources, differently sized nodes",
    ),
    pytest.param(
        DEFAULT,
        pod(C3000_0),
        [N4, N4_2],
        [pod(C3000_0, on="node1"), pod(C3000_5000, on="node2")],
        [50, 25],
        id="requested resources exceed node capacity",
    ),
    pytest.param(
        DEFAULT,
        pod(),
        [node("node1"), node("node2")],
        [pod(C3000_0, on="node1"), pod(C3000_5000, on="node2")],
        [0, 0],
        id="zero node resources, pods scheduled with resources",
    ),
    pytest.param(
        MEMORY_HEAVY,
        pod(C1000, C2000, on="node1"),
        [N4, N6],
        [],
        [41, 50],
        id="nothing scheduled, resources requested with different weight on CPU and memory, "
        "differently sized nodes",
    ),
    pytest.param(
        WITH_EXT,
        pod(C1000, C2000, on="node1"),
        [E6_1, E6_2],
        [],
        [50, 50],
        id="bypass extended resource if the pod does not request",
    ),
    pytest.param(
        WITH_EXT,
        pod({"cpu": "3000", "memory": "5000", EXT: "2"}, on="node1"),
        [
            node("node1", {"cpu": "6000", "memory": "10000", EXT: "4"}),
            node("node2", {"cpu": "6000", "memory": "10000", EXT: "10"}),
        ],
        [],
        [50, 60],
        id="honor extended resource if the pod requests",
    ),
    pytest.param(
        EXT_FIRST,
        pod({"cpu": "3000", "memory": "4000"}, on="node1"),
        [E6_1, E6_2],
        [],
        [55, 55],
        id="if the node doesn't have a resource",
    ),
]


@pytest.mark.parametrize(
    ("resources", "incoming", "nodes", "existing", "want"), LEAST_ALLOCATED_CASES
)
def test_least_allocated(run_scores, resources, incoming, nodes, existing, want) -> None:
    got = run_scores(fit_args(LEAST_ALLOCATED, resources), incoming, nodes, existing)
    assert [score for _, score in got] == want


MOST_ALLOCATED_CASES = [
    pytest.param(DEFAULT, pod(), [N4, N4_2], [], [0, 0], id="nothing scheduled, nothing requested"),
    pytest.param(
        DEFAULT,
        pod(C1000, C2000),
        [N4, N6],
        [],
        [62, 50],
        id="nothing scheduled, resources requested, differently sized nodes",
    ),
    pytest.param(
        DEFAULT,
        pod(),
        [N10_1, N10_2],
        [
            pod(C3000_0, on="node1"),
            pod(C3000_0, on="node1"),
            pod(C3000_0, on="node2"),
            pod(C3000_5000, on="node2"),
        ],
        [30, 42],
        id="no resources requested, pods scheduled with resources",
    ),
    pytest.param(
        DEFAULT,
        pod(C1000, C2000),
        [N10_1, N10_2],
        [pod(C3000_0, on="node1"), pod(C3000_5000, on="node2")],
        [42, 55],
        id="resources requested, pods scheduled with resources",
    ),
    pytest.param(
        DEFAULT,
        pod({"cpu": "2000", "memory": "4000"}, {"cpu": "3000", "memory": "5000"}),
        [
            node("node1", {"cpu": "5000", "memory": "10000"}),
            node("node2", {"cpu": "10000", "memory": "9000"}),
        ],
        [],
        [95, 75],
        id="resources requested equal node capacity",
    ),
    pytest.param(
        MEMORY_HEAVY,
        pod(C1000, C2000),
        [N4, N6],
        [],
        [58, 50],
        id="nothing scheduled, resources requested, differently sized nodes, weighted",
    ),
    pytest.param(
        DEFAULT,
        make_pod("p").container("nginx").obj(),
        [
            node("node1", {"cpu": "250m", "memory": "1000Mi"}),
            node("node2", {"cpu": "250m", "memory": "1000Mi"}),
        ],
        [
            make_pod("e1").node("node1").container("nginx").obj(),
            make_pod("e2").node("node1").container("nginx").obj(),
        ],
        [80, 30],
        id="no resources requested, pods scheduled, nonzero request for resource",
    ),
    pytest.param(
        WITH_EXT,
        pod(C1000, C2000),
        [E6_1, E6_2],
        [],
        [50, 50],
        id="bypass extended resource if the pod does not request",
    ),
    pytest.param(
        WITH_EXT,
        pod({"cpu": "3000", "memory": "5000", EXT: "2"}, on="node1"),
        [
            node("node1", {"cpu": "6000", "memory": "10000", EXT: "4"}),
            node("node2", {"cpu": "6000", "memory": "10000", EXT: "10"}),
        ],
        [],
        [50, 40],
        id="honor extended resource if the pod request",
    ),
    pytest.param(
        EXT_FIRST,
        pod({"cpu": "3000", "memory": "4000"}, on="node1"),
        [E6_1, E6_2],
        [],
        [45, 45],
        id="if the node doesn't have a resource",
    ),
]


@pytest.mark.parametrize(
    ("resources", "incoming", "nodes", "existing", "want"), MOST_ALLOCATED_CASES
)
def test_most_allocated(run_scores, resources, incoming, nodes, existing, want) -> None:
    got = run_scores(fit_args(MOST_ALLOCATED, resources), incoming, nodes, existing)
    assert [score for _, score in got] == want


@pytest.mark.parametrize(
    ("incoming", "nodes", "existing", "want"),
    [
        pytest.param(
            pod(),
            [N4, N4_2],
            [pod(on="node1"), pod(on="node1")],
            [100, 100],
            id="nothing scheduled, nothing requested (default - least requested nodes have "
            "priority)",
        ),
        pytest.param(
            pod(C1000, C2000),
            [N4, N6],
            [pod(on="node1"), pod(on="node1")],
            [38, 50],
            id="nothing scheduled, resources requested, differently sized nodes (default - "
            "least requested nodes have priority)",
        ),
        pytest.param(
            pod(),
            [N4, N6],
            [pod(C3000_5000, on="node1"), pod(C3000_5000, on="node2")],
            [38, 50],
            id="no resources requested, pods scheduled with resources (default - least "
            "requested nodes have priority)",
        ),
    ],
)
def test_requested_to_capacity_ratio(run_scores, incoming, nodes, existing, want) -> None:
    args = fit_args(REQUESTED_TO_CAPACITY_RATIO, DEFAULT, LEAST_TO_MOST)
    assert [score for _, score in run_scores(args, incoming, nodes, existing)] == want


@pytest.mark.parametrize(
    ("points", "assertions"),
    [
        pytest.param(
            [(10, 1), (90, 9)],
            [
                *[(-10, 1), (0, 1), (9, 1), (10, 1), (15, 1), (19, 1), (20, 2), (89, 8)],
                *[(90, 9), (99, 9), (100, 9), (110, 9)],
            ],
            id="case_0",
        ),
        pytest.param(
            [(0, 2), (40, 10), (100, 0)],
            [(-10, 2), (0, 2), (20, 6), (30, 8), (40, 10), (70, 5), (100, 0), (110, 0)],
            id="case_1",
        ),
        pytest.param(
            [(0, 2), (40, 2), (100, 2)],
            [(-10, 2), (0, 2), (20, 2), (30, 2), (40, 2), (70, 2), (100, 2), (110, 2)],
            id="case_2",
        ),
    ],
)
def test_broken_linear_function(points, assertions) -> None:
    f = broken_linear(points)
    assert [(p, f(p)) for p, _ in assertions] == assertions


def test_broken_linear_truncates_toward_zero_on_falling_segments() -> None:
    # 10 + (0 - 10) * 33 / 100: Go truncates -3.3 to -3 (7); floor division would give 6.
    assert broken_linear([(0, 10), (100, 0)])(33) == 7


FOO, BAR = "intel.com/foo", "intel.com/bar"
MIB = 1024 * 1024


def bin_node(name: str, extended: Mapping[str, int]) -> Node:
    """upstream's makeNode: 4000 millicores, 10000Mi, and extended resources."""
    return node(name, {"cpu": "4000m", "memory": 10000 * MIB, **extended})


@pytest.mark.parametrize(
    ("incoming", "existing", "want"),
    [
        pytest.param(pod(), [], [0, 0], id="nothing scheduled, nothing requested"),
        pytest.param(
            pod({FOO: "2"}),
            [pod()],
            [2, 5],
            id="resources requested, pods scheduled with less resources",
        ),
        pytest.param(
            pod({FOO: "2"}),
            [pod({FOO: "2"}, on="node2")],
            [2, 10],
            id="resources requested, pods scheduled with resources, on node with existing pod "
            "running",
        ),
        pytest.param(
            pod({FOO: "4"}),
            [pod()],
            [5, 10],
            id="resources requested, pods scheduled with more resources",
        ),
    ],
)
def test_resource_bin_packing_single_extended(run_scores, incoming, existing, want) -> None:
    nodes = [bin_node("node1", {FOO: 8}), bin_node("node2", {FOO: 4})]
    args = fit_args(REQUESTED_TO_CAPACITY_RATIO, [ResourceSpec(FOO, 1)], shape((0, 0), (100, 1)))
    assert [score for _, score in run_scores(args, incoming, nodes, existing)] == want


@pytest.mark.parametrize(
    ("incoming", "existing", "want"),
    [
        pytest.param(pod(), [], [0, 0], id="nothing scheduled, nothing requested"),
        pytest.param(
            pod({FOO: "2", BAR: "2"}),
            [pod()],
            [4, 3],
            id="resources requested, pods scheduled with less resources",
        ),
        pytest.param(
            pod({FOO: "2", BAR: "2"}),
            [pod({FOO: "4", BAR: "2"}, on="node2")],
            [4, 7],
            id="resources requested, pods scheduled with resources, on node with existing pod "
            "running",
        ),
        pytest.param(
            pod({FOO: "4", BAR: "2"}),
            [pod()],
            [5, 5],
            id="resources requested, pods scheduled with more resources",
        ),
    ],
)
def test_resource_bin_packing_multiple_extended(run_scores, incoming, existing, want) -> None:
    nodes = [bin_node("node1", {FOO: 8, BAR: 4}), bin_node("node2", {FOO: 4, BAR: 8})]
    resources = [ResourceSpec(FOO, 3), ResourceSpec(BAR, 5)]
    args = fit_args(REQUESTED_TO_CAPACITY_RATIO, resources, shape((0, 0), (100, 1)))
    assert [score for _, score in run_scores(args, incoming, nodes, existing)] == want


def test_requested_to_capacity_ratio_rounds_half_away_from_zero(run_scores) -> None:
    # cpu at 50% scores 50, memory at 100% scores 100; weights 1 and 3 give
    # (50 + 300) / 4 = 87.5, which math.Round makes 88 (floor division would give 87).
    resources = [ResourceSpec("cpu", 1), ResourceSpec("memory", 3)]
    args = fit_args(REQUESTED_TO_CAPACITY_RATIO, resources, MOST_TO_LEAST)
    incoming = pod({"cpu": "2", "memory": "10000"})
    got = run_scores(args, incoming, [node("node1", {"cpu": "4", "memory": "10000"})], [])
    assert got == [("node1", 88)]
