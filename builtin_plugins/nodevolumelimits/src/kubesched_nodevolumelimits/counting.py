"""Which CSI volumes a pod attaches: `driver/handle` -> driver (upstream's
filterAttachableVolumes).

A claim bound to a CSI volume counts as that volume; a claim bound to an in-tree volume
counts as the CSI volume migration makes of it, when migration is on for that plugin on the
node; an unbound claim (or one bound to a volume that is not there yet) counts as a volume
its StorageClass's provisioner would create (an in-tree provisioner standing for its CSI
driver), under a handle no real volume has. A generic ephemeral volume is the claim
`<pod>-<volume>`, which must be owned by the pod. An inline in-tree volume (an EBS disk in
the pod spec) counts as its migrated CSI volume.
"""

from __future__ import annotations

from attrs import frozen

from kubesched.api import (
    CSINode,
    PersistentVolume,
    PersistentVolumeClaim,
    Pod,
    Volume,
    claim_class,
    ephemeral_claim_name,
)
from kubesched.framework import ClusterClient
from kubesched_nodevolumelimits.migration import (
    TranslationError,
    inline_plugin,
    is_migration_on,
    plugin_by_name,
    pv_plugin,
)

UNBOUND_HANDLE_PREFIX = "kubesched-unbound-claim"
"""Where upstream uses a random prefix per plugin: a handle no CSI driver hands out."""


class ClaimNotFoundError(LookupError):
    """A claim of the pod to schedule is missing: it cannot run until the claim exists."""


@frozen
class NotOwnedError(Exception):
    """A generic ephemeral volume's claim exists but was not created for this pod."""

    message: str


@frozen
class InlineTranslationError(Exception):
    """An inline in-tree volume the translation library refuses."""

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


def may_attach(pod: Pod) -> bool:
    """Whether any volume of the pod could count: a claim, a generic ephemeral volume, or an
    inline volume of an in-tree plugin CSI migration knows (upstream's PreFilter test)."""
    return any(
        v.persistent_volume_claim is not None or v.ephemeral is not None or inline_plugin(v)
        for v in pod.spec.volumes
    )


def _owned_by(pvc: PersistentVolumeClaim, pod: Pod) -> bool:
    return any(ref.controller and ref.uid == pod.uid for ref in pvc.metadata.owner_references)


def _migrated(csi_node: CSINode | None, pv: PersistentVolume) -> tuple[str, str]:
    """The CSI driver and handle of an in-tree volume; ("", "") when it is not counted."""
    plugin = pv_plugin(pv)
    if plugin is None or not is_migration_on(csi_node, plugin.name):
        return "", ""
    try:
        handle = plugin.pv_handle(pv)
    except TranslationError:
        return "", ""
    return (plugin.driver, handle) if handle else ("", "")


def _from_class(
    client: ClusterClient, csi_node: CSINode | None, pvc: PersistentVolumeClaim
) -> tuple[str, str]:
    """The driver a claim's StorageClass provisions with, under a handle of its own."""
    class_name = claim_class(pvc)
    if not class_name:
        return "", ""
    storage_class = client.get_storage_class(class_name)
    if storage_class is None:
        return "", ""
    handle = f"{UNBOUND_HANDLE_PREFIX}-{pvc.metadata.namespace}/{pvc.metadata.name}"
    provisioner = storage_class.provisioner
    in_tree = plugin_by_name(provisioner)
    if in_tree is None:
        return provisioner, handle
    if not is_migration_on(csi_node, in_tree.name):
        return "", ""
    return in_tree.driver, handle


def _driver_and_handle(
    client: ClusterClient, csi_node: CSINode | None, pvc: PersistentVolumeClaim
) -> tuple[str, str]:
    """The CSI driver and volume handle of a claim; ("", "") when it is not counted."""
    if pvc.spec.volume_name:
        volume = client.get_persistent_volume(pvc.spec.volume_name)
        if volume is not None:
            csi = volume.spec.csi
            if csi is None:
                return _migrated(csi_node, volume)
            return csi.driver, csi.volume_handle
    return _from_class(client, csi_node, pvc)


def _inline(csi_node: CSINode | None, volume: Volume) -> tuple[str, str]:
    """The CSI driver and handle of a migrated inline volume; ("", "") when not counted."""
    plugin = inline_plugin(volume)
    if plugin is None or not is_migration_on(csi_node, plugin.name):
        return "", ""
    try:
        handle = plugin.inline_handle(volume)
    except TranslationError as err:
        raise InlineTranslationError(
            f"converting volume({volume.name}) from inline to csi: {err}"
        ) from None
    return (plugin.driver, handle) if handle else ("", "")


def attachable_volumes(
    client: ClusterClient, pod: Pod, csi_node: CSINode | None, *, new_pod: bool
) -> dict[str, str]:
    """`driver/handle` -> driver for the pod's CSI volumes on a node with this CSINode.

    For the pod to schedule (`new_pod`), a missing claim raises ClaimNotFoundError;
    for a pod already on the node it is not counted.
    """
    found: dict[str, str] = {}
    namespace = pod.metadata.namespace
    for volume in pod.spec.volumes:
        if volume.persistent_volume_claim is not None:
            name, ephemeral = volume.persistent_volume_claim.claim_name, False
        elif volume.ephemeral is not None:
            name, ephemeral = ephemeral_claim_name(pod.metadata.name, volume), True
        else:
            driver, handle = _inline(csi_node, volume)
            if driver and handle:
                found[f"{driver}/{handle}"] = driver
            continue
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
        driver, handle = _driver_and_handle(client, csi_node, pvc)
        if driver and handle:
            found[f"{driver}/{handle}"] = driver
    return found
