"""Pod status patches as upstream's PatchPodStatus makes them, and the stores' bookkeeping."""

from __future__ import annotations

import re

from kubesched.api import PodCondition, PodStatus, Time
from kubesched.cluster.apiserver.kinds import NODES, PODS
from kubesched.cluster.apiserver.reflector import Backoff
from kubesched.cluster.apiserver.store import Stores
from kubesched.cluster.apiserver.writer import status_patch, updated_status
from kubesched.testing import make_node, make_pod

EARLIER = Time.parse("2024-05-01T00:00:00Z")
UNSCHEDULABLE = PodCondition("PodScheduled", "False", "Unschedulable", "0/3 nodes are available")


def test_a_new_condition_is_patched_by_type_with_its_transition_time() -> None:
    old = PodStatus(conditions=[PodCondition("Ready", "False")])
    new = updated_status(old, UNSCHEDULABLE, None)
    patch = status_patch(old, new)["status"]
    assert patch["$setElementOrder/conditions"] == [{"type": "Ready"}, {"type": "PodScheduled"}]
    [sent] = patch["conditions"]
    assert (sent["type"], sent["status"], sent["reason"]) == (
        "PodScheduled",
        "False",
        "Unschedulable",
    )
    # whole seconds, as metav1.Now() marshals
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", sent["lastTransitionTime"])
    assert "nominatedNodeName" not in patch


def test_the_same_condition_again_is_no_patch() -> None:
    old = PodStatus(conditions=[UNSCHEDULABLE])
    assert status_patch(old, updated_status(old, UNSCHEDULABLE, None)) == {}


def test_a_new_message_keeps_the_transition_time_a_new_status_moves_it() -> None:
    old = PodStatus(
        conditions=[PodCondition("PodScheduled", "False", "Unschedulable", "a", EARLIER)]
    )
    reworded = updated_status(old, UNSCHEDULABLE, None).conditions[0]
    assert reworded.message == UNSCHEDULABLE.message
    assert reworded.last_transition_time == EARLIER
    flipped = updated_status(old, PodCondition("PodScheduled", "True"), None).conditions[0]
    assert flipped.last_transition_time is not None and flipped.last_transition_time > EARLIER


def test_nominations_are_set_and_cleared() -> None:
    nominated = updated_status(PodStatus(), None, "n1")
    assert status_patch(PodStatus(), nominated) == {"status": {"nominatedNodeName": "n1"}}
    cleared = updated_status(nominated, None, "")
    assert status_patch(nominated, cleared) == {"status": {"nominatedNodeName": None}}
    assert status_patch(nominated, updated_status(nominated, None, None)) == {}


def test_a_relisting_turns_differences_into_changes() -> None:
    stores = Stores([NODES, PODS])
    a, b, c = (make_node(n).obj() for n in "abc")
    stores.replace(NODES, {"a": ("1", a), "b": ("2", b)})
    assert stores.take_changes() == [(None, a), (None, b)]
    assert not stores.changed.is_set()
    b2 = make_node("b").label("zone", "z").obj()
    stores.replace(NODES, {"b": ("5", b2), "c": ("6", c)})
    assert stores.take_changes() == [(a, None), (b, b2), (None, c)]
    stores.replace(NODES, {"b": ("5", b2), "c": ("6", c)})
    assert stores.take_changes() == []


def test_pods_are_found_by_uid_until_deleted() -> None:
    stores = Stores([PODS])
    pod = make_pod("p").uid("u1").obj()
    stores.apply(PODS, "default/p", "3", pod)
    assert stores.get_pod("u1") is pod
    assert stores.changed.is_set()
    stores.apply(PODS, "default/p", "4", None)
    assert stores.get_pod("u1") is None
    assert stores.take_changes() == [(None, pod), (pod, None)]
    stores.apply(PODS, "default/p", "5", None)  # deleting what is gone changes nothing
    assert stores.take_changes() == []


def test_backoff_doubles_to_its_cap_and_resets() -> None:
    backoff = Backoff(initial=1.0, cap=4.0, jitter=0.0)
    assert [backoff.next() for _ in range(4)] == [1.0, 2.0, 4.0, 4.0]
    backoff.reset()
    assert backoff.next() == 1.0
