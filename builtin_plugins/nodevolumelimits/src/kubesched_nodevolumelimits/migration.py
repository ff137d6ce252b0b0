"""CSI migration: which CSI driver serves an in-tree volume, under which volume handle.

Upstream's csi-translation-lib knows seven in-tree plugins. Each has a CSI driver and a
rule that turns the in-tree source (of a PersistentVolume, or inline in a pod) into that
driver's volume handle; the handles here are the ones the library builds, so an in-tree
volume and the same volume served through CSI count once. Whether the scheduler counts a
migrated volume at all is `is_migration_on` (upstream's isCSIMigrationOn): AWS EBS, GCE PD,
Azure Disk and Cinder whenever the node has a CSINode; Portworx when the CSINode's
`storage.alpha.kubernetes.io/migrated-plugins` annotation names it; Azure File and vSphere
never (the library translates them, the plugin does not count them).
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlparse

from attrs import frozen

from kubesched.api import (
    MIGRATED_PLUGINS_ANNOTATION,
    CSINode,
    PersistentVolume,
    Volume,
)

AWS_EBS = "kubernetes.io/aws-ebs"
GCE_PD = "kubernetes.io/gce-pd"
AZURE_DISK = "kubernetes.io/azure-disk"
AZURE_FILE = "kubernetes.io/azure-file"
CINDER = "kubernetes.io/cinder"
VSPHERE = "kubernetes.io/vsphere-volume"
PORTWORX = "kubernetes.io/portworx-volume"

UNSPECIFIED = "UNSPECIFIED"
"""GCE PD's stand-in for a project or zone the in-tree source does not give."""
ZONE_LABELS = ("failure-domain.beta.kubernetes.io/zone", "topology.kubernetes.io/zone")
"""Where a GCE PD volume's zones are read, the deprecated label first (as upstream)."""
MULTI_ZONE_SEPARATOR = "__"
_AZURE_FILE_RESOURCE_GROUP = "kubernetes.io/azure-file-resource-group"
_AZURE_FILE_SECRET_PREFIX, _AZURE_FILE_SECRET_SUFFIX = "azure-storage-account-", "-secret"

_ALWAYS_ON = frozenset({AWS_EBS, GCE_PD, AZURE_DISK, CINDER})
_ANNOTATED = frozenset({PORTWORX})


class TranslationError(ValueError):
    """An in-tree source the translation library refuses (an EBS id that is not one)."""


@frozen
class InTreePlugin:
    """One in-tree plugin: its name, its CSI driver, and its volume handles."""

    name: str
    driver: str
    pv_handle: Callable[[PersistentVolume], str | None]
    """The handle of a volume this plugin serves, None when it serves no such volume."""
    inline_handle: Callable[[Volume], str | None]
    """The handle of a pod's inline volume, None when it is not this plugin's."""


def _ebs_id(kubernetes_id: str) -> str:
    """KubernetesVolumeIDToEBSVolumeID: `aws://<zone>/<vol-id>`, `aws:///<vol-id>` or
    `<vol-id>` to `<vol-id>`."""
    if not kubernetes_id.startswith("aws://"):
        return kubernetes_id
    ebs_id = urlparse(kubernetes_id).path.strip("/")
    if not ebs_id.startswith("vol-") or "/" in ebs_id:
        raise TranslationError(
            "failed to translate Kubernetes ID to EBS Volume ID Invalid format for AWS "
            f"volume ({kubernetes_id})"
        )
    return ebs_id


def _ebs_pv(pv: PersistentVolume) -> str | None:
    source = pv.spec.aws_elastic_block_store
    return None if source is None else _ebs_id(source.volume_id)


def _ebs_inline(volume: Volume) -> str | None:
    source = volume.aws_elastic_block_store
    return None if source is None else _ebs_id(source.volume_id)


def _gce_region(zones: list[str]) -> str:
    """getRegionFromZones: the one region (`<locale>-<region>`) of `<locale>-<region>-<zone>`
    zones."""
    regions = set()
    for zone in zones:
        parts = zone.split("-")
        if len(parts) != 3:
            raise TranslationError(f"zone in unexpected format: {zone}")
        regions.add("-".join(parts[:2]))
    if len(regions) != 1:
        raise TranslationError(f"multiple or no regions gotten from zones: {sorted(regions)}")
    return regions.pop()


def _gce_pv(pv: PersistentVolume) -> str | None:
    source = pv.spec.gce_persistent_disk
    if source is None:
        return None
    labels = pv.metadata.labels
    zones_label = labels.get(ZONE_LABELS[0]) or labels.get(ZONE_LABELS[1], "")
    zones = zones_label.split(MULTI_ZONE_SEPARATOR)
    if len(zones) == 1 and zones[0]:
        return f"projects/{UNSPECIFIED}/zones/{zones[0]}/disks/{source.pd_name}"
    if len(zones) > 1:
        return f"projects/{UNSPECIFIED}/regions/{_gce_region(zones)}/disks/{source.pd_name}"
    return f"projects/{UNSPECIFIED}/zones/{UNSPECIFIED}/disks/{source.pd_name}"


def _gce_inline(volume: Volume) -> str | None:
    source = volume.gce_persistent_disk
    if source is None:
        return None
    return f"projects/{UNSPECIFIED}/zones/{UNSPECIFIED}/disks/{source.pd_name}"


def _azure_disk_pv(pv: PersistentVolume) -> str | None:
    source = pv.spec.azure_disk
    return None if source is None else source.disk_uri


def _azure_disk_inline(volume: Volume) -> str | None:
    source = volume.azure_disk
    return None if source is None else source.disk_uri


