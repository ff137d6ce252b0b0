"""Builders for VolumeBinding tests: classes, claims and volumes as upstream's tests make them."""

from __future__ import annotations

from kubesched.api import (
    ANN_BIND_COMPLETED,
    BINDING_IMMEDIATE,
    BINDING_WAIT_FOR_FIRST_CONSUMER,
    NodeSelector,
    NodeSelectorRequirement,
    NodeSelectorTerm,
    ObjectMeta,
    ObjectReference,
    PersistentVolume,
    PersistentVolumeClaim,
    PersistentVolumeClaimSpec,
    PersistentVolumeSpec,
    PersistentVolumeStatus,
    Pod,
    ResourceRequirementsForClaim,
    StorageClass,
    TopologySelectorLabelRequirement,
    TopologySelectorTerm,
    VolumeNodeAffinity,
)
from kubesched.testing import make_pod

GI = 1024**3
WAIT_SC = StorageClass(
    ObjectMeta(name="wait-sc"),
    provisioner="kubernetes.io/no-provisioner",
    volume_binding_mode=BINDING_WAIT_FOR_FIRST_CONSUMER,
)
WAIT_HDD_SC = StorageClass(
    ObjectMeta(name="wait-hdd-sc"),
    provisioner="kubernetes.io/no-provisioner",
    volume_binding_mode=BINDING_WAIT_FOR_FIRST_CONSUMER,
)
IMMEDIATE_SC = StorageClass(
    ObjectMeta(name="immediate-sc"), provisioner="p", volume_binding_mode=BINDING_IMMEDIATE
)
ZONE = "topology.kubernetes.io/zone"


def provisioning_class(name: str, *zones: str) -> StorageClass:
    topologies = [TopologySelectorTerm([TopologySelectorLabelRequirement(ZONE, list(zones))])]
    return StorageClass(
        ObjectMeta(name=name),
        provisioner="ebs.csi.aws.com",
        volume_binding_mode=BINDING_WAIT_FOR_FIRST_CONSUMER,
        allowed_topologies=topologies if zones else [],
    )


def claim(
    name: str,
    class_name: str,
    size: int = GI,
    volume: str = "",
    modes: tuple[str, ...] = ("ReadWriteOnce",),
) -> PersistentVolumeClaim:
    annotations = {ANN_BIND_COMPLETED: "yes"} if volume else {}
    return PersistentVolumeClaim(
        ObjectMeta(name=name, namespace="default", uid=f"uid-{name}", annotations=annotations),
        PersistentVolumeClaimSpec(
            access_modes=list(modes),
            storage_class_name=class_name,
            volume_name=volume,
            resources=ResourceRequirementsForClaim(requests={"storage": size}),
        ),
    )


def volume(
    name: str,
    class_name: str,
    size: int = GI,
    *,
    zone: str | None = None,
    claim_ref: str | None = None,
    labels: dict[str, str] | None = None,
    phase: str = "Available",
) -> PersistentVolume:
    affinity = (
        VolumeNodeAffinity(
            NodeSelector([NodeSelectorTerm([NodeSelectorRequirement(ZONE, "In", [zone])])])
        )
        if zone
        else None
    )
    ref = (
        ObjectReference(namespace="default", name=claim_ref, uid=f"uid-{claim_ref}")
        if claim_ref
        else None
    )
    return PersistentVolume(
        ObjectMeta(name=name, labels=labels or {}),
        PersistentVolumeSpec(
            capacity={"storage": size},
            access_modes=["ReadWriteOnce"],
            storage_class_name=class_name,
            node_affinity=affinity,
            claim_ref=ref,
        ),
        PersistentVolumeStatus(phase="Bound" if claim_ref else phase),
    )


def pod_with(*claims: str, name: str = "pod-a") -> Pod:
    builder = make_pod(name).namespace("default")
    for c in claims:
        builder = builder.pvc(c)
    return builder.obj()
