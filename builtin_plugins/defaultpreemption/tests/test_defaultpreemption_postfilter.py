"""PostFilter end to end over a fake Handle: upstream's TestPostFilter table,
TestPodEligibleToPreemptOthers and TestPreempt, re-expressed."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest
from attrs import evolve
from defaultpreemption_testlib import (
    HIGH,
    LARGE,
    LOW,
    MEDIUM,
    MID,
    SMALL,
    VERY_HIGH,
    VERY_LARGE,
    ErrorOnLabelExtensions,
    FitFilter,
    make_pdb,
    make_plugin,
)

from kubesched.api import Node, Pod
from kubesched.framework import Code, CycleState, PostFilterResult, Status
from kubesched.testing import make_node, make_pod
from kubesched_defaultpreemption.executor import disruption_condition

U = Status(Code.UNSCHEDULABLE)
UU = Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE)
ONE_POD = {"pods": 1}
NODE_RES = {"cpu": "200m", "memory": "400"}
VIOLATING_KEY = "test.kubernetes.io/is-violating-pdb"
DEFAULT = "default"


def pod(name: str, priority: int | None = None, node: str = "", **labels: str) -> Pod:
    builder = make_pod(name).uid(name).namespace(DEFAULT).labels(labels)
    if priority is not None:
        builder = builder.priority(priority)
    return (builder.node(node) if node else builder).obj()


def node(name: str, capacity: dict[str, str | int], **labels: str) -> Node:
    return make_node(name).capacity(capacity).labels(labels).obj()


def big_pod(name: str, priority: int) -> Pod:
    return make_pod(name).uid(name).namespace(DEFAULT).priority(priority).req(LARGE).obj()


# upstream: TestPostFilter (the pod-group cases need scheduling groups, which kubesched
# does not model; the extender case needs extenders, which it does not have).
POST_FILTER_CASES = [
    pytest.param(
        pod("p", HIGH),
        [pod("p1", node="node1")],
        [node("node1", ONE_POD)],
        {"node1": U},
        [],
        PostFilterResult("node1", ("default/p1",)),
        id="pod with higher priority can be made schedulable",
    ),
    pytest.param(
        pod("p"),
        [pod("p1", node="node1")],
        [node("node1", ONE_POD)],
        {"node1": U},
        [],
        Status(
            Code.UNSCHEDULABLE,
            "preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.",
        ),
        id="pod with tied priority is still unschedulable",
    ),
    pytest.param(
        pod("p", HIGH),
        [pod("p1", node="node1")],
        [node("node1", ONE_POD)],
        {"node1": UU},
        [],
        Status(
            Code.UNSCHEDULABLE,
            "preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.",
        ),
        id="preemption should respect filteredNodesStatuses",
    ),
    pytest.param(
        pod("p", HIGH),
        [pod("p1", node="node1")],
        [node("node1", ONE_POD)],
        {},
        [],
        Status(
            Code.UNSCHEDULABLE,
            "preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.",
        ),
        id="an absent node status means UnschedulableAndUnresolvable",
    ),
    pytest.param(
        pod("p", MID),
        [pod("p1", HIGH, "node1"), pod("p2", LOW, "node2")],
        [node("node1", ONE_POD), node("node2", ONE_POD)],
        {"node1": U, "node2": U},
        [],
        PostFilterResult("node2", ("default/p2",)),
        id="pod can be made schedulable on one node",
    ),
    pytest.param(
        pod("p", VERY_HIGH),
        [
            pod("p1", HIGH, "node1", **{VIOLATING_KEY: "non-violating"}),
            pod("p2", LOW, "node1", **{VIOLATING_KEY: "violating"}),
            pod("p3", MID, "node2", **{VIOLATING_KEY: "violating"}),
        ],
        [node("node1", ONE_POD), node("node2", ONE_POD)],
        {"node1": U, "node2": U},
        [
            make_pdb(
                "violating-pdb",
                DEFAULT,
                match_labels={VIOLATING_KEY: "violating"},
                min_available="100%",
            ),
            make_pdb(
                "non-violating-pdb",
                DEFAULT,
                match_labels={VIOLATING_KEY: "non-violating"},
                min_available=0,
                disruptions_allowed=2**31 - 1,
            ),
        ],
        PostFilterResult("node2", ("default/p3",)),
        id="pod can be made schedulable on minHighestPriority node",
    ),
    pytest.param(
        big_pod("p", HIGH),
        [pod("p1", node="node1"), pod("p2", node="node2")],
        [node("node1", NODE_RES), node("node2", NODE_RES)],
        {"node1": U, "node2": U},
        [],
        Status(Code.UNSCHEDULABLE, "preemption: 0/2 nodes are available: 2 Insufficient cpu."),
        id="no candidate nodes found, no enough resource after removing low priority pods",
    ),
    pytest.param(
        big_pod("p", HIGH),
        [pod("p1", HIGH, "node1"), pod("p2", node="node2"), pod("p3", HIGH, "node3")],
        [node("node1", ONE_POD), node("node2", NODE_RES), node("node3", ONE_POD)],
        {"node1": U, "node2": U, "node3": U},
        [],
        Status(
            Code.UNSCHEDULABLE,
            "preemption: 0/3 nodes are available: 1 Insufficient cpu, "
            "2 No preemption victims found for incoming pod.",
        ),
        id="no candidate nodes found with mixed reasons",
    ),
    pytest.param(
        big_pod("p", HIGH),
        [pod("p1", node="node1"), pod("p2", node="node2")],
        [node(f"node{i}", NODE_RES) for i in range(1, 5)],
        {"node1": U, "node2": U, "node4": UU},
        [],
        Status(
            Code.UNSCHEDULABLE,
            "preemption: 0/4 nodes are available: 2 Insufficient cpu, "
            "2 Preemption is not helpful for scheduling.",
        ),
        id="no candidate nodes found, 2 UnschedulableAndUnresolvable and 2 short of cpu",
    ),
    pytest.param(
        big_pod("p", HIGH),
        [pod("p1", node="node1")],
        [node("node1", LARGE, error="true")],
        {"node1": U},
        [],
        Status(
            Code.ERROR,
            'preemption: running RemovePod on PreFilter plugin "test-plugin": '
            "failed to remove pod: p",
        ),
        id="only one node but failed with TestPlugin",
    ),
    pytest.param(
        big_pod("p", HIGH),
        [
            pod("p1", node="node1"),
            make_pod("p2").uid("p2").namespace(DEFAULT).node("node2").req(MEDIUM).obj(),
        ],
        [node("node1", LARGE, error="true"), node("node2", LARGE)],
        {"node1": U, "node2": U},
        [],
        PostFilterResult("node2", ("default/p2",)),
        id="one failed with TestPlugin and the other pass",
    ),
]


@pytest.mark.parametrize(
    ("preemptor", "pods", "nodes", "statuses", "pdbs", "expected"), POST_FILTER_CASES
)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_post_filter(
    preemptor: Pod,
    pods: list[Pod],
    nodes: list[Node],
    statuses: dict[str, Status],
    pdbs: list[object],
    expected: PostFilterResult | Status,
    seed: int,
) -> None:
    plugin, handle = make_plugin(
        nodes, pods, filters=[FitFilter()], extensions=[ErrorOnLabelExtensions()], pdbs=pdbs
    )
    plugin.rng.seed(seed)  # where the dry run starts must not change the outcome
    got = plugin.post_filter(CycleState(), preemptor, statuses)
    assert got == expected
    if isinstance(expected, PostFilterResult):
        assert handle.client.deleted == [key.split("/")[1] for key in expected.victims]
    else:
        assert handle.client.deleted == []


def test_post_filter_error_keeps_error_code() -> None:
    plugin, _ = make_plugin(
        [node("node1", LARGE, error="true")],
        [pod("p1", node="node1")],
        extensions=[ErrorOnLabelExtensions()],
    )
    got = plugin.post_filter(CycleState(), big_pod("p", HIGH), {"node1": U})
    assert isinstance(got, Status)
    assert got.code == Code.ERROR


def test_no_nodes_at_all_is_an_error() -> None:
    plugin, _ = make_plugin([])
    got = plugin.post_filter(CycleState(), pod("p", HIGH), {})
    assert got == Status(Code.ERROR, "preemption: no nodes available")


# upstream: TestPodEligibleToPreemptOthers
TERMINATING = datetime(2024, 1, 1, tzinfo=timezone.utc)


def victim_on_node1(*, preempted: bool) -> Pod:
    builder = make_pod("p1").uid("p1").priority(LOW).node("node1").deletion_timestamp(TERMINATING)
    if preempted:
        builder = builder.condition("DisruptionTarget", "True", "PreemptionByScheduler")
    return builder.obj()


NOMINATED = make_pod("p_with_nominated_node").uid("p").priority(HIGH).nominated_node_name("node1")


@pytest.mark.parametrize(
    ("preemptor", "pods", "nominated_status", "expected"),
    [
        pytest.param(
            NOMINATED.obj(),
            [victim_on_node1(preempted=False)],
            Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, "node(s) had untolerated taint(s)"),
            (True, ""),
            id="Pod with nominated node",
        ),
        pytest.param(
            make_pod("p_without_nominated_node").uid("p").priority(HIGH).obj(),
            [],
            UU,
            (True, ""),
            id="Pod without nominated node",
        ),
        pytest.param(
            make_pod("p_with_preempt_never_policy")
            .uid("p")
            .priority(HIGH)
            .preemption_policy("Never")
            .obj(),
            [],
            UU,
            (False, "not eligible due to preemptionPolicy=Never."),
            id="Pod with 'PreemptNever' preemption policy",
        ),
        pytest.param(
            NOMINATED.obj(),
            [victim_on_node1(preempted=True)],
            U,
            (False, "not eligible due to a terminating pod on the nominated node."),
            id="preemption victim pod terminating, as the DisruptionTarget condition shows",
        ),
        pytest.param(
            NOMINATED.obj(),
            [victim_on_node1(preempted=False)],
            U,
            (True, ""),
            id="non-victim Pods terminating",
        ),
    ],
)
def test_pod_eligible_to_preempt_others(
    preemptor: Pod, pods: list[Pod], nominated_status: Status, expected: tuple[bool, str]
) -> None:
    plugin, _ = make_plugin([make_node("node1").obj()], pods)
    assert plugin.pod_eligible_to_preempt_others(preemptor, nominated_status) == expected


def test_ineligible_pod_gets_prefixed_reason_and_nothing_is_evicted() -> None:
    victims = [
        make_pod("p1.1").uid("p1.1").node("node1").priority(LOW).req(SMALL).obj(),
        make_pod("p1.2").uid("p1.2").node("node1").priority(LOW).req(SMALL).obj(),
    ]
    plugin, handle = make_plugin([make_node("node1").capacity(VERY_LARGE).obj()], victims)
    preemptor = (
        make_pod("p").uid("p").priority(HIGH).req(VERY_LARGE).preemption_policy("Never").obj()
    )
    got = plugin.post_filter(CycleState(), preemptor, {"node1": U})
    assert got == Status(
        Code.UNSCHEDULABLE, "preemption: not eligible due to preemptionPolicy=Never."
    )
    assert handle.client.deleted == []
    assert handle.client.patched == []


# upstream: TestPreempt (the extender and topology-spread cases need extenders and
# PodTopologySpread, which kubesched does not have).
PREEMPT_PODS = [
    make_pod("p1.1").uid("p1.1").namespace(DEFAULT).node("node1").priority(LOW).req(SMALL).obj(),
    make_pod("p1.2").uid("p1.2").namespace(DEFAULT).node("node1").priority(LOW).req(SMALL).obj(),
    make_pod("p2.1").uid("p2.1").namespace(DEFAULT).node("node2").priority(HIGH).req(LARGE).obj(),
    make_pod("p3.1").uid("p3.1").namespace(DEFAULT).node("node3").priority(MID).req(MEDIUM).obj(),
]
PREEMPTOR = make_pod("p").uid("p").namespace(DEFAULT).priority(HIGH).req(VERY_LARGE)
PREEMPT_NODES = [make_node(f"node{i}").capacity(VERY_LARGE).obj() for i in (1, 2, 3)]


@pytest.mark.parametrize(
    ("preemptor", "expected_node", "expected_victims"),
    [
        pytest.param(
            PREEMPTOR.preemption_policy("PreemptLowerPriority").obj(),
            "node1",
            ["p1.1", "p1.2"],
            id="basic preemption logic",
        ),
        pytest.param(
            make_pod("p").uid("p").namespace(DEFAULT).priority(HIGH).req(VERY_LARGE).obj(),
            "node1",
            ["p1.1", "p1.2"],
            id="PreemptionPolicy is nil",
        ),
        pytest.param(
            make_pod("p")
            .uid("p")
            .namespace(DEFAULT)
            .priority(HIGH)
            .req(VERY_LARGE)
            .preemption_policy("Never")
            .obj(),
            None,
            [],
            id="no preempting in pod",
        ),
    ],
)
def test_preempt(preemptor: Pod, expected_node: str | None, expected_victims: list[str]) -> None:
    plugin, handle = make_plugin(PREEMPT_NODES, PREEMPT_PODS)
    statuses = {n.metadata.name: U for n in PREEMPT_NODES}
    got = plugin.preempt(CycleState(), preemptor, statuses)
    if expected_node is None:
        assert isinstance(got, Status)
        assert got.code == Code.UNSCHEDULABLE
    else:
        assert got == PostFilterResult(
            expected_node, tuple(f"default/{v}" for v in expected_victims)
        )
    assert sorted(handle.client.deleted) == expected_victims
    # every deleted victim was first marked as a disruption target
    condition = disruption_condition(preemptor)
    assert [(name, c) for name, c, _ in handle.client.patched] == [
        (v, condition) for v in handle.client.deleted
    ]
    assert condition.message == "default-scheduler: preempting to accommodate a higher priority pod"


def _terminating(victim: Pod, *, preempted: bool) -> Pod:
    """The victim as the cluster shows it while it is being deleted."""
    status = victim.status
    if preempted:
        status = evolve(status, conditions=[disruption_condition(PREEMPTOR.obj())])
    return evolve(
        victim,
        metadata=evolve(victim.metadata, deletion_timestamp=TERMINATING),
        status=status,
    )


@pytest.mark.parametrize("preempted", [True, False], ids=["with condition", "without condition"])
def test_preempting_again_evicts_nothing_more(preempted: bool) -> None:
    """Once the victims are terminating, preempting again for the same pod, now nominated
    to node1, deletes nothing more (upstream: the second Preempt call of TestPreempt)."""
    pods = [
        _terminating(p, preempted=preempted) if p.metadata.name.startswith("p1.") else p
        for p in PREEMPT_PODS
    ]
    plugin, handle = make_plugin(PREEMPT_NODES, pods)
    preemptor = PREEMPTOR.nominated_node_name("node1").obj()
    got = plugin.preempt(CycleState(), preemptor, {n.metadata.name: U for n in PREEMPT_NODES})
    if preempted:
        assert got == Status(
            Code.UNSCHEDULABLE, "not eligible due to a terminating pod on the nominated node."
        )
    else:
        assert got == PostFilterResult("node1", ("default/p1.1", "default/p1.2"))
    assert handle.client.deleted == []
    assert handle.client.patched == []


def test_no_candidates_clears_the_pods_own_nomination() -> None:
    plugin, handle = make_plugin([node("node1", ONE_POD)], [pod("p1", HIGH, "node1")])
    preemptor = make_pod("p").uid("p").priority(HIGH).nominated_node_name("node1").obj()
    got = plugin.post_filter(CycleState(), preemptor, {"node1": U})
    assert isinstance(got, Status)
    assert got.code == Code.UNSCHEDULABLE
    assert handle.client.patched == [("p", None, "")]
