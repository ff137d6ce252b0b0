"""The kubesched.api classes the fake API server creates from, and where they live."""

from __future__ import annotations

from kubesched.api import (
    CSINode,
    DeviceClass,
    Node,
    PersistentVolume,
    PersistentVolumeClaim,
    Pod,
    PodDisruptionBudget,
    PriorityClass,
    ResourceClaim,
    ResourceClaimTemplate,
    ResourceSlice,
    StorageClass,
    VolumeAttachment,
)

KINDS: dict[type, tuple[str, str, str]] = {
    Node: ("v1", "nodes", "Node"),
    Pod: ("v1", "pods", "Pod"),
    PodDisruptionBudget: ("policy/v1", "poddisruptionbudgets", "PodDisruptionBudget"),
    PriorityClass: ("scheduling.k8s.io/v1", "priorityclasses", "PriorityClass"),
    PersistentVolume: ("v1", "persistentvolumes", "PersistentVolume"),
    PersistentVolumeClaim: ("v1", "persistentvolumeclaims", "PersistentVolumeClaim"),
    StorageClass: ("storage.k8s.io/v1", "storageclasses", "StorageClass"),
    CSINode: ("storage.k8s.io/v1", "csinodes", "CSINode"),
    VolumeAttachment: ("storage.k8s.io/v1", "volumeattachments", "VolumeAttachment"),
    DeviceClass: ("resource.k8s.io/v1", "deviceclasses", "DeviceClass"),
    ResourceClaim: ("resource.k8s.io/v1", "resourceclaims", "ResourceClaim"),
    ResourceClaimTemplate: (
        "resource.k8s.io/v1",
        "resourceclaimtemplates",
        "ResourceClaimTemplate",
    ),
    ResourceSlice: ("resource.k8s.io/v1", "resourceslices", "ResourceSlice"),
}
NAMESPACED = frozenset(
    {
        "Pod",
        "PodDisruptionBudget",
        "PersistentVolumeClaim",
        "ResourceClaim",
        "ResourceClaimTemplate",
    }
)
