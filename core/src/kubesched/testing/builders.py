"""Fluent builders for pods and nodes in tests, after upstream's `st.MakePod()`/`st.MakeNode()`.

    pod = make_pod("web-1").namespace("ns").req(cpu="500m", memory="1Gi").obj()
    node = make_node("n1").label("zone", "a").capacity(cpu="4", memory="8Gi").obj()

Every method returns the builder; `obj()` returns the frozen object and may be
called again after more changes. Resource amounts are quantity strings or
numbers ("500m", "1Gi", 2), given as keywords (`ephemeral_storage=` stands for
`ephemeral-storage`) or as a mapping for other names (`{"example.com/gpu": 1}`).
An object without an explicit uid gets a stable one derived from its name.
"""

from __future__ import annotations

from kubesched.testing._node_builder import NodeBuilder
from kubesched.testing._object_builder import (
    DEFAULT_NODE_PODS,
    PAUSE_IMAGE,
    Amount,
    resource_list,
)
from kubesched.testing._pod_builder import PodBuilder


def make_pod(name: str = "") -> PodBuilder:
    """Start building a pod in namespace "default" unless `.namespace()` sets another."""
    return PodBuilder(name)


def make_node(name: str = "") -> NodeBuilder:
    """Start building a node."""
    return NodeBuilder(name)


__all__ = [
    "DEFAULT_NODE_PODS",
    "PAUSE_IMAGE",
    "Amount",
    "NodeBuilder",
    "PodBuilder",
    "make_node",
    "make_pod",
    "resource_list",
]
