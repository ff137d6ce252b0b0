"""NodeUnschedulable Filter: upstream's TestNodeUnschedulable table and the batch form."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kubesched.api import Node, NodeSpec, Pod, Toleration
from kubesched.framework import Code, NodeInfo, NodeTable, Status
from kubesched.testing import make_node, make_pod
from kubesched_nodeunschedulable import NodeUnschedulable
from kubesched_nodeunschedulable.plugin import REASON

UNSCHEDULABLE = "node.kubernetes.io/unschedulable"


def pod_tolerating(tolerations: list[Toleration]) -> Pod:
    builder = make_pod("p")
    for t in tolerations:
        builder = builder.toleration(t.key, value=t.value, effect=t.effect, operator=t.operator)
    return builder.obj()


@pytest.mark.parametrize(
    ("pod", "node", "want"),
    [
        pytest.param(
            make_pod().obj(),
            Node(spec=NodeSpec(unschedulable=True)),
            Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, REASON),
            id="does not schedule pod to unschedulable node",
        ),
        pytest.param(
            make_pod().obj(),
            Node(spec=NodeSpec(unschedulable=False)),
            None,
            id="schedules pod to normal node",
        ),
        pytest.param(
            make_pod().toleration(UNSCHEDULABLE, effect="NoSchedule").obj(),
            Node(spec=NodeSpec(unschedulable=True)),
            None,
            id="schedules pod with toleration to unschedulable node",
        ),
    ],
)
def test_node_unschedulable(pod: Pod, node: Node, want: Status | None) -> None:
    node_info = NodeInfo(node)
    assert NodeUnschedulable(None, None).filter(pod, node_info) == want
    mask = NodeUnschedulable().filter_batch(pod, NodeTable([node_info]))
    assert mask.tolist() == [want is None]


@pytest.mark.parametrize(
    ("toleration", "tolerated"),
    [
        (Toleration(key=UNSCHEDULABLE, operator="Exists", effect="NoSchedule"), True),
        (Toleration(key=UNSCHEDULABLE, operator="Exists"), True),
        (Toleration(operator="Exists"), True),
        (Toleration(key=UNSCHEDULABLE, operator="Equal", value=""), True),
        (Toleration(key=UNSCHEDULABLE), True),
        (Toleration(key=UNSCHEDULABLE, operator="Equal", value="true"), False),
        (Toleration(key=UNSCHEDULABLE, operator="Exists", effect="NoExecute"), False),
        (Toleration(key="other", operator="Exists", effect="NoSchedule"), False),
        (Toleration(key=UNSCHEDULABLE, operator="Gt", value="1"), False),
    ],
)
def test_tolerating_the_unschedulable_taint(toleration: Toleration, tolerated: bool) -> None:
    pod = pod_tolerating([toleration])
    cordoned = NodeInfo(make_node("n").unschedulable().obj())
    assert (NodeUnschedulable().filter(pod, cordoned) is None) is tolerated


tolerations = st.builds(
    Toleration,
    key=st.sampled_from(["", UNSCHEDULABLE, "other"]),
    operator=st.sampled_from(["", "Equal", "Exists"]),
    value=st.sampled_from(["", "x"]),
    effect=st.sampled_from(["", "NoSchedule", "NoExecute"]),
)


@given(st.lists(st.booleans(), max_size=8), st.lists(tolerations, max_size=2))
def test_filter_batch_matches_filter(
    cordons: list[bool], pod_tolerations: list[Toleration]
) -> None:
    infos = [NodeInfo(make_node(f"n{i}").unschedulable(c).obj()) for i, c in enumerate(cordons)]
    infos.append(NodeInfo())
    builder = make_pod("p")
    for t in pod_tolerations:
        builder = builder.toleration(t.key, value=t.value, effect=t.effect, operator=t.operator)
    pod = builder.obj()
    plugin = NodeUnschedulable()
    table = NodeTable(infos)
    expected = [plugin.filter(pod, ni) is None for ni in infos]
    assert plugin.filter_batch(pod, table).tolist() == expected


def test_cordon_column_follows_replaced_rows() -> None:
    table = NodeTable([NodeInfo(make_node("n").obj())])
    pod = make_pod("p").obj()
    assert NodeUnschedulable().filter_batch(pod, table).tolist() == [True]
    table.replace_rows([(0, NodeInfo(make_node("n").unschedulable().obj()))])
    assert NodeUnschedulable().filter_batch(pod, table).tolist() == [False]
