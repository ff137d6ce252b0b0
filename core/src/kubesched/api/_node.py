"""Node: the subset of `v1.Node` the scheduler reads."""

from __future__ import annotations

from attrs import field, frozen

from kubesched.api._meta import ObjectMeta
from kubesched.api._resources import ResourceList
from kubesched.api._time import Time, as_time

TAINT_NO_SCHEDULE = "NoSchedule"
TAINT_PREFER_NO_SCHEDULE = "PreferNoSchedule"
TAINT_NO_EXECUTE = "NoExecute"
TAINT_NODE_UNSCHEDULABLE = "node.kubernetes.io/unschedulable"


@frozen
class Taint:
    """A node taint."""

    key: str
    effect: str
    value: str = ""
    time_added: Time | None = field(default=None, converter=as_time)


@frozen
class NodeSpec:
    """`spec.unschedulable` (cordoned) and taints."""

    unschedulable: bool = False
    taints: list[Taint] = field(factory=list)


@frozen
class ContainerImage:
    """An image present on the node."""

    names: list[str] = field(factory=list)
    size_bytes: int = 0


@frozen
class NodeStatus:
    """Capacity, allocatable and images."""

    capacity: ResourceList = field(factory=dict)
    allocatable: ResourceList = field(factory=dict)
    images: list[ContainerImage] = field(factory=list)


@frozen
class Node:
    """A node. Objects are immutable: change one with `attrs.evolve`."""

    metadata: ObjectMeta = field(factory=ObjectMeta)
    spec: NodeSpec = field(factory=NodeSpec)
    status: NodeStatus = field(factory=NodeStatus)

    @property
    def name(self) -> str:
        return self.metadata.name
