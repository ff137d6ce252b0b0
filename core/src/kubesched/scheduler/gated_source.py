"""The cluster as the scheduler sees it under its feature gates.

With PodLevelResources off, kube-scheduler ignores a pod's `spec.resources`
(its resource helpers skip pod-level requests and limits), so filtering,
scoring, preemption and the node summary count only the containers. Here the
scheduler is handed a view of the cluster whose pods carry no pod-level
resources: every reader of a pod's requests then agrees, with no cost when
the gate is on (the cluster itself is returned).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from attrs import evolve

from kubesched.api import (
    Controller,
    CSINode,
    Namespace,
    Node,
    PersistentVolume,
    PersistentVolumeClaim,
    Pod,
    PodCondition,
    PodDisruptionBudget,
    Service,
    StorageClass,
    VolumeAttachment,
)
from kubesched.features import POD_LEVEL_RESOURCES, FeatureGates
from kubesched.scheduler.source import ClusterSource, ObjectChange


def without_pod_level_resources(obj: Any) -> Any:
    """A pod without `spec.resources`; any other object (or None) unchanged."""
    if isinstance(obj, Pod) and obj.spec.resources is not None:
        return evolve(obj, spec=evolve(obj.spec, resources=None))
    return obj


class _WithoutPodLevelResources:
    """A ClusterSource whose pods have no pod-level resources; the rest passes through."""

    def __init__(self, cluster: ClusterSource) -> None:
        self.inner = cluster

    def __getattr__(self, name: str) -> Any:
        """Readers this view does not name (the resource.k8s.io listers) pass through."""
        return getattr(self.inner, name)

    def nodes(self) -> Sequence[Node]:
        return self.inner.nodes()

    def pods(self) -> Sequence[Pod]:
        return [without_pod_level_resources(p) for p in self.inner.pods()]

    def get_pod(self, uid: str) -> Pod | None:
        pod = self.inner.get_pod(uid)
        return None if pod is None else without_pod_level_resources(pod)

    def take_changes(self) -> Sequence[ObjectChange]:
        strip = without_pod_level_resources
        return [(strip(old), strip(new)) for old, new in self.inner.take_changes()]

    def bind(self, pod: Pod, node_name: str) -> None:
        self.inner.bind(pod, node_name)

    def delete_pod(self, pod: Pod, reason: str = "") -> None:
        self.inner.delete_pod(pod, reason)

    def update_pod_status(
        self,
        pod: Pod,
        *,
        condition: PodCondition | None = None,
        nominated_node_name: str | None = None,
    ) -> Pod:
        new = self.inner.update_pod_status(
            pod, condition=condition, nominated_node_name=nominated_node_name
        )
        return without_pod_level_resources(new)  # type: ignore[no-any-return]

    def pod_disruption_budgets(self) -> Sequence[PodDisruptionBudget]:
        return self.inner.pod_disruption_budgets()

    def namespaces(self) -> Sequence[Namespace]:
        return self.inner.namespaces()

    def services(self, namespace: str) -> Sequence[Service]:
        return self.inner.services(namespace)

    def controller(self, kind: str, namespace: str, name: str) -> Controller | None:
        return self.inner.controller(kind, namespace, name)

    def persistent_volumes(self) -> Sequence[PersistentVolume]:
        return self.inner.persistent_volumes()

    def get_persistent_volume(self, name: str) -> PersistentVolume | None:
        return self.inner.get_persistent_volume(name)

    def get_persistent_volume_claim(
        self, namespace: str, name: str
    ) -> PersistentVolumeClaim | None:
        return self.inner.get_persistent_volume_claim(namespace, name)

    def get_storage_class(self, name: str) -> StorageClass | None:
        return self.inner.get_storage_class(name)

    def get_csi_node(self, name: str) -> CSINode | None:
        return self.inner.get_csi_node(name)

    def volume_attachments(self) -> Sequence[VolumeAttachment]:
        return self.inner.volume_attachments()


def gated_source(cluster: ClusterSource, feature_gates: FeatureGates) -> ClusterSource:
    """`cluster` as a scheduler with these gates reads it."""
    if feature_gates.enabled(POD_LEVEL_RESOURCES):
        return cluster
    return _WithoutPodLevelResources(cluster)
