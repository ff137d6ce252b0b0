"""Which CSI volumes a pod attaches: `driver/handle` -> driver, from its claims.

A claim bound to a CSI volume counts as that volume; an unbound claim (or one bound to a
volume that is not there yet) counts as a volume its StorageClass's provisioner would
create, under a handle no real volume has. A generic ephemeral volume is the claim
`<pod>-<volume>`, which must be owned by the pod.
"""

from __future__ import annotations

from attrs import frozen

from kubesched.api import PersistentVolumeClaim, Pod, claim_class, ephemeral_claim_name
from kubesched.framework import ClusterClient

UNBOUND_HANDLE_PREFIX = "kubesched-unbound-claim"
"""Where upstream uses a random prefix per plugin: a handle no CSI driver hands out."""


class ClaimNotFoundError(LookupError):
    """A claim of the pod to schedule is missing: it cannot run until the claim exists."""


@frozen
class NotOwnedError(Exception):
    """A generic ephemeral volume's claim exists but was not created for this pod."""

    message: str


def claims_of(pod: Pod) -> list[tuple[str, bool]]:
    """(claim name, is generic ephemeral) for each claim-backed volume of the pod."""
    found = []
    for volume in pod.spec.volumes:
        if volume.persistent_volume_claim is not None:
            found.append((volume.persistent_volume_claim.claim_name, False))
        elif volume.ephemeral is not None:
            found.append((ephemeral_claim_name(pod.metadata.name, volume), True))
    return found


def _owned_by(pvc: PersistentVolumeClaim, pod: Pod) -> bool:
    return any(ref.controller and ref.uid == pod.uid for ref in pvc.metadata.owner_references)


def _driver_and_handle(client: ClusterClient, pvc: PersistentVolumeClaim) -> tuple[str, str]:
    """The CSI driver and volume handle of a claim; ("", "") when it is not a CSI volume."""
    if pvc.spec.volume_name:
        volume = client.get_persistent_volume(pvc.spec.volume_name)
        if volume is not None:
            csi = volume.spec.csi
            return (csi.driver, csi.volume_handle) if csi is not None else ("", "")
    class_name = claim_class(pvc)
    if not class_name:
        return "", ""
    storage_class = client.get_storage_class(class_name)
    if storage_class is None:
        return "", ""
    handle = f"{UNBOUND_HANDLE_PREFIX}-{pvc.metadata.namespace}/{pvc.metadata.name}"
    return storage_class.provisioner, handle


def attachable_volumes(client: ClusterClient, pod: Pod, *, new_pod: bool) -> dict[str, str]:
    """`driver/handle` -> driver for the pod's CSI volumes.

    For the pod to schedule (`new_pod`), a missing claim raises ClaimNotFoundError;
    for a pod already on the node it is not counted.
    """
    found: dict[str, str] = {}
    namespace = pod.metadata.namespace
    for name, ephemeral in claims_of(pod):
        pvc = client.get_persistent_volume_claim(namespace, name)
        if pvc is None:
            if new_pod:
                raise ClaimNotFoundError(
                    f'looking up PVC {namespace}/{name}: persistentvolumeclaim "{name}" not found'
                )
            continue
        if ephemeral and not _owned_by(pvc, pod):
            raise NotOwnedError(
                f"PVC {namespace}/{name} was not created for pod {namespace}/"
                f"{pod.metadata.name} (pod is not owner)"
            )
        driver, handle = _driver_and_handle(client, pvc)
        if driver and handle:
            found[f"{driver}/{handle}"] = driver
    return found
