"""What plugin authors import in their tests: pod and node builders."""

from kubesched.testing.builders import (
    DEFAULT_NODE_PODS,
    PAUSE_IMAGE,
    Amount,
    NodeBuilder,
    PodBuilder,
    make_node,
    make_pod,
    resource_list,
)

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
