"""Registration, cluster events and queueing hints: upstream's TestEventsToRegister,
Test_isSchedulableAfterPodChange, Test_isSchedulableAfterNodeChange, TestIsFit and
TestHaveAnyRequestedResourcesIncreased, for the cases that apply.

The features these depend on are fixed at upstream's defaults: queueing hints
and in-place pod vertical scaling on, DRA extended resources and pod-level
resources off (so their cases do not apply).
"""

from __future__ import annotations

from collections.abc import Mapping

import pytest
from attrs import evolve

from kubesched.api import Node, Pod
from kubesched.framework import (
    ActionType,
    ClusterEvent,
    EventResource,
    QueueingHint,
    Registry,
    points_of,
)
from kubesched.testing import Amount, make_node, make_pod
from kubesched_noderesourcesfit import NodeResourcesFit
from kubesched_noderesourcesfit.hints import (
    after_node_change,
    after_pod_event,
    have_any_requested_resources_increased,
    is_fit,
)

EXT_A, EXT_B = "example.com/aaa", "example.com/bbb"
QUEUE, SKIP = QueueingHint.QUEUE, QueueingHint.QUEUE_SKIP


def test_entry_point_loads_the_plugin() -> None:
    registry = Registry.discover()
    assert registry.get("NodeResourcesFit").distribution == "kubesched-noderesourcesfit"
    assert registry.load("NodeResourcesFit") is NodeResourcesFit
    assert points_of(NodeResourcesFit) == ["preFilter", "filter", "preScore", "score"]
    assert NodeResourcesFit.args_kind == "NodeResourcesFitArgs"


def test_events_to_register() -> None:
    events = NodeResourcesFit(None, None).events_to_register()
    assert [e.event for e in events] == [
        ClusterEvent(EventResource.POD, ActionType.DELETE | ActionType.UPDATE_POD_SCALE_DOWN),
        ClusterEvent(EventResource.NODE, ActionType.ADD | ActionType.UPDATE_NODE_ALLOCATABLE),
    ]
    assert [e.hint for e in events] == [after_pod_event, after_node_change]


def cpu_pod(name: str, cpu: str | None = None, *, memory: str | None = None) -> Pod:
    builder = make_pod(name).uid(name)
    if cpu is not None:
        builder.req(cpu=cpu)
    if memory is not None:
        builder.req(memory=memory)
    return builder.obj()


def bound(pod: Pod, node: str = "fake") -> Pod:
    return evolve(pod, spec=evolve(pod.spec, node_name=node))


@pytest.mark.parametrize(
    ("pod", "old", "new", "want"),
    [
        pytest.param(Pod(), "not-a-pod", None, QUEUE, id="backoff-wrong-old-object"),
        pytest.param(Pod(), None, "not-a-pod", QUEUE, id="backoff-wrong-new-object"),
        pytest.param(
            cpu_pod("pod1", "1"),
            bound(cpu_pod("pod2", "1")),
            None,
            QUEUE,
            id="queue-on-other-pod-deleted",
        ),
        pytest.param(Pod(), Pod(), None, SKIP, id="skip-queue-on-unscheduled-pod-deleted"),
        pytest.param(
            cpu_pod("pod1", "1"),
            make_pod("pod2").nominated_node_name("fake").req(cpu="1").obj(),
            None,
            QUEUE,
            id="queue-on-nominated-pod-deleted",
        ),
        pytest.param(
            cpu_pod("pod1", "1"),
            cpu_pod("pod2", "2"),
            cpu_pod("pod2", "1"),
            SKIP,
            id="skip-queue-on-other-unscheduled-pod",
        ),
        pytest.param(
            cpu_pod("pod1", "1"),
            bound(cpu_pod("pod2", memory="2")),
            bound(cpu_pod("pod2", memory="1")),
            SKIP,
            id="skip-queue-on-other-pod-unrelated-resource-scaled-down",
        ),
        pytest.param(
            cpu_pod("pod1", "1"),
            bound(cpu_pod("pod2", "2")),
            bound(cpu_pod("pod2", "1")),
            QUEUE,
            id="queue-on-other-pod-some-resource-scale-down",
        ),
        pytest.param(
            cpu_pod("pod1", "1"),
            cpu_pod("pod1", "2"),
            cpu_pod("pod1", "1"),
            QUEUE,
            id="queue-on-target-pod-some-resource-scale-down",
        ),
    ],
)
def test_after_pod_event(pod: Pod, old: object, new: object, want: QueueingHint) -> None:
    assert after_pod_event(pod, old, new) == want


def res_pod(memory: int = 0, **scalars: int) -> Pod:
    """upstream's newResourcePod: one container with every field set (cpu 0 unless given)."""
    requests: dict[str, Amount] = {"cpu": 0, "memory": memory, "pods": 0, "ephemeral-storage": 0}
    requests |= {EXT_A if k == "a" else EXT_B: v for k, v in scalars.items()}
    return make_pod("pod").req(requests).obj()


def cap_node(capacity: Mapping[str, Amount]) -> Node:
    return make_node("node").capacity(capacity).obj()


