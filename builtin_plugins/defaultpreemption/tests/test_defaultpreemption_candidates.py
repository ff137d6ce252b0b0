"""Which nodes are tried, and how the dry run collects candidates: upstream's
preemption_test.go TestNodesWherePreemptionMightHelp and TestDryRunPreemption."""

from __future__ import annotations

import pytest

from kubesched.framework import Code, NodeInfo, PodInfo, Status
from kubesched.testing import make_node, make_pod
from kubesched_defaultpreemption import Candidate
from kubesched_defaultpreemption.dry_run import dry_run_preemption
from kubesched_defaultpreemption.plugin import nodes_where_preemption_might_help

NODES = [NodeInfo(make_node(f"node{i}").obj()) for i in range(1, 5)]


def u(reason: str = "") -> Status:
    return Status(Code.UNSCHEDULABLE, reason)


def uu(reason: str = "") -> Status:
    return Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, reason)


# upstream: TestNodesWherePreemptionMightHelp (with upstream's reason strings)
@pytest.mark.parametrize(
    ("statuses", "expected"),
    [
        pytest.param(
            {"node1": uu("node(s) didn't match Pod's node affinity/selector"),
             "node2": uu("node(s) didn't match the requested node name"),
             "node3": uu("node(s) had untolerated taint(s)"),
             "node4": uu("node(s) didn't match pod affinity rules")},
            [],
            id="No node should be attempted",
        ),
        pytest.param(
            {"node1": u("node(s) didn't match pod anti-affinity rules"),
             "node2": uu("node(s) didn't match the requested node name"),
             "node3": uu("node(s) were unschedulable"),
             "node4": u("Unschedulable")},
            ["node1", "node4"],
            id="pod anti-affinity should be tried",
        ),
        pytest.param(
            {"node1": uu("node(s) didn't match pod affinity rules"),
             "node2": u("node(s) didn't match pod anti-affinity rules"),
             "node3": u("Unschedulable"),
             "node4": u("Unschedulable")},
            ["node2", "node3", "node4"],
            id="pod affinity should not be tried, pod anti-affinity should",
        ),
        pytest.param(
            {"node1": uu("node(s) had no available disk"),
             "node2": u("Insufficient memory"),
             "node3": u("Unschedulable"),
             "node4": u("Unschedulable")},
            ["node2", "node3", "node4"],
            id="Mix of failed predicates works fine",
        ),
        pytest.param(
            {"node1": uu("node(s) had unknown conditions"),
             "node2": u("Unschedulable"),
             "node3": u("Unschedulable"),
             "node4": u("Unschedulable")},
            ["node2", "node3", "node4"],
            id="Node condition errors should be considered unresolvable",
        ),
        pytest.param(
            {"node1": uu("node(s) had no available volume zone"),
             "node2": uu("node(s) didn't match PersistentVolume's node affinity"),
             "node3": uu("node(s) didn't find available persistent volumes to bind"),
             "node4": u("Unschedulable")},
            ["node4"],
            id="volume errors should not be tried",
        ),
        pytest.param(
            {"node1": u("node(s) didn't match pod topology spread constraints"),
             "node2": uu("node(s) didn't match the requested node name"),
             "node3": u("node(s) didn't match pod topology spread constraints"),
             "node4": u("Unschedulable")},
            ["node1", "node3", "node4"],
            id="topology spread constraints should be tried",
        ),
        pytest.param(
            {"node1": u(), "node2": uu(), "node3": u(), "node4": uu()},
            ["node1", "node3"],
            id="UnschedulableAndUnresolvable skipped, Unschedulable tried",
        ),
        pytest.param(
            {"node1": u(),
             "node2": uu("node(s) didn't match pod topology spread constraints "
                         "(missing required label)"),
             "node3": u(),
             "node4": uu()},
            ["node1", "node3"],
            id="a node without the topology label should not be tried",
        ),
        pytest.param(
            {"node2": u()},
            ["node2"],
            id="a node without a status is not tried",
        ),
    ],
)  # fmt: skip
def test_nodes_where_preemption_might_help(
    statuses: dict[str, Status], expected: list[str]
) -> None:
    assert [n.name for n in nodes_where_preemption_might_help(NODES, statuses)] == expected


# upstream: TestDryRunPreemption of preemption_test.go, with its fake that makes the
# node's first pod the victim and reports a fixed number of PDB violations
@pytest.mark.parametrize("violations", [0, 1], ids=["no pdb violation", "pdb violation on each"])
def test_dry_run_keeps_every_candidate(violations: int) -> None:
    infos = [
        NodeInfo(make_node(n).obj(), [PodInfo(make_pod(p).uid(p).node(n).priority(100).obj())])
        for n, p in (("node1", "p1"), ("node2", "p2"))
    ]

    def first_pod_is_the_victim(node_info: NodeInfo) -> Candidate:
        return Candidate(node_info.name, (node_info.pods[0].pod,), violations)

    result = dry_run_preemption(infos, 0, len(infos), first_pod_is_the_victim)
    assert [(c.node_name, [v.metadata.name for v in c.victims], c.num_pdb_violations)
            for c in result.candidates] == [
        ("node1", ["p1"], violations),
        ("node2", ["p2"], violations),
    ]  # fmt: skip
    assert result.node_statuses == {}
    assert result.errors == []
