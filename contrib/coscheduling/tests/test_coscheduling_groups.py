"""Pod groups from the label and the min-available annotation; members and assigned counts."""

from __future__ import annotations

import pytest
from coscheduling_testlib import member

from kubesched.framework import NodeInfo, PodInfo
from kubesched.testing import make_node, make_pod
from kubesched_coscheduling import MIN_AVAILABLE_ANNOTATION, POD_GROUP_LABEL, PodGroup
from kubesched_coscheduling.groups import (
    assigned_count,
    full_name_of,
    members,
    pod_group_of,
    surroundings,
)


def test_the_names_are_scheduler_plugins_label_and_our_annotation() -> None:
    assert POD_GROUP_LABEL == "scheduling.x-k8s.io/pod-group"
    assert MIN_AVAILABLE_ANNOTATION == "scheduling.x-k8s.io/min-available"


@pytest.mark.parametrize(
    ("labels", "annotations", "group"),
    [
        ({}, {}, None),
        ({}, {MIN_AVAILABLE_ANNOTATION: "3"}, None),
        ({POD_GROUP_LABEL: ""}, {MIN_AVAILABLE_ANNOTATION: "3"}, None),
        ({POD_GROUP_LABEL: "pg"}, {}, None),
        ({POD_GROUP_LABEL: "pg"}, {MIN_AVAILABLE_ANNOTATION: ""}, None),
        ({POD_GROUP_LABEL: "pg"}, {MIN_AVAILABLE_ANNOTATION: "three"}, None),
        ({POD_GROUP_LABEL: "pg"}, {MIN_AVAILABLE_ANNOTATION: "-1"}, None),
        ({POD_GROUP_LABEL: "pg"}, {MIN_AVAILABLE_ANNOTATION: "1.5"}, None),
        ({POD_GROUP_LABEL: "pg"}, {MIN_AVAILABLE_ANNOTATION: "\u0663"}, None),
        ({POD_GROUP_LABEL: "pg"}, {MIN_AVAILABLE_ANNOTATION: "0"}, PodGroup("ns", "pg", 0)),
        ({POD_GROUP_LABEL: "pg"}, {MIN_AVAILABLE_ANNOTATION: "12"}, PodGroup("ns", "pg", 12)),
    ],
)
def test_pod_group_of(
    labels: dict[str, str], annotations: dict[str, str], group: PodGroup | None
) -> None:
    builder = make_pod("p").namespace("ns").labels(labels)
    for key, value in annotations.items():
        builder = builder.annotation(key, value)
    assert pod_group_of(builder.obj()) == group


def test_full_name_needs_only_the_label() -> None:
    assert full_name_of(make_pod("p").namespace("ns").label(POD_GROUP_LABEL, "pg").obj()) == "ns/pg"
    assert full_name_of(make_pod("p").namespace("ns").obj()) == ""
    assert PodGroup("ns", "pg", 2).full_name == "ns/pg"


def test_members_are_same_namespace_same_label() -> None:
    group = PodGroup("ns", "pg", 2)
    pods = [
        member("a", "pg").obj(),
        member("b", "pg", ns="other").obj(),
        member("c", "other").obj(),
        make_pod("d").namespace("ns").obj(),
        member("e", "pg", 5).node("n1").obj(),
    ]
    assert [p.metadata.name for p in members(pods, group)] == ["a", "e"]


def test_assigned_count_counts_members_on_nodes_but_one() -> None:
    group = PodGroup("ns", "pg", 3)
    on_n1 = [member("a", "pg").obj(), member("x", "other").obj()]
    on_n2 = [member("b", "pg").obj(), member("c", "pg", ns="other").obj()]
    infos = [
        NodeInfo(make_node("n1").obj(), [PodInfo(p) for p in on_n1]),
        NodeInfo(make_node("n2").obj(), [PodInfo(p) for p in on_n2]),
    ]
    assert assigned_count(infos, group, other_than="") == 2
    assert assigned_count(infos, group, other_than=on_n1[0].uid) == 1


def test_surroundings_ignore_the_groups_own_pods() -> None:
    group = PodGroup("ns", "pg", 2)
    node = make_node("n1").obj()
    mine, theirs = member("a", "pg").obj(), make_pod("web").namespace("ns").obj()
    alone = [NodeInfo(node)]
    with_mine = [NodeInfo(node, [PodInfo(mine)])]
    with_theirs = [NodeInfo(node, [PodInfo(theirs)])]
    assert surroundings(alone, group, [mine]) == surroundings(with_mine, group, [mine])
    assert surroundings(alone, group, [mine]) != surroundings(with_theirs, group, [mine])
    assert surroundings(alone, group, [mine]) != surroundings(alone, group, [])
    assert surroundings(alone, group, [mine]) != surroundings(
        alone, PodGroup("ns", "pg", 3), [mine]
    )