@pytest.mark.parametrize(
    ("pod", "old", "new", "want"),
    [
        pytest.param(Pod(), None, "not-a-node", QUEUE, id="backoff-wrong-new-object"),
        pytest.param(Pod(), "not-a-node", Node(), QUEUE, id="backoff-wrong-old-object"),
        pytest.param(
            res_pod(memory=2),
            None,
            cap_node({"memory": "1"}),
            SKIP,
            id="skip-queue-on-node-add-without-sufficient-resources",
        ),
        pytest.param(
            res_pod(a=1),
            None,
            cap_node({EXT_B: "1"}),
            SKIP,
            id="skip-queue-on-node-add-without-required-resource-type",
        ),
        pytest.param(
            res_pod(memory=2, a=1),
            None,
            cap_node({"memory": "4", EXT_A: "2"}),
            QUEUE,
            id="queue-on-node-add-with-sufficient-resources",
        ),
        pytest.param(
            res_pod(memory=2, a=1),
            cap_node({"memory": "2", EXT_A: "2"}),
            cap_node({"memory": "2", EXT_A: "1", EXT_B: "2"}),
            SKIP,
            id="skip-queue-on-node-unrelated-changes",
        ),
        pytest.param(
            res_pod(memory=2, a=1),
            cap_node({"memory": "2", EXT_A: "1"}),
            cap_node({"memory": "2", EXT_A: "2"}),
            QUEUE,
            id="queue-on-pod-requested-resources-increase",
        ),
        pytest.param(
            res_pod(memory=2, a=1),
            cap_node({"memory": "4", EXT_A: "2"}),
            cap_node({"memory": "1", EXT_A: "2"}),
            SKIP,
            id="skip-queue-on-node-changes-from-suitable-to-unsuitable",
        ),
        pytest.param(
            res_pod(memory=2, a=1),
            cap_node({"memory": "1", EXT_A: "2"}),
            cap_node({"memory": "4", EXT_A: "2"}),
            QUEUE,
            id="queue-on-node-changes-from-unsuitable-to-suitable",
        ),
    ],
)
def test_after_node_change(pod: Pod, old: object, new: object, want: QueueingHint) -> None:
    assert after_node_change(pod, old, new) == want


@pytest.mark.parametrize(
    ("pod", "node", "want"),
    [
        pytest.param(Pod(), None, False, id="nil node"),
        pytest.param(
            make_pod().req(cpu="2").obj(),
            cap_node({"cpu": "1"}),
            False,
            id="insufficient resource",
        ),
        pytest.param(
            make_pod().req(cpu="1").obj(), cap_node({"cpu": "2"}), True, id="sufficient resource"
        ),
    ],
)
def test_is_fit(pod: Pod, node: Node | None, want: bool) -> None:
    assert is_fit(pod, node) is want


def all_resources(pods: str, cpu: str, memory: str, storage: str, ext: str | None) -> Node:
    capacity = {"pods": pods, "cpu": cpu, "memory": memory, "ephemeral-storage": storage}
    if ext is not None:
        capacity[EXT_A] = ext
    return cap_node(capacity)


def requesting(cpu: int, memory: int, storage: int = 0, ext: int | None = None) -> Pod:
    requests: dict[str, Amount] = {"cpu": f"{cpu}m", "memory": memory, "pods": 0}
    requests["ephemeral-storage"] = storage
    if ext is not None:
        requests[EXT_A] = ext
    return make_pod("pod").req(requests).obj()


@pytest.mark.parametrize(
    ("pod", "original", "modified", "want"),
    [
        pytest.param(
            requesting(0, 0),
            all_resources("1", "1", "1", "1", "1"),
            all_resources("1", "2", "2", "2", "2"),
            False,
            id="no-requested-resources",
        ),
        pytest.param(
            requesting(0, 0),
            all_resources("1", "1", "1", "1", "1"),
            all_resources("2", "1", "1", "1", "1"),
            True,
            id="no-requested-resources-pods-increased",
        ),
        pytest.param(
            requesting(2, 2, 2, ext=2),
            all_resources("32", "1", "2", "3", None),
            all_resources("32", "1", "2", "1", None),
            False,
            id="scalar-resources-not-in-node",
        ),
        pytest.param(
            requesting(2, 2, 2, ext=2),
            all_resources("32", "1", "2", "3", "4"),
            all_resources("32", "1", "2", "1", "1"),
            False,
            id="requested-resources-decreased",
        ),
        pytest.param(
            requesting(2, 2, 2, ext=2),
            all_resources("32", "1", "2", "3", "4"),
            all_resources("32", "3", "4", "3", "4"),
            True,
            id="requested-resources-increased",
        ),
        pytest.param(
            requesting(2, 2),
            all_resources("32", "1", "2", "3", "4"),
            all_resources("32", "1", "2", "1", "1"),
            False,
            id="non-requested-resources-decreased",
        ),
        pytest.param(
            requesting(2, 2),
            all_resources("32", "1", "2", "3", "4"),
            all_resources("32", "1", "2", "5", "6"),
            False,
            id="non-requested-resources-increased",
        ),
    ],
)
def test_have_any_requested_resources_increased(
    pod: Pod, original: Node, modified: Node, want: bool
) -> None:
    assert have_any_requested_resources_increased(pod, original, modified) is want
