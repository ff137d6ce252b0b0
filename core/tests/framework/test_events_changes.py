"""Update -> fine-grained events (upstream's events_test, the cases for fields we model)."""

from __future__ import annotations

import pytest
from attrs import evolve

from kubesched.api import Node, Pod, PodResourceClaimStatus
from kubesched.framework._events import event_label, node_changes, pod_changes
from kubesched.testing import make_node, make_pod


def with_generated_claim(pod: Pod) -> Pod:
    generated = [PodResourceClaimStatus(name="gpu", resource_claim_name="p-gpu-x2b4z")]
    return evolve(pod, status=evolve(pod.status, resource_claim_statuses=generated))


@pytest.mark.parametrize(
    ("old", "new", "labels"),
    [
        (make_pod("p").obj(), make_pod("p").obj(), ["UnscheduledPodUpdate"]),
        (
            make_pod("p").obj(),
            make_pod("p").label("a", "b").obj(),
            ["UnscheduledPodUpdatePodLabel"],
        ),
        (
            make_pod("p").node("n").req(cpu="2").obj(),
            make_pod("p").node("n").req(cpu="1").obj(),
            ["AssignedPodUpdatePodScaleDown"],
        ),
        (
            make_pod("p").req(cpu="1").obj(),
            make_pod("p").req(cpu="2").obj(),
            ["UnscheduledPodUpdate"],
        ),
        (
            make_pod("p").scheduling_gates("g").obj(),
            make_pod("p").obj(),
            ["UnscheduledPodUpdatePodSchedulingGatesEliminated"],
        ),
        (
            make_pod("p").obj(),
            make_pod("p").toleration(key="k", effect="NoSchedule").obj(),
            ["UnscheduledPodUpdatePodToleration"],
        ),
        (
            make_pod("p").obj(),
            make_pod("p").label("a", "b").toleration(key="k").obj(),
            ["UnscheduledPodUpdatePodLabel", "UnscheduledPodUpdatePodToleration"],
        ),
        (
            make_pod("p").obj(),
            with_generated_claim(make_pod("p").obj()),
            ["UnscheduledPodUpdatePodGeneratedResourceClaim"],
        ),
    ],
)
def test_pod_changes(old: Pod, new: Pod, labels: list[str]) -> None:
    assert [event_label(e) for e in pod_changes(old, new)] == labels


@pytest.mark.parametrize(
    ("old", "new", "labels"),
    [
        (make_node("n").obj(), make_node("n").obj(), []),
        (make_node("n").obj(), make_node("n").label("a", "b").obj(), ["NodeUpdateNodeLabel"]),
        (
            make_node("n").capacity(cpu="1").obj(),
            make_node("n").capacity(cpu="2").obj(),
            ["NodeUpdateNodeAllocatable"],
        ),
        (
            make_node("n").obj(),
            make_node("n").taint("k", "v", "NoSchedule").obj(),
            ["NodeUpdateNodeTaint"],
        ),
        (make_node("n").unschedulable().obj(), make_node("n").obj(), ["NodeUpdateNodeTaint"]),
        (make_node("n").obj(), make_node("n").unschedulable().obj(), []),
    ],
)
def test_node_changes(old: Node, new: Node, labels: list[str]) -> None:
    assert [event_label(e) for e in node_changes(old, new)] == labels
