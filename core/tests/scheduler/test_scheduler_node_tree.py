"""Node order: zones interleaved round robin (upstream's node_tree_test)."""

from __future__ import annotations

import pytest

from kubesched.api import Node
from kubesched.scheduler.node_tree import NodeTree, zone_key
from kubesched.testing import make_node


def _node(name: str, region: str = "", zone: str = "", beta: bool = False) -> Node:
    builder = make_node(name)
    prefix = "failure-domain.beta.kubernetes.io" if beta else "topology.kubernetes.io"
    if region:
        builder = builder.label(f"{prefix}/region", region)
    if zone:
        builder = builder.label(f"{prefix}/zone", zone)
    return builder.obj()


@pytest.mark.parametrize(
    ("node", "key"),
    [
        (_node("n"), ""),
        (_node("n", "r1", "z1"), "r1:\x00:z1"),
        (_node("n", zone="z1"), ":\x00:z1"),
        (_node("n", "r1", "z1", beta=True), "r1:\x00:z1"),
    ],
)
def test_zone_key(node: Node, key: str) -> None:
    assert zone_key(node) == key


def test_list_interleaves_zones_as_the_docs_example() -> None:
    tree = NodeTree()
    for name in ["n1", "n2", "n3", "n4"]:
        tree.add(_node(name, "r", "zone1"))
    for name in ["n5", "n6"]:
        tree.add(_node(name, "r", "zone2"))
    assert tree.list() == ["n1", "n5", "n2", "n6", "n3", "n4"]
    assert tree.num_nodes == 6


def test_add_twice_remove_and_update_zone() -> None:
    tree = NodeTree()
    a, b, c = _node("a", "r", "z1"), _node("b", "r", "z2"), _node("c", "r", "z1")
    for node in (a, b, c, a):
        tree.add(node)
    assert tree.list() == ["a", "b", "c"] and tree.num_nodes == 3
    tree.remove(b)
    tree.remove(b)
    assert tree.list() == ["a", "c"] and tree.num_nodes == 2
    tree.update(a, _node("a", "r", "z3"))
    assert tree.list() == ["c", "a"]
