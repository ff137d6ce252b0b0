"""Registered event vs incoming event (upstream's TestClusterEventMatching, for the resources
v1.35 has)."""

from __future__ import annotations

import pytest

from kubesched.framework._events import ActionType, ClusterEvent, EventResource
from kubesched.testing import make_node, make_pod, simulate

R = EventResource
A = ActionType


@pytest.mark.parametrize(
    ("registered", "incoming", "matches"),
    [
        # the wildcard event matches every incoming event
        ((R.WILDCARD, A.ALL), (R.POD, A.UPDATE_NODE_LABEL), True),
        # Pod matches Pod, UnscheduledPod and AssignedPod with an overlapping action
        ((R.POD, A.UPDATE_NODE_LABEL | A.UPDATE_NODE_TAINT), (R.POD, A.UPDATE_NODE_LABEL), True),
        (
            (R.POD, A.UPDATE_NODE_LABEL | A.UPDATE_NODE_TAINT),
            (R.UNSCHEDULED_POD, A.UPDATE_NODE_LABEL),
            True,
        ),
        ((R.POD, A.UPDATE_NODE_LABEL), (R.ASSIGNED_POD, A.UPDATE_NODE_LABEL), True),
        # a `*` resource with a specific action: any resource, that action or a narrower one
        ((R.WILDCARD, A.UPDATE_NODE_LABEL), (R.POD, A.UPDATE_NODE_LABEL), True),
        ((R.WILDCARD, A.UPDATE_NODE_LABEL), (R.POD, A.UPDATE_NODE_ALLOCATABLE), False),
        ((R.WILDCARD, A.UPDATE_NODE_LABEL), (R.POD, A.UPDATE), False),
        ((R.WILDCARD, A.UPDATE), (R.POD, A.UPDATE_NODE_LABEL), True),
        # an incoming `*` resource matches only a registered `*`
        ((R.POD, A.UPDATE_NODE_LABEL), (R.WILDCARD, A.UPDATE_NODE_LABEL), False),
        ((R.ASSIGNED_POD, A.ADD), (R.WILDCARD, A.ADD), False),
        ((R.UNSCHEDULED_POD, A.ADD), (R.WILDCARD, A.ADD), False),
        # AssignedPod and UnscheduledPod match only themselves
        ((R.ASSIGNED_POD, A.ADD), (R.UNSCHEDULED_POD, A.ADD), False),
        ((R.ASSIGNED_POD, A.ADD), (R.POD, A.ADD), False),
        ((R.UNSCHEDULED_POD, A.ADD), (R.POD, A.ADD), False),
        # the rule behind requeuing a pod after its own status write: a generic update is
        # broader than Delete|UpdatePodScaleDown, so it does not match
        (
            (R.POD, A.DELETE | A.UPDATE_POD_SCALE_DOWN),
            (R.UNSCHEDULED_POD, A.UPDATE),
            False,
        ),
        (
            (R.POD, A.DELETE | A.UPDATE_POD_SCALE_DOWN),
            (R.ASSIGNED_POD, A.UPDATE_POD_SCALE_DOWN),
            True,
        ),
        ((R.POD, A.UPDATE), (R.UNSCHEDULED_POD, A.UPDATE), True),
        ((R.POD, A.ALL), (R.ASSIGNED_POD, A.UPDATE), True),
        ((R.NODE, A.ADD | A.UPDATE_NODE_TAINT), (R.NODE, A.UPDATE), False),
    ],
)
def test_cluster_event_matching(
    registered: tuple[EventResource, ActionType],
    incoming: tuple[EventResource, ActionType],
    matches: bool,
) -> None:
    assert ClusterEvent(*registered).matches(ClusterEvent(*incoming)) is matches


def test_an_unschedulable_pods_own_status_write_does_not_requeue_it() -> None:
    """The scheduler's PodScheduled=False write comes back as an update of the pod; it
    changes nothing NodeResourcesFit registered for, so the pod is tried once, not twice."""
    run = simulate([make_node("n").capacity(cpu="1").obj()], [make_pod("big").req(cpu="2").obj()])
    outcome = run.outcome("default/big")
    assert outcome.status == "Unschedulable"
    assert outcome.attempts == 1
