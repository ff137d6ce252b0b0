"""Pod volumes the scheduler reads (claims, generic ephemeral volumes, the in-tree disks
VolumeRestrictions checks), and the claim spec they share with PersistentVolumeClaim."""

from __future__ import annotations

from attrs import field, frozen

from kubesched.api._meta import LabelSelector, ObjectMeta
from kubesched.api._resources import ResourceList

READ_WRITE_ONCE = "ReadWriteOnce"
READ_ONLY_MANY = "ReadOnlyMany"
READ_WRITE_MANY = "ReadWriteMany"
READ_WRITE_ONCE_POD = "ReadWriteOncePod"
ACCESS_MODES = (READ_WRITE_ONCE, READ_ONLY_MANY, READ_WRITE_MANY, READ_WRITE_ONCE_POD)
BINDING_IMMEDIATE = "Immediate"
BINDING_WAIT_FOR_FIRST_CONSUMER = "WaitForFirstConsumer"
BINDING_MODES = (BINDING_IMMEDIATE, BINDING_WAIT_FOR_FIRST_CONSUMER)
VOLUME_FILESYSTEM = "Filesystem"
VOLUME_BLOCK = "Block"
STORAGE = "storage"
"""The resource name of a claim's requested size and a volume's capacity."""
BETA_STORAGE_CLASS_ANNOTATION = "volume.beta.kubernetes.io/storage-class"
"""The deprecated annotation that, when present, names the class instead of the spec."""


# -- pod volume sources -----------------------------------------------------------------


@frozen
class PersistentVolumeClaimVolumeSource:
    """A pod volume backed by a claim in the pod's namespace."""

    claim_name: str = ""
    read_only: bool = False


@frozen
class ResourceRequirementsForClaim:
    """A claim's `resources`: requests (`storage`) and limits."""

    requests: ResourceList = field(factory=dict)
    limits: ResourceList = field(factory=dict)


@frozen
class PersistentVolumeClaimSpec:
    """The subset of a claim's spec the scheduler reads."""

    access_modes: list[str] = field(factory=list)
    selector: LabelSelector | None = None
    resources: ResourceRequirementsForClaim = field(factory=ResourceRequirementsForClaim)
    volume_name: str = ""
    storage_class_name: str | None = None
    volume_mode: str = VOLUME_FILESYSTEM


@frozen
class PersistentVolumeClaimTemplate:
    """The claim a generic ephemeral volume creates (named `<pod>-<volume>`)."""

    metadata: ObjectMeta = field(factory=ObjectMeta)
    spec: PersistentVolumeClaimSpec = field(factory=PersistentVolumeClaimSpec)


@frozen
class EphemeralVolumeSource:
    """A generic ephemeral volume: a claim owned by the pod."""

    volume_claim_template: PersistentVolumeClaimTemplate | None = None


@frozen
class GCEPersistentDiskVolumeSource:
    """An in-tree GCE persistent disk."""

    pd_name: str = ""
    fs_type: str = ""
    partition: int = 0
    read_only: bool = False


@frozen
class AWSElasticBlockStoreVolumeSource:
    """An in-tree AWS EBS volume. `volume_i_d` is JSON `volumeID`; read it as `volume_id`."""

    volume_i_d: str = ""
    fs_type: str = ""
    partition: int = 0
    read_only: bool = False

    @property
    def volume_id(self) -> str:
        return self.volume_i_d


@frozen
class RBDVolumeSource:
    """An in-tree Ceph RBD image."""

    monitors: list[str] = field(factory=list)
    image: str = ""
    pool: str = "rbd"
    read_only: bool = False


@frozen
class ISCSIVolumeSource:
    """An in-tree iSCSI disk."""

    target_portal: str = ""
    iqn: str = ""
    lun: int = 0
    read_only: bool = False


@frozen
class AzureDiskVolumeSource:
    """An in-tree Azure data disk. `disk_u_r_i` is JSON `diskURI`; read it as `disk_uri`."""

    disk_name: str = ""
    disk_u_r_i: str = ""
    read_only: bool = False

    @property
    def disk_uri(self) -> str:
        return self.disk_u_r_i


@frozen
class AzureFileVolumeSource:
    """An in-tree Azure file share (a pod volume, or a volume's source with the secret's
    namespace)."""

    secret_name: str = ""
    share_name: str = ""
    read_only: bool = False
    secret_namespace: str | None = None


@frozen
class CinderVolumeSource:
    """An in-tree OpenStack Cinder volume. `volume_i_d` is JSON `volumeID`."""

    volume_i_d: str = ""
    fs_type: str = ""
    read_only: bool = False

    @property
    def volume_id(self) -> str:
        return self.volume_i_d


@frozen
class VsphereVirtualDiskVolumeSource:
    """An in-tree vSphere disk (`vsphereVolume`)."""

    volume_path: str = ""
    fs_type: str = ""


@frozen
class PortworxVolumeSource:
    """An in-tree Portworx volume. `volume_i_d` is JSON `volumeID`."""

    volume_i_d: str = ""
    fs_type: str = ""
    read_only: bool = False

    @property
    def volume_id(self) -> str:
        return self.volume_i_d


@frozen
class Volume:
    """A pod volume: its name and the one source the scheduler may care about (claims,
    generic ephemeral volumes, and the in-tree disks VolumeRestrictions checks and CSI
    migration moves to a CSI driver)."""

    name: str = ""
    persistent_volume_claim: PersistentVolumeClaimVolumeSource | None = None
    ephemeral: EphemeralVolumeSource | None = None
    gce_persistent_disk: GCEPersistentDiskVolumeSource | None = None
    aws_elastic_block_store: AWSElasticBlockStoreVolumeSource | None = None
    rbd: RBDVolumeSource | None = None
    iscsi: ISCSIVolumeSource | None = None
    azure_disk: AzureDiskVolumeSource | None = None
    azure_file: AzureFileVolumeSource | None = None
    cinder: CinderVolumeSource | None = None
    vsphere_volume: VsphereVirtualDiskVolumeSource | None = None
    portworx_volume: PortworxVolumeSource | None = None


def ephemeral_claim_name(pod_name: str, volume: Volume) -> str:
    """The claim a generic ephemeral volume gets: `<pod name>-<volume name>`."""
    return f"{pod_name}-{volume.name}"
