"""The node builder, after upstream's `st.MakeNode()`."""

from __future__ import annotations

from collections.abc import Mapping

from kubesched.api import (
    PODS,
    TAINT_NO_SCHEDULE,
    ContainerImage,
    Node,
    NodeStatus,
    ObjectMeta,
    Taint,
)
from kubesched.testing._object_builder import (
    DEFAULT_NODE_PODS,
    Amount,
    _ObjectBuilder,
    resource_list,
)


class NodeBuilder(_ObjectBuilder[Node]):
    """Builds a `Node` step by step; start one with `make_node(name)`.

    Like upstream's MakeNode, a node starts with capacity and allocatable of 32 pods.
    """

    def __init__(self, name: str) -> None:
        pods = {PODS: DEFAULT_NODE_PODS}
        node = Node(
            metadata=ObjectMeta(name=name),
            status=NodeStatus(capacity=dict(pods), allocatable=dict(pods)),
        )
        super().__init__("Node", node)

    def capacity(
        self, resources: Mapping[str, Amount] | None = None, **named: Amount
    ) -> NodeBuilder:
        """Set capacity and allocatable to these resources (32 pods unless `pods` is given)."""
        amounts = {PODS: DEFAULT_NODE_PODS, **resource_list(resources, **named)}
        return self._status(capacity=amounts, allocatable=dict(amounts))

    def allocatable(
        self, resources: Mapping[str, Amount] | None = None, **named: Amount
    ) -> NodeBuilder:
        """Set allocatable alone (after `capacity`, to model reserved resources)."""
        return self._status(allocatable=resource_list(resources, **named))

    def taint(self, key: str, value: str = "", effect: str = TAINT_NO_SCHEDULE) -> NodeBuilder:
        added = Taint(key=key, value=value, effect=effect)
        return self._spec(taints=[*self._obj.spec.taints, added])

    def unschedulable(self, unschedulable: bool = True) -> NodeBuilder:
        return self._spec(unschedulable=unschedulable)

    def image(self, name: str, size_bytes: int, *aliases: str) -> NodeBuilder:
        """Add an image present on the node, under `name` and any further names."""
        added = ContainerImage(names=[name, *aliases], size_bytes=size_bytes)
        return self._status(images=[*self._obj.status.images, added])
