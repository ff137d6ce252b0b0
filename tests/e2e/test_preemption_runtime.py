"""DefaultPreemption's PostFilter through the real Framework: NodeResourcesFit at
PreFilter and Filter, the in-memory cluster as client, a scheduler Snapshot. Upstream's
TestPostFilter and TestPreempt tables, re-expressed."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timezone
from typing import Any

import pytest
from attrs import evolve

from kubesched import hookimpl
from kubesched.api import (
    LabelSelector,
    Node,
    ObjectMeta,
    Pod,
    PodDisruptionBudget,
    PodDisruptionBudgetSpec,
    PodDisruptionBudgetStatus,
)
from kubesched.cluster.memory import InMemoryCluster
from kubesched.cluster.recorder import MemoryEventRecorder
from kubesched.framework import Code, CycleState, NodeInfo, PodInfo, PostFilterResult, Status
from kubesched.framework._profile import EffectiveProfile
from kubesched.framework._registry import Registry
from kubesched.framework._runtime import Framework
from kubesched.scheduler.nominator import Nominator
from kubesched.scheduler.snapshot import Snapshot
from kubesched.testing import PodBuilder, make_node, make_pod
from kubesched_defaultpreemption import DefaultPreemption
from kubesched_defaultpreemption.executor import disruption_condition

LOW, MID, HIGH, VERY_HIGH = 0, 100, 1000, 10000
SMALL = {"cpu": "100m", "memory": "100"}
MEDIUM = {"cpu": "200m", "memory": "200"}
LARGE = {"cpu": "300m", "memory": "300"}
VERY_LARGE = {"cpu": "500m", "memory": "500"}
ONE_POD = {"pods": 1}
NODE_RES = {"cpu": "200m", "memory": "400"}
VIOLATING_KEY = "test.kubernetes.io/is-violating-pdb"
DEFAULT = "default"
U = Status(Code.UNSCHEDULABLE)
UU = Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE)


class ErrorOnLabel:
    """Upstream's TestPlugin: its AddPod/RemovePod fail on nodes labelled error=true."""

    name = "test-plugin"

    def __init__(self, args: Any, handle: Any) -> None:
        pass

    @hookimpl
    def pre_filter(self) -> None:
        return None

    @hookimpl
    def pre_filter_add_pod(self, pod_to_schedule: Pod, node_info: NodeInfo) -> Status | None:
        return self._check(node_info, f"failed to add pod: {pod_to_schedule.metadata.name}")

    @hookimpl
    def pre_filter_remove_pod(self, pod_to_schedule: Pod, node_info: NodeInfo) -> Status | None:
        return self._check(node_info, f"failed to remove pod: {pod_to_schedule.metadata.name}")

    @staticmethod
    def _check(node_info: NodeInfo, message: str) -> Status | None:
        assert node_info.node is not None
        if node_info.node.metadata.labels.get("error") == "true":
            return Status.error(message)
        return None


REGISTRY = Registry.discover()
REGISTRY.register(ErrorOnLabel.name, ErrorOnLabel)

PROFILE = EffectiveProfile(
    "default-scheduler",
    plugins={
        "queueSort": ("PrioritySort",),
        "preFilter": ("NodeResourcesFit", "test-plugin"),
        "filter": ("NodeResourcesFit",),
        "postFilter": ("DefaultPreemption",),
        "bind": ("DefaultBinder",),
    },
)


def framework(
    nodes: Sequence[Node], pods: Sequence[Pod], pdbs: Sequence[PodDisruptionBudget] = ()
) -> tuple[Framework, InMemoryCluster]:
    cluster = InMemoryCluster(nodes=nodes, pods=pods, pod_disruption_budgets=pdbs)
    infos = [
        NodeInfo(n, [PodInfo(p) for p in cluster.pods() if p.spec.node_name == n.name])
        for n in nodes
    ]
    fw = Framework(
        PROFILE,
        REGISTRY,
        client=cluster,
        snapshot=Snapshot(infos),
        nominator=Nominator(),
        event_recorder=MemoryEventRecorder(),
    )
    return fw, cluster


def post_filter(
    fw: Framework, preemptor: Pod, statuses: dict[str, Status]
) -> tuple[PostFilterResult | None, Status]:
    state = CycleState()
    _, status, _ = fw.run_pre_filter_plugins(
        state, preemptor, fw.snapshot_shared_lister().node_infos()
    )
    assert status is None or status.is_success()
    return fw.run_post_filter_plugins(state, preemptor, statuses)


def pod(name: str, priority: int | None = None, node: str = "", **labels: str) -> Pod:
    builder = make_pod(name).uid(name).namespace(DEFAULT).labels(labels)
    if priority is not None:
        builder = builder.priority(priority)
    return (builder.node(node) if node else builder).obj()


def big_pod(name: str, priority: int) -> Pod:
    return make_pod(name).uid(name).namespace(DEFAULT).priority(priority).req(LARGE).obj()


