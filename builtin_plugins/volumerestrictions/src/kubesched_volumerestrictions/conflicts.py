"""When two pods' volumes cannot share a node: the in-tree disks upstream still checks.

- a GCE persistent disk: the same `pdName`, unless both mount it read-only;
- an AWS EBS volume: the same `volumeID`, always;
- an iSCSI disk: the same `iqn`, unless both mount it read-only;
- a Ceph RBD image: a shared monitor, the same pool and image, unless both are read-only.
"""

from __future__ import annotations

from kubesched.api import Pod, Volume


def needs_check(volume: Volume) -> bool:
    """Is this one of the volume types that can conflict?"""
    return (
        volume.gce_persistent_disk is not None
        or volume.aws_elastic_block_store is not None
        or volume.rbd is not None
        or volume.iscsi is not None
    )


def _conflict(volume: Volume, existing: Volume) -> bool:
    gce, other_gce = volume.gce_persistent_disk, existing.gce_persistent_disk
    if gce is not None and other_gce is not None:  # noqa: SIM102
        if gce.pd_name == other_gce.pd_name and not (gce.read_only and other_gce.read_only):
            return True
    ebs, other_ebs = volume.aws_elastic_block_store, existing.aws_elastic_block_store
    if ebs is not None and other_ebs is not None and ebs.volume_id == other_ebs.volume_id:
        return True
    iscsi, other_iscsi = volume.iscsi, existing.iscsi
    if iscsi is not None and other_iscsi is not None:  # noqa: SIM102
        if iscsi.iqn == other_iscsi.iqn and not (iscsi.read_only and other_iscsi.read_only):
            return True
    rbd, other_rbd = volume.rbd, existing.rbd
    if rbd is not None and other_rbd is not None:
        same_image = (
            not set(rbd.monitors).isdisjoint(other_rbd.monitors)
            and rbd.pool == other_rbd.pool
            and rbd.image == other_rbd.image
        )
        if same_image and not (rbd.read_only and other_rbd.read_only):
            return True
    return False


def conflicts_with(volume: Volume, pod: Pod) -> bool:
    """Does `volume` conflict with any volume of `pod`?"""
    return any(_conflict(volume, existing) for existing in pod.spec.volumes)


def pod_conflicts(pod: Pod, others: list[Pod]) -> bool:
    """Does any checked volume of `pod` conflict with a volume of one of `others`?"""
    checked = [v for v in pod.spec.volumes if needs_check(v)]
    return any(conflicts_with(v, other) for v in checked for other in others)


def claim_names(pod: Pod) -> set[str]:
    """The claims the pod's `persistentVolumeClaim` volumes name."""
    return {
        v.persistent_volume_claim.claim_name
        for v in pod.spec.volumes
        if v.persistent_volume_claim is not None
    }