def _azure_account(secret_name: str) -> str:
    """The storage account a secret named `azure-storage-account-<account>-secret` is for;
    the secret's name itself when it is not named so."""
    prefix, suffix = _AZURE_FILE_SECRET_PREFIX, _AZURE_FILE_SECRET_SUFFIX
    start = secret_name.find(prefix)
    end = secret_name.rfind(suffix)
    if start >= 0 and end > start + len(prefix):
        return secret_name[start + len(prefix) : end]
    return secret_name


def _azure_file_pv(pv: PersistentVolume) -> str | None:
    source = pv.spec.azure_file
    if source is None:
        return None
    group = pv.metadata.annotations.get(_AZURE_FILE_RESOURCE_GROUP, "")
    return f"{group}#{_azure_account(source.secret_name)}#{source.share_name}#"


def _azure_file_inline(volume: Volume) -> str | None:
    source = volume.azure_file
    if source is None:
        return None
    return f"#{_azure_account(source.secret_name)}#{source.share_name}#"


def _cinder_pv(pv: PersistentVolume) -> str | None:
    return None if pv.spec.cinder is None else pv.spec.cinder.volume_id


def _cinder_inline(volume: Volume) -> str | None:
    return None if volume.cinder is None else volume.cinder.volume_id


def _vsphere_pv(pv: PersistentVolume) -> str | None:
    source = pv.spec.vsphere_volume
    return None if source is None else source.volume_path


def _vsphere_inline(volume: Volume) -> str | None:
    return None if volume.vsphere_volume is None else volume.vsphere_volume.volume_path


def _portworx_pv(pv: PersistentVolume) -> str | None:
    source = pv.spec.portworx_volume
    return None if source is None else source.volume_id


def _portworx_inline(volume: Volume) -> str | None:
    return None if volume.portworx_volume is None else volume.portworx_volume.volume_id


IN_TREE_PLUGINS = (
    InTreePlugin(GCE_PD, "pd.csi.storage.gke.io", _gce_pv, _gce_inline),
    InTreePlugin(AWS_EBS, "ebs.csi.aws.com", _ebs_pv, _ebs_inline),
    InTreePlugin(CINDER, "cinder.csi.openstack.org", _cinder_pv, _cinder_inline),
    InTreePlugin(AZURE_DISK, "disk.csi.azure.com", _azure_disk_pv, _azure_disk_inline),
    InTreePlugin(AZURE_FILE, "file.csi.azure.com", _azure_file_pv, _azure_file_inline),
    InTreePlugin(VSPHERE, "csi.vsphere.vmware.com", _vsphere_pv, _vsphere_inline),
    InTreePlugin(PORTWORX, "pxd.portworx.com", _portworx_pv, _portworx_inline),
)
"""Upstream's csi-translation-lib plugins, with their CSI driver names."""
_BY_NAME = {plugin.name: plugin for plugin in IN_TREE_PLUGINS}
_SOURCES: dict[str, Callable[[Volume], object]] = {
    GCE_PD: lambda v: v.gce_persistent_disk,
    AWS_EBS: lambda v: v.aws_elastic_block_store,
    CINDER: lambda v: v.cinder,
    AZURE_DISK: lambda v: v.azure_disk,
    AZURE_FILE: lambda v: v.azure_file,
    VSPHERE: lambda v: v.vsphere_volume,
    PORTWORX: lambda v: v.portworx_volume,
}
_PV_SOURCES: dict[str, Callable[[PersistentVolume], object]] = {
    GCE_PD: lambda pv: pv.spec.gce_persistent_disk,
    AWS_EBS: lambda pv: pv.spec.aws_elastic_block_store,
    CINDER: lambda pv: pv.spec.cinder,
    AZURE_DISK: lambda pv: pv.spec.azure_disk,
    AZURE_FILE: lambda pv: pv.spec.azure_file,
    VSPHERE: lambda pv: pv.spec.vsphere_volume,
    PORTWORX: lambda pv: pv.spec.portworx_volume,
}


def plugin_by_name(name: str) -> InTreePlugin | None:
    """The in-tree plugin of this name (a StorageClass's provisioner), or None
    (IsMigratableIntreePluginByName)."""
    return _BY_NAME.get(name)


def pv_plugin(pv: PersistentVolume) -> InTreePlugin | None:
    """The in-tree plugin that serves a volume's source, or None (IsPVMigratable)."""
    return next((p for p in IN_TREE_PLUGINS if _PV_SOURCES[p.name](pv) is not None), None)


def inline_plugin(volume: Volume) -> InTreePlugin | None:
    """The in-tree plugin of a pod's inline volume, or None (IsInlineMigratable)."""
    return next((p for p in IN_TREE_PLUGINS if _SOURCES[p.name](volume) is not None), None)


def migration_key(csi_node: CSINode | None) -> tuple[bool, str]:
    """All that `is_migration_on` reads of a CSINode: whether there is one, and its
    migrated-plugins annotation. Nodes with equal keys count a pod's volumes alike."""
    if csi_node is None:
        return False, ""
    return True, csi_node.metadata.annotations.get(MIGRATED_PLUGINS_ANNOTATION, "")


def is_migration_on(csi_node: CSINode | None, plugin: str) -> bool:
    """Whether the node's volumes of this in-tree plugin are counted as their CSI driver's."""
    if csi_node is None or not plugin:
        return False
    if plugin in _ALWAYS_ON:
        return True
    if plugin not in _ANNOTATED:
        return False
    annotation = csi_node.metadata.annotations.get(MIGRATED_PLUGINS_ANNOTATION, "")
    return plugin in annotation.split(",")
