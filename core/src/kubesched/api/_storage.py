"""Storage objects the volume plugins read: PersistentVolume, PersistentVolumeClaim,
StorageClass, CSINode and VolumeAttachment.

Only the fields the scheduler reads are modelled. API-server defaults that the
plugins depend on are the classes' defaults (a StorageClass binds `Immediate`,
volumes are `Filesystem`, a volume is `Retain`ed).
"""

from __future__ import annotations

from attrs import field, frozen

from kubesched.api._meta import ObjectMeta
from kubesched.api._pod import NodeSelector
from kubesched.api._resources import ResourceList
from kubesched.api._volumes import (
    BETA_STORAGE_CLASS_ANNOTATION,
    BINDING_IMMEDIATE,
    VOLUME_FILESYSTEM,
    AWSElasticBlockStoreVolumeSource,
    AzureDiskVolumeSource,
    AzureFileVolumeSource,
    CinderVolumeSource,
    GCEPersistentDiskVolumeSource,
    PersistentVolumeClaimSpec,
    PortworxVolumeSource,
    VsphereVirtualDiskVolumeSource,
)

MIGRATED_PLUGINS_ANNOTATION = "storage.alpha.kubernetes.io/migrated-plugins"
"""On a CSINode: the in-tree plugins (comma-separated) whose volumes its CSI drivers serve."""
ANN_BIND_COMPLETED = "pv.kubernetes.io/bind-completed"
"""Set on a claim once the PV controller completed its binding."""
ANN_SELECTED_NODE = "volume.kubernetes.io/selected-node"
"""Set on a claim by the scheduler: provision its volume for this node."""
PHASE_AVAILABLE, PHASE_BOUND = "Available", "Bound"
NO_PROVISIONER = "kubernetes.io/no-provisioner"
"""The provisioner of classes whose volumes are only ever created by hand."""

# -- PersistentVolumeClaim ------------------------------------------------------------


@frozen
class PersistentVolumeClaimStatus:
    """Phase (Pending, Bound, Lost), granted access modes and capacity."""

    phase: str = ""
    access_modes: list[str] = field(factory=list)
    capacity: ResourceList = field(factory=dict)


@frozen
class PersistentVolumeClaim:
    """A `v1` PersistentVolumeClaim (namespaced)."""

    metadata: ObjectMeta = field(factory=ObjectMeta)
    spec: PersistentVolumeClaimSpec = field(factory=PersistentVolumeClaimSpec)
    status: PersistentVolumeClaimStatus = field(factory=PersistentVolumeClaimStatus)

    @property
    def key(self) -> str:
        return f"{self.metadata.namespace}/{self.metadata.name}"


# -- PersistentVolume -----------------------------------------------------------------


@frozen
class ObjectReference:
    """A reference to another object (a PV's `claimRef`)."""

    kind: str = ""
    namespace: str = ""
    name: str = ""
    uid: str = ""
    api_version: str = ""


@frozen
class VolumeNodeAffinity:
    """The nodes a volume can be reached from."""

    required: NodeSelector | None = None


@frozen
class CSIPersistentVolumeSource:
    """A volume served by a CSI driver."""

    driver: str = ""
    volume_handle: str = ""
    read_only: bool = False


@frozen
class PersistentVolumeSpec:
    """The subset of a volume's spec the scheduler reads."""

    capacity: ResourceList = field(factory=dict)
    access_modes: list[str] = field(factory=list)
    claim_ref: ObjectReference | None = None
    persistent_volume_reclaim_policy: str = "Retain"
    storage_class_name: str = ""
    node_affinity: VolumeNodeAffinity | None = None
    volume_mode: str = VOLUME_FILESYSTEM
    csi: CSIPersistentVolumeSource | None = None
    aws_elastic_block_store: AWSElasticBlockStoreVolumeSource | None = None
    gce_persistent_disk: GCEPersistentDiskVolumeSource | None = None
    azure_disk: AzureDiskVolumeSource | None = None
    azure_file: AzureFileVolumeSource | None = None
    cinder: CinderVolumeSource | None = None
    vsphere_volume: VsphereVirtualDiskVolumeSource | None = None
    portworx_volume: PortworxVolumeSource | None = None