def node(name: str, capacity: dict[str, Any], **labels: str) -> Node:
    return make_node(name).capacity(capacity).labels(labels).obj()


def pdb(name: str, value: str, allowed: int) -> PodDisruptionBudget:
    return PodDisruptionBudget(
        metadata=ObjectMeta(name=name, namespace=DEFAULT),
        spec=PodDisruptionBudgetSpec(selector=LabelSelector(match_labels={VIOLATING_KEY: value})),
        status=PodDisruptionBudgetStatus(disruptions_allowed=allowed),
    )


def failed(message: str, code: Code = Code.UNSCHEDULABLE) -> tuple[None, Code, str]:
    return None, code, message


# upstream: TestPostFilter (the pod-group cases need scheduling groups and the extender
# case needs extenders, which kubesched does not model)
POST_FILTER_CASES = [
    pytest.param(
        pod("p", HIGH), [pod("p1", node="node1")], [node("node1", ONE_POD)], {"node1": U}, [],
        (PostFilterResult("node1", ("default/p1",)), Code.SUCCESS, ""),
        id="pod with higher priority can be made schedulable",
    ),
    pytest.param(
        pod("p"), [pod("p1", node="node1")], [node("node1", ONE_POD)], {"node1": U}, [],
        failed("preemption: 0/1 nodes are available: "
               "1 No preemption victims found for incoming pod."),
        id="pod with tied priority is still unschedulable",
    ),
    pytest.param(
        pod("p", HIGH), [pod("p1", node="node1")], [node("node1", ONE_POD)], {"node1": UU}, [],
        failed("preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling."),
        id="preemption should respect filteredNodesStatuses",
    ),
    pytest.param(
        pod("p", HIGH), [pod("p1", node="node1")], [node("node1", ONE_POD)], {}, [],
        failed("preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling."),
        id="an absent node status means UnschedulableAndUnresolvable",
    ),
    pytest.param(
        pod("p", MID), [pod("p1", HIGH, "node1"), pod("p2", LOW, "node2")],
        [node("node1", ONE_POD), node("node2", ONE_POD)], {"node1": U, "node2": U}, [],
        (PostFilterResult("node2", ("default/p2",)), Code.SUCCESS, ""),
        id="pod can be made schedulable on one node",
    ),
    pytest.param(
        pod("p", VERY_HIGH),
        [pod("p1", HIGH, "node1", **{VIOLATING_KEY: "non-violating"}),
         pod("p2", LOW, "node1", **{VIOLATING_KEY: "violating"}),
         pod("p3", MID, "node2", **{VIOLATING_KEY: "violating"})],
        [node("node1", ONE_POD), node("node2", ONE_POD)], {"node1": U, "node2": U},
        [pdb("violating-pdb", "violating", 0),
         pdb("non-violating-pdb", "non-violating", 2**31 - 1)],
        (PostFilterResult("node2", ("default/p3",)), Code.SUCCESS, ""),
        id="pod can be made schedulable on minHighestPriority node",
    ),
    pytest.param(
        big_pod("p", HIGH), [pod("p1", node="node1"), pod("p2", node="node2")],
        [node("node1", NODE_RES), node("node2", NODE_RES)], {"node1": U, "node2": U}, [],
        failed("preemption: 0/2 nodes are available: 2 Insufficient cpu."),
        id="no candidate nodes found, no enough resource after removing low priority pods",
    ),
    pytest.param(
        big_pod("p", HIGH),
        [pod("p1", HIGH, "node1"), pod("p2", node="node2"), pod("p3", HIGH, "node3")],
        [node("node1", ONE_POD), node("node2", NODE_RES), node("node3", ONE_POD)],
        {"node1": U, "node2": U, "node3": U}, [],
        failed("preemption: 0/3 nodes are available: 1 Insufficient cpu, "
               "2 No preemption victims found for incoming pod."),
        id="no candidate nodes found with mixed reasons",
    ),
    pytest.param(
        big_pod("p", HIGH), [pod("p1", node="node1"), pod("p2", node="node2")],
        [node(f"node{i}", NODE_RES) for i in range(1, 5)],
        {"node1": U, "node2": U, "node4": UU}, [],
        failed("preemption: 0/4 nodes are available: 2 Insufficient cpu, "
               "2 Preemption is not helpful for scheduling."),
        id="no candidate nodes found, 2 UnschedulableAndUnresolvable and 2 short of cpu",
    ),
    pytest.param(
        big_pod("p", HIGH), [pod("p1", node="node1")], [node("node1", LARGE, error="true")],
        {"node1": U}, [],
        failed('preemption: running RemovePod on PreFilter plugin "test-plugin": '
               "failed to remove pod: p", Code.ERROR),
        id="only one node but failed with TestPlugin",
    ),
    pytest.param(
        big_pod("p", HIGH),
        [pod("p1", node="node1"),
         make_pod("p2").uid("p2").namespace(DEFAULT).node("node2").req(MEDIUM).obj()],
        [node("node1", LARGE, error="true"), node("node2", LARGE)], {"node1": U, "node2": U}, [],
        (PostFilterResult("node2", ("default/p2",)), Code.SUCCESS, ""),
        id="one failed with TestPlugin and the other pass",
    ),
]  # fmt: skip


