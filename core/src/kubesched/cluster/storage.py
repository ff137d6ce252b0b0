"""The storage half of the in-memory cluster: PersistentVolumes, claims, StorageClasses,
CSINodes and VolumeAttachments, listed for the volume plugins and updated as the API server
would.

Every change is recorded as an (old, new) pair through the cluster's `_emit`,
like the pods and nodes are, so the scheduler's queue hears of new claims and
volumes between cycles. The cluster also plays the PV controller and the
provisioners (`pv_controller`): claims naming a volume are bound at load, a volume
given a `claimRef` binds its claim, and a claim given a selected node gets a volume.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from kubesched.api import (
    ANN_SELECTED_NODE,
    BINDING_WAIT_FOR_FIRST_CONSUMER,
    NO_PROVISIONER,
    CSINode,
    Node,
    PersistentVolume,
    PersistentVolumeClaim,
    StorageClass,
    VolumeAttachment,
    claim_class,
)
from kubesched.cluster.pv_controller import (
    bind_pair,
    claims_volume,
    is_bound,
    provisioned_volume,
    volume_phase,
)
from kubesched.errors import KubeschedError


class StorageError(KubeschedError):
    """A storage write the API server would refuse (unknown or duplicate object)."""


class InMemoryStorage:
    """PVs, PVCs, StorageClasses, CSINodes and VolumeAttachments held in memory (a mixin of
    the cluster)."""

    _pvs: dict[str, PersistentVolume]
    _pvcs: dict[tuple[str, str], PersistentVolumeClaim]
    _classes: dict[str, StorageClass]
    _csi_nodes: dict[str, CSINode]
    _attachments: dict[str, VolumeAttachment]

    def _emit(self, old: Any, new: Any) -> None:
        raise NotImplementedError

    def get_node(self, name: str) -> Node | None:
        raise NotImplementedError

    def _init_storage(
        self,
        persistent_volumes: Iterable[PersistentVolume],
        persistent_volume_claims: Iterable[PersistentVolumeClaim],
        storage_classes: Iterable[StorageClass],
        csi_nodes: Iterable[CSINode],
        volume_attachments: Iterable[VolumeAttachment] = (),
    ) -> None:
        self._pvs = {}
        self._pvcs = {}
        self._classes = {sc.metadata.name: sc for sc in storage_classes}
        self._csi_nodes = {c.metadata.name: c for c in csi_nodes}
        self._attachments = {va.metadata.name: va for va in volume_attachments}
        for pv in persistent_volumes:
            self.create_persistent_volume(volume_phase(pv))
        for pvc in persistent_volume_claims:
            self.create_persistent_volume_claim(pvc)
        for pvc in list(self._pvcs.values()):
            self._complete_binding(pvc)

    # -- listers -------------------------------------------------------------------------

    def persistent_volumes(self) -> Sequence[PersistentVolume]:
        return list(self._pvs.values())

    def persistent_volume_claims(self) -> Sequence[PersistentVolumeClaim]:
        return list(self._pvcs.values())

    def storage_classes(self) -> Sequence[StorageClass]:
        return list(self._classes.values())

    def csi_nodes(self) -> Sequence[CSINode]:
        return list(self._csi_nodes.values())

    def get_persistent_volume(self, name: str) -> PersistentVolume | None:
        return self._pvs.get(name)

    def get_persistent_volume_claim(
        self, namespace: str, name: str
    ) -> PersistentVolumeClaim | None:
        return self._pvcs.get((namespace, name))

    def get_storage_class(self, name: str) -> StorageClass | None:
        return self._classes.get(name)

    def get_csi_node(self, name: str) -> CSINode | None:
        return self._csi_nodes.get(name)

    def volume_attachments(self) -> Sequence[VolumeAttachment]:
        return list(self._attachments.values())

    # -- writes --------------------------------------------------------------------------

    def create_volume_attachment(self, va: VolumeAttachment) -> VolumeAttachment:
        if va.metadata.name in self._attachments:
            raise StorageError(f'volumeattachments "{va.metadata.name}" already exists')
        self._attachments[va.metadata.name] = va
        self._emit(None, va)
        return va

    def delete_volume_attachment(self, name: str) -> None:
        old = self._attachments.pop(name, None)
        if old is None:
            raise StorageError(f'volumeattachments "{name}" not found')
        self._emit(old, None)

    def create_persistent_volume(self, pv: PersistentVolume) -> PersistentVolume:
        if pv.metadata.name in self._pvs:
            raise StorageError(f'persistentvolumes "{pv.metadata.name}" already exists')
        self._pvs[pv.metadata.name] = pv
        self._emit(None, pv)
        return pv

    def update_persistent_volume(self, pv: PersistentVolume) -> PersistentVolume:
        old = self._pvs.get(pv.metadata.name)
        if old is None:
            raise StorageError(f'persistentvolumes "{pv.metadata.name}" not found')
        self._pvs[pv.metadata.name] = pv
        self._emit(old, pv)
        ref = pv.spec.claim_ref
        claim = self._pvcs.get((ref.namespace, ref.name)) if ref is not None else None
        if claim is not None and not is_bound(claim) and claims_volume(pv, claim):
            self._bind(pv, claim)
        return self._pvs[pv.metadata.name]

    def create_persistent_volume_claim(self, pvc: PersistentVolumeClaim) -> PersistentVolumeClaim:
        key = (pvc.metadata.namespace, pvc.metadata.name)
        if key in self._pvcs:
            raise StorageError(f'persistentvolumeclaims "{pvc.metadata.name}" already exists')
        self._pvcs[key] = pvc
        self._emit(None, pvc)
        return pvc

    def update_persistent_volume_claim(self, pvc: PersistentVolumeClaim) -> PersistentVolumeClaim:
        key = (pvc.metadata.namespace, pvc.metadata.name)
        old = self._pvcs.get(key)
        if old is None:
            raise StorageError(f'persistentvolumeclaims "{pvc.metadata.name}" not found')
        self._pvcs[key] = pvc
        self._emit(old, pvc)
        if not is_bound(pvc):
            self._complete_binding(pvc)
        return self._pvcs[key]

    # -- the PV controller and the provisioners --------------------------------------------

    def _bind(self, pv: PersistentVolume, pvc: PersistentVolumeClaim) -> None:
        bound_pv, bound_pvc = bind_pair(pv, pvc)
        old_pv = self._pvs[pv.metadata.name]
        self._pvs[pv.metadata.name] = bound_pv
        self._emit(old_pv, bound_pv)
        key = (pvc.metadata.namespace, pvc.metadata.name)
        old_pvc = self._pvcs[key]
        self._pvcs[key] = bound_pvc
        self._emit(old_pvc, bound_pvc)

    def _complete_binding(self, pvc: PersistentVolumeClaim) -> None:
        """Bind a claim that names a volume reserved for it or free; provision one for a
        claim given a selected node by the scheduler."""
        if pvc.spec.volume_name:
            pv = self._pvs.get(pvc.spec.volume_name)
            if pv is not None and claims_volume(pv, pvc):
                self._bind(pv, pvc)
            return
        node_name = pvc.metadata.annotations.get(ANN_SELECTED_NODE)
        storage_class = self._classes.get(claim_class(pvc))
        if node_name is None or storage_class is None:
            return
        if storage_class.volume_binding_mode != BINDING_WAIT_FOR_FIRST_CONSUMER:
            return
        if storage_class.provisioner in ("", NO_PROVISIONER):
            return
        node = self.get_node(node_name)
        labels = node.metadata.labels if node is not None else {}
        pv = self.create_persistent_volume(
            volume_phase(provisioned_volume(pvc, storage_class, labels))
        )
        self._bind(pv, pvc)