@frozen
class PersistentVolumeStatus:
    """Phase: Pending, Available, Bound, Released, Failed."""

    phase: str = ""


@frozen
class PersistentVolume:
    """A `v1` PersistentVolume (cluster-scoped)."""

    metadata: ObjectMeta = field(factory=ObjectMeta)
    spec: PersistentVolumeSpec = field(factory=PersistentVolumeSpec)
    status: PersistentVolumeStatus = field(factory=PersistentVolumeStatus)


# -- StorageClass and CSINode ---------------------------------------------------------


@frozen
class TopologySelectorLabelRequirement:
    """A topology label and the values it may take."""

    key: str = ""
    values: list[str] = field(factory=list)


@frozen
class TopologySelectorTerm:
    """Requirements ANDed together; a class's terms are ORed."""

    match_label_expressions: list[TopologySelectorLabelRequirement] = field(factory=list)


@frozen
class StorageClass:
    """A `storage.k8s.io/v1` StorageClass (cluster-scoped)."""

    metadata: ObjectMeta = field(factory=ObjectMeta)
    provisioner: str = ""
    parameters: dict[str, str] = field(factory=dict)
    reclaim_policy: str = "Delete"
    volume_binding_mode: str = BINDING_IMMEDIATE
    allowed_topologies: list[TopologySelectorTerm] = field(factory=list)


@frozen
class VolumeNodeResources:
    """How many volumes of a driver a node can attach (`count`; None = no limit)."""

    count: int | None = None


@frozen
class CSINodeDriver:
    """A CSI driver on a node and its limits."""

    name: str = ""
    topology_keys: list[str] = field(factory=list)
    allocatable: VolumeNodeResources | None = None


@frozen
class CSINodeSpec:
    """The CSI drivers installed on the node."""

    drivers: list[CSINodeDriver] = field(factory=list)


@frozen
class CSINode:
    """A `storage.k8s.io/v1` CSINode, named after its node."""

    metadata: ObjectMeta = field(factory=ObjectMeta)
    spec: CSINodeSpec = field(factory=CSINodeSpec)


# -- VolumeAttachment ------------------------------------------------------------------


@frozen
class VolumeAttachmentSource:
    """What is attached: a PersistentVolume by name, or an inline volume's (migrated) spec."""

    persistent_volume_name: str | None = None
    inline_volume_spec: PersistentVolumeSpec | None = None


@frozen
class VolumeAttachmentSpec:
    """The CSI driver that attaches (`attacher`), the volume and the node."""

    attacher: str = ""
    source: VolumeAttachmentSource = field(factory=VolumeAttachmentSource)
    node_name: str = ""


@frozen
class VolumeAttachmentStatus:
    """Whether the attach operation completed."""

    attached: bool = False


@frozen
class VolumeAttachment:
    """A `storage.k8s.io/v1` VolumeAttachment (cluster-scoped): the attach/detach
    controller's record that a volume is (being) attached to a node."""

    metadata: ObjectMeta = field(factory=ObjectMeta)
    spec: VolumeAttachmentSpec = field(factory=VolumeAttachmentSpec)
    status: VolumeAttachmentStatus = field(factory=VolumeAttachmentStatus)


def claim_class(pvc: PersistentVolumeClaim) -> str:
    """The claim's storage class: the beta annotation if set, else the spec ("" for none)."""
    annotated = pvc.metadata.annotations.get(BETA_STORAGE_CLASS_ANNOTATION)
    if annotated is not None:
        return annotated
    return pvc.spec.storage_class_name or ""


def volume_class(pv: PersistentVolume) -> str:
    """The volume's storage class: the beta annotation if set, else the spec."""
    annotated = pv.metadata.annotations.get(BETA_STORAGE_CLASS_ANNOTATION)
    if annotated is not None:
        return annotated
    return pv.spec.storage_class_name


def is_claim_bound(pvc: PersistentVolumeClaim) -> bool:
    """Fully bound: a volume named and the binding completed (upstream's isPVCFullyBound)."""
    return bool(pvc.spec.volume_name) and ANN_BIND_COMPLETED in pvc.metadata.annotations