@pytest.mark.parametrize(
    ("preemptor", "pods", "nodes", "statuses", "pdbs", "expected"), POST_FILTER_CASES
)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_post_filter(
    preemptor: Pod,
    pods: list[Pod],
    nodes: list[Node],
    statuses: dict[str, Status],
    pdbs: list[PodDisruptionBudget],
    expected: tuple[PostFilterResult | None, Code, str],
    seed: int,
) -> None:
    fw, cluster = framework(nodes, pods, pdbs)
    plugin = fw.plugins["DefaultPreemption"]
    assert isinstance(plugin, DefaultPreemption)
    plugin.rng.seed(seed)  # where the dry run starts must not matter
    result, status = post_filter(fw, preemptor, statuses)
    assert (result, status.code, status.message) == expected
    deleted = {p.metadata.name for p in pods} - {p.metadata.name for p in cluster.pods()}
    assert sorted(deleted) == sorted(k.split("/")[1] for k in (result.victims if result else ()))


# upstream: TestPreempt (the extender and topology-spread cases need extenders and
# PodTopologySpread, which kubesched does not have)
PREEMPT_PODS = [
    make_pod("p1.1").uid("p1.1").namespace(DEFAULT).node("node1").priority(LOW).req(SMALL).obj(),
    make_pod("p1.2").uid("p1.2").namespace(DEFAULT).node("node1").priority(LOW).req(SMALL).obj(),
    make_pod("p2.1").uid("p2.1").namespace(DEFAULT).node("node2").priority(HIGH).req(LARGE).obj(),
    make_pod("p3.1").uid("p3.1").namespace(DEFAULT).node("node3").priority(MID).req(MEDIUM).obj(),
]


def preemptor() -> PodBuilder:
    return make_pod("p").uid("p").namespace(DEFAULT).priority(HIGH).req(VERY_LARGE)


PREEMPT_NODES = [make_node(f"node{i}").capacity(VERY_LARGE).obj() for i in (1, 2, 3)]
ALL_UNSCHEDULABLE = {n.name: U for n in PREEMPT_NODES}
TERMINATING = datetime(2024, 1, 1, tzinfo=timezone.utc)


@pytest.mark.parametrize(
    ("pending", "expected_node", "expected_victims"),
    [
        pytest.param(
            preemptor().preemption_policy("PreemptLowerPriority").obj(), "node1", ["p1.1", "p1.2"],
            id="basic preemption logic",
        ),
        pytest.param(
            preemptor().obj(), "node1", ["p1.1", "p1.2"],
            id="PreemptionPolicy is nil",
        ),
        pytest.param(
            preemptor().preemption_policy("Never").obj(), None, [],
            id="no preempting in pod",
        ),
    ],
)  # fmt: skip
def test_preempt(pending: Pod, expected_node: str | None, expected_victims: list[str]) -> None:
    fw, cluster = framework(PREEMPT_NODES, PREEMPT_PODS)
    result, status = post_filter(fw, pending, ALL_UNSCHEDULABLE)
    if expected_node is None:
        assert result is None
        assert status.message == "preemption: not eligible due to preemptionPolicy=Never."
    else:
        assert result == PostFilterResult(
            expected_node, tuple(f"default/{v}" for v in expected_victims)
        )
    left = {p.metadata.name for p in cluster.pods()}
    assert sorted({p.metadata.name for p in PREEMPT_PODS} - left) == expected_victims


def terminating(victim: Pod, *, preempted: bool) -> Pod:
    """The victim as the cluster shows it while it is being deleted."""
    status = victim.status
    if preempted:
        status = evolve(status, conditions=[disruption_condition(preemptor().obj())])
    meta = evolve(victim.metadata, deletion_timestamp=TERMINATING)
    return evolve(victim, metadata=meta, status=status)


@pytest.mark.parametrize("preempted", [True, False], ids=["with condition", "without condition"])
def test_preempting_again_evicts_nothing_more(preempted: bool) -> None:
    """Once the victims are terminating, preempting again for the same pod, now nominated
    to node1, deletes nothing more (upstream: TestPreempt's second Preempt call)."""
    pods = [
        terminating(p, preempted=preempted) if p.metadata.name.startswith("p1.") else p
        for p in PREEMPT_PODS
    ]
    fw, cluster = framework(PREEMPT_NODES, pods)
    result, status = post_filter(
        fw, preemptor().nominated_node_name("node1").obj(), ALL_UNSCHEDULABLE
    )
    if preempted:
        assert result is None
        assert status.message == (
            "preemption: not eligible due to a terminating pod on the nominated node."
        )
    else:  # node1 again, its victims already terminating: none is a new victim
        assert result == PostFilterResult("node1", ())
    assert len(cluster.pods()) == len(PREEMPT_PODS)
