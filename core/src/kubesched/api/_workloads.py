"""Services and the workload controllers that select pods: ReplicationController,
ReplicaSet and StatefulSet.

The scheduler reads only their selectors: PodTopologySpread's default
constraints spread the pods that the same Services and controllers select
(upstream's DefaultSelector). Everything else in these objects is ignored.
"""

from __future__ import annotations

from attrs import field, frozen

from kubesched.api._meta import LabelSelector, ObjectMeta


@frozen
class ServiceSpec:
    """A Service's pod selector: equality on every label; empty selects no pod by label."""

    selector: dict[str, str] = field(factory=dict)


@frozen
class Service:
    """A `v1` Service."""

    metadata: ObjectMeta = field(factory=ObjectMeta)
    spec: ServiceSpec = field(factory=ServiceSpec)


@frozen
class ReplicationControllerSpec:
    """A ReplicationController's pod selector (a plain label map)."""

    selector: dict[str, str] = field(factory=dict)


@frozen
class ReplicationController:
    """A `v1` ReplicationController."""

    metadata: ObjectMeta = field(factory=ObjectMeta)
    spec: ReplicationControllerSpec = field(factory=ReplicationControllerSpec)


@frozen
class WorkloadSpec:
    """The pod selector of a ReplicaSet or StatefulSet (a `metav1.LabelSelector`)."""

    selector: LabelSelector | None = None


@frozen
class ReplicaSet:
    """An `apps/v1` ReplicaSet (a Deployment's pods are owned by one)."""

    metadata: ObjectMeta = field(factory=ObjectMeta)
    spec: WorkloadSpec = field(factory=WorkloadSpec)


@frozen
class StatefulSet:
    """An `apps/v1` StatefulSet."""

    metadata: ObjectMeta = field(factory=ObjectMeta)
    spec: WorkloadSpec = field(factory=WorkloadSpec)


Controller = ReplicationController | ReplicaSet | StatefulSet
"""A controller whose pods PodTopologySpread's default constraints spread."""
Workload = Service | Controller
"""Any object of this module."""
