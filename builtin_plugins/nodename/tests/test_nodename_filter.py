"""NodeName Filter: upstream's TestNodeName table, its events, and the batch form."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kubesched.api import Node, Pod
from kubesched.framework import (
    ActionType,
    ClusterEvent,
    Code,
    EventResource,
    NodeInfo,
    NodeTable,
    Status,
)
from kubesched.testing import make_node, make_pod
from kubesched_nodename import NodeName
from kubesched_nodename.plugin import REASON


@pytest.mark.parametrize(
    ("pod", "node", "want"),
    [
        pytest.param(make_pod().obj(), Node(), None, id="no host specified"),
        pytest.param(make_pod().node("foo").obj(), make_node("foo").obj(), None, id="host matches"),
        pytest.param(
            make_pod().node("bar").obj(),
            make_node("foo").obj(),
            Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, REASON),
            id="host doesn't match",
        ),
    ],
)
def test_node_name(pod: Pod, node: Node, want: Status | None) -> None:
    node_info = NodeInfo(node)
    assert NodeName(None, None).filter(pod, node_info) == want
    assert NodeName().filter_batch(pod, NodeTable([node_info])).tolist() == [want is None]


def test_registers_node_additions_without_hint() -> None:
    (registered,) = NodeName().events_to_register()
    assert registered.event == ClusterEvent(EventResource.NODE, ActionType.ADD)
    assert registered.hint is None


NAMES = ["n0", "n1", "n2", "n3"]


@given(
    st.lists(st.sampled_from(NAMES), unique=True),
    st.sampled_from(["", *NAMES]),
)
def test_filter_batch_matches_filter(names: list[str], wanted: str) -> None:
    infos = [NodeInfo(make_node(n).obj()) for n in names]
    pod = make_pod("p").node(wanted).obj()
    plugin = NodeName()
    expected = [plugin.filter(pod, ni) is None for ni in infos]
    assert plugin.filter_batch(pod, NodeTable(infos)).tolist() == expected
