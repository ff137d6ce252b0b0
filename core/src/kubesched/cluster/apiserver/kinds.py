"""The kinds `kubesched run` follows, one table row each: where they live on the API
server and which `kubesched.api` class they become.

Following one more kind is one more row (and its class in `kubesched.api`).
Pods are watched as upstream's scheduler watches them: every pod not yet
Succeeded or Failed, pending and bound alike, so a pod's binding arrives as one
update of one stream.
"""

from __future__ import annotations

from typing import Any

from attrs import frozen

from kubesched.api import (
    CSINode,
    DeviceClass,
    Namespace,
    Node,
    PersistentVolume,
    PersistentVolumeClaim,
    Pod,
    PodDisruptionBudget,
    PriorityClass,
    ReplicaSet,
    ReplicationController,
    ResourceClaim,
    ResourceSlice,
    Service,
    StatefulSet,
    StorageClass,
    VolumeAttachment,
)


@frozen
class Kind:
    """A kind to list and watch."""

    name: str
    group_version: str
    plural: str
    model: type[Any]
    namespaced: bool
    field_selector: str = ""

    def key(self, raw: Any) -> str:
        """The store key of a raw object: `namespace/name`, or `name`."""
        meta = raw.get("metadata") or {}
        name = str(meta.get("name", ""))
        return f"{meta.get('namespace', '')}/{name}" if self.namespaced else name


NODES = Kind("Node", "v1", "nodes", Node, namespaced=False)
PODS = Kind(
    "Pod",
    "v1",
    "pods",
    Pod,
    namespaced=True,
    field_selector="status.phase!=Succeeded,status.phase!=Failed",
)
PDBS = Kind("PodDisruptionBudget", "policy/v1", "poddisruptionbudgets", PodDisruptionBudget, True)
PRIORITY_CLASSES = Kind(
    "PriorityClass", "scheduling.k8s.io/v1", "priorityclasses", PriorityClass, False
)
SERVICES = Kind("Service", "v1", "services", Service, True)
REPLICATION_CONTROLLERS = Kind(
    "ReplicationController", "v1", "replicationcontrollers", ReplicationController, True
)
REPLICA_SETS = Kind("ReplicaSet", "apps/v1", "replicasets", ReplicaSet, True)
STATEFUL_SETS = Kind("StatefulSet", "apps/v1", "statefulsets", StatefulSet, True)
WORKLOADS = (SERVICES, REPLICATION_CONTROLLERS, REPLICA_SETS, STATEFUL_SETS)
"""What PodTopologySpread's default selector reads."""

PERSISTENT_VOLUMES = Kind("PersistentVolume", "v1", "persistentvolumes", PersistentVolume, False)
PERSISTENT_VOLUME_CLAIMS = Kind(
    "PersistentVolumeClaim", "v1", "persistentvolumeclaims", PersistentVolumeClaim, True
)
STORAGE_CLASSES = Kind("StorageClass", "storage.k8s.io/v1", "storageclasses", StorageClass, False)
CSI_NODES = Kind("CSINode", "storage.k8s.io/v1", "csinodes", CSINode, False)
VOLUME_ATTACHMENTS = Kind(
    "VolumeAttachment", "storage.k8s.io/v1", "volumeattachments", VolumeAttachment, False
)
STORAGE_KINDS = (
    PERSISTENT_VOLUMES,
    PERSISTENT_VOLUME_CLAIMS,
    STORAGE_CLASSES,
    CSI_NODES,
    VOLUME_ATTACHMENTS,
)
"""What the volume plugins read."""

RESOURCE_API = "resource.k8s.io/v1"
DEVICE_CLASSES = Kind("DeviceClass", RESOURCE_API, "deviceclasses", DeviceClass, False)
RESOURCE_CLAIMS = Kind("ResourceClaim", RESOURCE_API, "resourceclaims", ResourceClaim, True)
RESOURCE_SLICES = Kind("ResourceSlice", RESOURCE_API, "resourceslices", ResourceSlice, False)
DRA_KINDS = (DEVICE_CLASSES, RESOURCE_CLAIMS, RESOURCE_SLICES)
"""What DynamicResources reads. ResourceClaimTemplates are not among them: the
resource-claim controller makes a pod's claims from them, the scheduler waits for the claims
(upstream's system:kube-scheduler role may not even read templates)."""

NAMESPACES = Kind("Namespace", "v1", "namespaces", Namespace, namespaced=False)
"""Followed only when asked for (`kinds=`): pod affinity's namespaceSelector reads them."""

KINDS: tuple[Kind, ...] = (NODES, PODS, PDBS, *STORAGE_KINDS, *WORKLOADS, *DRA_KINDS)
"""Every kind followed, in the order their first listing is waited for: exactly what upstream's
system:kube-scheduler and system:volume-scheduler roles allow to list and watch (the
resource.k8s.io kinds by the rules the DynamicResourceAllocation gate adds, locked on in
v1.35). PriorityClasses are not among them: admission has put each pod's priority in its spec
already."""
