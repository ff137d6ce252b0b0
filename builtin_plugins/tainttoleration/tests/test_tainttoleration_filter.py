"""Filter, re-expressing upstream's TestTaintTolerationFilter."""

from __future__ import annotations

import pytest

from kubesched.api import Node, Pod
from kubesched.framework import Code, CycleState, NodeInfo, Status
from kubesched.testing import make_node, make_pod
from kubesched_tainttoleration import TaintToleration

REJECTED = Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, "node(s) had untolerated taint(s)")


def run_filter(pod: Pod, node: Node) -> Status | None:
    return TaintToleration(None, None).filter(state=CycleState(), pod=pod, node_info=NodeInfo(node))


# (name, pod, node, expected status; None passes)
CASES = [
    (
        "a pod without tolerations cannot land on a node with a NoSchedule taint",
        make_pod("pod1").obj(),
        make_node("nodeA").taint("dedicated", "user1", "NoSchedule").obj(),
        REJECTED,
    ),
    (
        "a pod tolerating dedicated=user1:NoSchedule lands on that dedicated node",
        make_pod("pod1")
        .toleration("dedicated", value="user1", effect="NoSchedule", operator="")
        .obj(),
        make_node("nodeA").taint("dedicated", "user1", "NoSchedule").obj(),
        None,
    ),
    (
        "a pod tolerating dedicated=user2 cannot land on a node dedicated to user1",
        make_pod("pod1").toleration("dedicated", value="user2", effect="NoSchedule").obj(),
        make_node("nodeA").taint("dedicated", "user1", "NoSchedule").obj(),
        REJECTED,
    ),
    (
        "an Exists toleration covers the taint whatever its value",
        make_pod("pod1").toleration("foo", effect="NoSchedule", operator="Exists").obj(),
        make_node("nodeA").taint("foo", "bar", "NoSchedule").obj(),
        None,
    ),
    (
        "several tolerations cover every one of several taints",
        make_pod("pod1")
        .toleration("dedicated", value="user2", effect="NoSchedule", operator="Equal")
        .toleration("foo", effect="NoSchedule", operator="Exists")
        .obj(),
        make_node("nodeA")
        .taint("dedicated", "user2", "NoSchedule")
        .taint("foo", "bar", "NoSchedule")
        .obj(),
        None,
    ),
    (
        "key and value match but the (non-empty) effect does not",
        make_pod("pod1").toleration("foo", value="bar", effect="PreferNoSchedule").obj(),
        make_node("nodeA").taint("foo", "bar", "NoSchedule").obj(),
        REJECTED,
    ),
    (
        "key and value match and the toleration's effect is empty",
        make_pod("pod1").toleration("foo", value="bar", operator="Equal").obj(),
        make_node("nodeA").taint("foo", "bar", "NoSchedule").obj(),
        None,
    ),
    (
        "an untolerated PreferNoSchedule taint does not block, with an unrelated toleration",
        make_pod("pod1").toleration("dedicated", value="user2", effect="NoSchedule").obj(),
        make_node("nodeA").taint("dedicated", "user1", "PreferNoSchedule").obj(),
        None,
    ),
    (
        "an untolerated PreferNoSchedule taint does not block a pod without tolerations",
        make_pod("pod1").obj(),
        make_node("nodeA").taint("dedicated", "user1", "PreferNoSchedule").obj(),
        None,
    ),
    # Beyond upstream's table.
    (
        "an untolerated NoExecute taint blocks",
        make_pod("pod1").toleration("foo", effect="NoSchedule", operator="Exists").obj(),
        make_node("nodeA").taint("foo", "", "NoExecute").obj(),
        REJECTED,
    ),
    (
        "one untolerated taint among tolerated ones blocks",
        make_pod("pod1").toleration("a", effect="NoSchedule", operator="Exists").obj(),
        make_node("nodeA").taint("a", "1", "NoSchedule").taint("b", "2", "NoSchedule").obj(),
        REJECTED,
    ),
    (
        "a Gt toleration tolerates nothing with the comparison gate off (upstream's default)",
        make_pod("pod1").toleration("sla", value="100", effect="NoSchedule", operator="Gt").obj(),
        make_node("nodeA").taint("sla", "950", "NoSchedule").obj(),
        REJECTED,
    ),
    (
        "a node without taints takes any pod",
        make_pod("pod1").obj(),
        make_node("nodeA").obj(),
        None,
    ),
]


@pytest.mark.parametrize(
    ("pod", "node", "expected"),
    [pytest.param(pod, node, want, id=name) for name, pod, node, want in CASES],
)
def test_filter(pod: Pod, node: Node, expected: Status | None) -> None:
    assert run_filter(pod, node) == expected


def test_filter_without_a_node_is_an_error() -> None:
    status = TaintToleration(None, None).filter(
        state=CycleState(), pod=make_pod("p").obj(), node_info=NodeInfo()
    )
    assert status is not None
    assert status.code == Code.ERROR
    assert status.message == "invalid nodeInfo"
