"""The in-memory cluster: the embedded backend `simulate` and the tests run against.

It holds nodes, pods, PodDisruptionBudgets, PriorityClasses, Namespaces, the
storage objects (`InMemoryStorage`), the dynamic-resource objects and the
resource-claim controller (`InMemoryResources`) and the workloads that select pods
(Services, ReplicationControllers, ReplicaSets, StatefulSets; read-only), plays the API
server's part (priority admission, binding, deletion, status patches) and
records every change as a plain (old, new) pair, as a watch would deliver it:
(None, new) for an added object, (old, None) for a deleted one. The scheduler
takes the changes between cycles (`take_changes`), so nothing it keeps is
updated while a plugin runs.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from attrs import evolve

from kubesched.api import (
    ClusterObjects,
    Controller,
    CSINode,
    Namespace,
    Node,
    PersistentVolume,
    PersistentVolumeClaim,
    Pod,
    PodCondition,
    PodDisruptionBudget,
    PriorityClass,
    Service,
    StorageClass,
    VolumeAttachment,
    Workload,
)
from kubesched.cluster.admission import (
    admit_priority,
    admit_scheduling_gates,
    priority_classes_by_name,
)
from kubesched.cluster.resources import InMemoryResources, ResourceObject
from kubesched.cluster.storage import InMemoryStorage
from kubesched.errors import InputError, KubeschedError


class ClusterError(KubeschedError):
    """A request the API server would refuse (missing object, conflicting binding)."""


Change = tuple[Any, Any]
"""An object before and after a change: (None, new) added, (old, None) deleted."""


class InMemoryCluster(InMemoryStorage, InMemoryResources):
    """Nodes and pods in memory; implements the scheduler's `ClusterClient`."""

    def __init__(
        self,
        *,
        nodes: Iterable[Node] = (),
        pods: Iterable[Pod] = (),
        pod_disruption_budgets: Iterable[PodDisruptionBudget] = (),
        priority_classes: Iterable[PriorityClass] = (),
        persistent_volumes: Iterable[PersistentVolume] = (),
        persistent_volume_claims: Iterable[PersistentVolumeClaim] = (),
        storage_classes: Iterable[StorageClass] = (),
        csi_nodes: Iterable[CSINode] = (),
        volume_attachments: Iterable[VolumeAttachment] = (),
        namespaces: Iterable[Namespace] = (),
        workloads: Iterable[Workload] = (),
        resources: Iterable[ResourceObject] = (),
    ) -> None:
        self._priority_classes = priority_classes_by_name(priority_classes)
        self._pdbs = list(pod_disruption_budgets)
        self._namespaces = list(namespaces)
        self._services: dict[str, list[Service]] = {}
        self._controllers: dict[tuple[str, str, str], Controller] = {}
        for workload in workloads:
            meta = workload.metadata
            if isinstance(workload, Service):
                self._services.setdefault(meta.namespace, []).append(workload)
            else:
                self._controllers[type(workload).__name__, meta.namespace, meta.name] = workload
        self._nodes: dict[str, Node] = {}
        self._pods: dict[str, Pod] = {}
        self._changes: list[Change] = []
        self._init_storage(
            persistent_volumes,
            persistent_volume_claims,
            storage_classes,
            csi_nodes,
            volume_attachments,
        )
        self._init_resources(resources)
        for node in nodes:
            self.add_node(node)
        for pod in pods:
            self.add_pod(pod)

    @classmethod
    def of(cls, objects: ClusterObjects) -> InMemoryCluster:
        """The cluster a set of manifests describes (`load_manifests`)."""
        return cls(
            nodes=objects.nodes,
            pods=objects.pods,
            pod_disruption_budgets=objects.pod_disruption_budgets,
            priority_classes=objects.priority_classes,
            persistent_volumes=objects.persistent_volumes,
            persistent_volume_claims=objects.persistent_volume_claims,
            storage_classes=objects.storage_classes,
            csi_nodes=objects.csi_nodes,
            volume_attachments=objects.volume_attachments,
            namespaces=objects.namespaces,
            workloads=objects.workloads,
            resources=[
                *objects.device_classes,
                *objects.resource_claim_templates,
                *objects.resource_claims,
                *objects.resource_slices,
            ],
        )

    # -- reading -------------------------------------------------------------------------

    def nodes(self) -> list[Node]:
        return list(self._nodes.values())

    def pods(self) -> list[Pod]:
        """Every pod, in the order they were added."""
        return list(self._pods.values())

    def get_node(self, name: str) -> Node | None:
        return self._nodes.get(name)

    def get_pod(self, uid: str) -> Pod | None:
        return self._pods.get(uid)

    def pod_disruption_budgets(self) -> Sequence[PodDisruptionBudget]:
        return self._pdbs

    def namespaces(self) -> Sequence[Namespace]:
        return self._namespaces

    def services(self, namespace: str) -> Sequence[Service]:
        return self._services.get(namespace, ())

    def controller(self, kind: str, namespace: str, name: str) -> Controller | None:
        return self._controllers.get((kind, namespace, name))

    def take_changes(self) -> list[Change]:
        """Every change since the last call, oldest first."""
        changes, self._changes = self._changes, []
        return changes

    def _emit(self, old: Any, new: Any) -> None:
        self._changes.append((old, new))

    # -- nodes ---------------------------------------------------------------------------

    def add_node(self, node: Node) -> None:
        if node.name in self._nodes:
            raise ClusterError(f'nodes "{node.name}" already exists')
        self._nodes[node.name] = node
        self._emit(None, node)

    def update_node(self, node: Node) -> None:
        old = self._require_node(node.name)
        self._nodes[node.name] = node
        self._emit(old, node)

    def delete_node(self, name: str) -> None:
        old = self._require_node(name)
        del self._nodes[name]
        self._emit(old, None)

    def _require_node(self, name: str) -> Node:
        node = self._nodes.get(name)
        if node is None:
            raise ClusterError(f'nodes "{name}" not found')
        return node

    # -- pods ----------------------------------------------------------------------------

    def add_pod(self, pod: Pod) -> Pod:
        """Create a pod (priority and scheduling-gate admission applied); returns it as
        stored."""
        if pod.uid in self._pods:
            raise InputError(f"pod uid {pod.uid} is already used", obj=f"Pod {pod.key}")
        pod = admit_scheduling_gates(admit_priority(pod, self._priority_classes))
        if pod.spec.resource_claims:
            pod = self._claims_for_new_pod(pod)
        self._pods[pod.uid] = pod
        self._emit(None, pod)
        return pod

    def _require_pod(self, pod: Pod) -> Pod:
        live = self._pods.get(pod.uid)
        if live is None:
            raise ClusterError(f'pods "{pod.metadata.name}" not found')
        return live

    def bind(self, pod: Pod, node_name: str) -> None:
        """Set `spec.nodeName` (the Binding subresource)."""
        live = self._require_pod(pod)
        if live.spec.node_name:
            raise ClusterError(
                f'pod {live.key} is already assigned to node "{live.spec.node_name}"'
            )
        bound = evolve(live, spec=evolve(live.spec, node_name=node_name))
        self._pods[pod.uid] = bound
        self._emit(live, bound)

    def delete_pod(self, pod: Pod, reason: str = "") -> None:
        """Delete the pod (a preemption victim, usually)."""
        live = self._require_pod(pod)
        del self._pods[pod.uid]
        self._emit(live, None)
        if live.spec.resource_claims:
            self._release_claims_of(live)

    def update_pod_status(
        self,
        pod: Pod,
        *,
        condition: PodCondition | None = None,
        nominated_node_name: str | None = None,
    ) -> Pod:
        """Patch a condition (replacing one of the same type) and/or `status.nominatedNodeName`."""
        live = self._require_pod(pod)
        status = live.status
        if condition is not None:
            others = [c for c in status.conditions if c.type != condition.type]
            status = evolve(status, conditions=[*others, condition])
        if nominated_node_name is not None:
            status = evolve(status, nominated_node_name=nominated_node_name)
        if status == live.status:
            return live
        updated = evolve(live, status=status)
        self._pods[pod.uid] = updated
        self._emit(live, updated)
        return updated
