"""CSI migration as upstream's csi-translation-lib does it: each in-tree plugin's CSI
driver and volume handle (of a PersistentVolume and of an inline volume), which plugins the
scheduler counts on a node, and upstream's queueing-hint tables that involve in-tree volumes
and VolumeAttachments."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kubesched.api import (
    MIGRATED_PLUGINS_ANNOTATION,
    AWSElasticBlockStoreVolumeSource,
    AzureDiskVolumeSource,
    AzureFileVolumeSource,
    CinderVolumeSource,
    CSINode,
    CSIPersistentVolumeSource,
    GCEPersistentDiskVolumeSource,
    ObjectMeta,
    PersistentVolume,
    PersistentVolumeClaim,
    PersistentVolumeClaimSpec,
    PersistentVolumeClaimVolumeSource,
    PersistentVolumeSpec,
    Pod,
    PortworxVolumeSource,
    Volume,
    VolumeAttachment,
    VolumeAttachmentSource,
    VolumeAttachmentSpec,
    VsphereVirtualDiskVolumeSource,
)
from kubesched.framework import ActionType, EventResource, QueueingHint
from kubesched.testing import PluginHarness, make_node, make_pod
from kubesched_nodevolumelimits import NodeVolumeLimits
from kubesched_nodevolumelimits.hints import schedulable_after_assigned_pod_deleted
from kubesched_nodevolumelimits.migration import (
    TranslationError,
    inline_plugin,
    is_migration_on,
    pv_plugin,
)

ZONE_BETA, ZONE = "failure-domain.beta.kubernetes.io/zone", "topology.kubernetes.io/zone"


def pv(labels: dict[str, str] | None = None, annotations: dict[str, str] | None = None,
       **source: object) -> PersistentVolume:  # fmt: skip
    meta = ObjectMeta(name="pv", labels=labels or {}, annotations=annotations or {})
    return PersistentVolume(meta, PersistentVolumeSpec(**source))  # type: ignore[arg-type]


EBS = AWSElasticBlockStoreVolumeSource
GCE = GCEPersistentDiskVolumeSource


@pytest.mark.parametrize(
    ("volume", "driver", "handle"),
    [
        (pv(aws_elastic_block_store=EBS(volume_i_d="vol-1")), "ebs.csi.aws.com", "vol-1"),
        (pv(aws_elastic_block_store=EBS(volume_i_d="aws://us-east-1a/vol-2")), "ebs.csi.aws.com",
         "vol-2"),
        (pv(aws_elastic_block_store=EBS(volume_i_d="aws:///vol-3")), "ebs.csi.aws.com", "vol-3"),
        (pv(gce_persistent_disk=GCE(pd_name="d")), "pd.csi.storage.gke.io",
         "projects/UNSPECIFIED/zones/UNSPECIFIED/disks/d"),
        (pv({ZONE: "us-central1-a"}, gce_persistent_disk=GCE(pd_name="d")),
         "pd.csi.storage.gke.io", "projects/UNSPECIFIED/zones/us-central1-a/disks/d"),
        (pv({ZONE_BETA: "eu-west1-b", ZONE: "us-central1-a"}, gce_persistent_disk=GCE(pd_name="d")),
         "pd.csi.storage.gke.io", "projects/UNSPECIFIED/zones/eu-west1-b/disks/d"),
        (pv({ZONE: "us-central1-a__us-central1-c"}, gce_persistent_disk=GCE(pd_name="d")),
         "pd.csi.storage.gke.io", "projects/UNSPECIFIED/regions/us-central1/disks/d"),
        (pv(azure_disk=AzureDiskVolumeSource(disk_name="d", disk_u_r_i="/subs/x/disks/d")),
         "disk.csi.azure.com", "/subs/x/disks/d"),
        (pv({}, {"kubernetes.io/azure-file-resource-group": "rg"},
            azure_file=AzureFileVolumeSource(secret_name="azure-storage-account-acct-secret",
                                             share_name="share")),
         "file.csi.azure.com", "rg#acct#share#"),
        (pv(azure_file=AzureFileVolumeSource(secret_name="plain", share_name="share")),
         "file.csi.azure.com", "#plain#share#"),
        (pv(cinder=CinderVolumeSource(volume_i_d="c-1")), "cinder.csi.openstack.org", "c-1"),
        (pv(vsphere_volume=VsphereVirtualDiskVolumeSource(volume_path="[ds] v.vmdk")),
         "csi.vsphere.vmware.com", "[ds] v.vmdk"),
        (pv(portworx_volume=PortworxVolumeSource(volume_i_d="px-1")), "pxd.portworx.com", "px-1"),
    ],
)  # fmt: skip
def test_persistent_volume_translation(volume: PersistentVolume, driver: str, handle: str) -> None:
    plugin = pv_plugin(volume)
    assert plugin is not None
    assert (plugin.driver, plugin.pv_handle(volume)) == (driver, handle)


@pytest.mark.parametrize(
    ("volume", "driver", "handle"),
    [
        (Volume(aws_elastic_block_store=EBS(volume_i_d="aws://z/vol-9")), "ebs.csi.aws.com",
         "vol-9"),
        (Volume(gce_persistent_disk=GCE(pd_name="d")), "pd.csi.storage.gke.io",
         "projects/UNSPECIFIED/zones/UNSPECIFIED/disks/d"),
        (Volume(azure_disk=AzureDiskVolumeSource(disk_u_r_i="uri")), "disk.csi.azure.com", "uri"),
        (Volume(azure_file=AzureFileVolumeSource(secret_name="s", share_name="sh")),
         "file.csi.azure.com", "#s#sh#"),
        (Volume(cinder=CinderVolumeSource(volume_i_d="c")), "cinder.csi.openstack.org", "c"),
        (Volume(vsphere_volume=VsphereVirtualDiskVolumeSource(volume_path="p")),
         "csi.vsphere.vmware.com", "p"),
        (Volume(portworx_volume=PortworxVolumeSource(volume_i_d="x")), "pxd.portworx.com", "x"),
    ],
)  # fmt: skip
def test_inline_volume_translation(volume: Volume, driver: str, handle: str) -> None:
    plugin = inline_plugin(volume)
    assert plugin is not None
    assert (plugin.driver, plugin.inline_handle(volume)) == (driver, handle)


def test_volumes_no_plugin_serves_are_not_migratable() -> None:
    assert pv_plugin(pv()) is None
    assert pv_plugin(pv(csi=CSIPersistentVolumeSource("d", "h"))) is None
    assert inline_plugin(Volume(name="scratch")) is None


@pytest.mark.parametrize("bad", ["aws://zone/notavolume", "aws://zone/vol-1/extra"])
def test_an_ebs_id_that_is_not_one_is_refused(bad: str) -> None:
    volume = pv(aws_elastic_block_store=EBS(volume_i_d=bad))
    plugin = pv_plugin(volume)
    assert plugin is not None
    with pytest.raises(TranslationError, match=r"Invalid format for AWS volume"):
        plugin.pv_handle(volume)


def csi_node(migrated: str | None = None) -> CSINode:
    annotations = {} if migrated is None else {MIGRATED_PLUGINS_ANNOTATION: migrated}
    return CSINode(ObjectMeta(name="n", annotations=annotations))


@pytest.mark.parametrize(
    ("plugin", "migrated", "on"),
    [
        ("kubernetes.io/aws-ebs", None, True),
        ("kubernetes.io/gce-pd", None, True),
        ("kubernetes.io/azure-disk", None, True),
        ("kubernetes.io/cinder", None, True),
        ("kubernetes.io/portworx-volume", None, False),
        ("kubernetes.io/portworx-volume", "kubernetes.io/aws-ebs,kubernetes.io/portworx-volume",
         True),
        ("kubernetes.io/azure-file", "kubernetes.io/azure-file", False),
        ("kubernetes.io/vsphere-volume", "kubernetes.io/vsphere-volume", False),
        ("kubernetes.io/hostpath", None, False),
    ],
)  # fmt: skip
def test_which_plugins_count_as_migrated(plugin: str, migrated: str | None, on: bool) -> None:
    """upstream's isCSIMigrationOn: four plugins whenever the node has a CSINode, Portworx
    when the CSINode's annotation names it, the others never."""
    assert is_migration_on(csi_node(migrated), plugin) is on
    assert is_migration_on(None, plugin) is False


def test_an_inline_ebs_id_that_is_not_one_fails_the_filter_with_an_error() -> None:
    from kubesched.api import CSINodeDriver, CSINodeSpec, VolumeNodeResources

    node = CSINode(
        ObjectMeta(name="n1"),
        CSINodeSpec([CSINodeDriver("ebs.csi.aws.com", allocatable=VolumeNodeResources(1))]),
    )
    harness = PluginHarness(NodeVolumeLimits, nodes=[make_node("n1").obj()], csi_nodes=[node])
    bad = Volume(name="data", aws_elastic_block_store=EBS(volume_i_d="aws://z/nope"))
    pod = make_pod("p").volume(bad).obj()
    assert harness.pre_filter(pod) is None
    status = harness.filter(pod)["n1"]
    assert status is not None and status.message == (
        'running "NodeVolumeLimits" filter plugin: converting volume(data) from inline to csi: '
        "failed to translate Kubernetes ID to EBS Volume ID Invalid format for AWS volume "
        "(aws://z/nope)"
    )


# -- upstream's TestCSILimitsQHint and TestCSILimitsDeletedVolumeAttachmentQHint ----------


def on_node(pod: Pod) -> Pod:
    from attrs import evolve

    return evolve(pod, spec=evolve(pod.spec, node_name="fake-node"))


POD_EBS = make_pod("p").pvc("csi-ebs.csi.aws.com-2").obj()


@pytest.mark.parametrize(
    ("deleted", "want"),
    [
        (on_node(make_pod("d").pvc("placeholder").obj()), QueueingHint.QUEUE),
        (on_node(make_pod("d").volume(Volume(aws_elastic_block_store=EBS())).obj()),
         QueueingHint.QUEUE),
        (on_node(make_pod("d").obj()), QueueingHint.QUEUE_SKIP),
        (make_pod("d").pvc("csi-ebs.csi.aws.com-0").obj(), QueueingHint.QUEUE_SKIP),
    ],
    ids=[
        "return a Queue when a deleted pod has a PVC",
        "return a Queue when a deleted pod has a inline migratable volume",
        "return a QueueSkip when a deleted pod doesn't have any volume",
        "return a QueueSkip when a deleted pod is not scheduled.",
    ],
)  # fmt: skip
def test_deleted_pod_hint(deleted: Pod, want: QueueingHint) -> None:
    assert schedulable_after_assigned_pod_deleted(POD_EBS, deleted, None) == want


def pvc_volume(name: str) -> Volume:
    return Volume(persistent_volume_claim=PersistentVolumeClaimVolumeSource(claim_name=name))


def attachment(
    attacher: str, pv_name: str | None = None, inline_driver: str = ""
) -> VolumeAttachment:
    inline = None
    if inline_driver:
        inline = PersistentVolumeSpec(csi=CSIPersistentVolumeSource(driver=inline_driver))
    source = VolumeAttachmentSource(persistent_volume_name=pv_name, inline_volume_spec=inline)
    spec = VolumeAttachmentSpec(attacher=attacher, node_name="fake-node", source=source)
    return VolumeAttachment(ObjectMeta(name="volumeattachment1"), spec)


EBS_INLINE = Volume(aws_elastic_block_store=EBS(volume_i_d="test"))
GCE_INLINE = Volume(gce_persistent_disk=GCE(pd_name="test"))
PVC1 = PersistentVolumeClaim(
    ObjectMeta(name="pvc1", namespace="ns1"), PersistentVolumeClaimSpec(volume_name="pv1")
)


@pytest.mark.parametrize(
    ("volumes", "deleted", "want"),
    [
        ([pvc_volume("pvc1")], attachment("test.storage.gke.io", "pv1"), QueueingHint.QUEUE),
        ([EBS_INLINE], attachment("ebs.csi.aws.com", inline_driver="ebs.csi.aws.com"),
         QueueingHint.QUEUE),
        ([GCE_INLINE], attachment("ebs.csi.aws.com", inline_driver="ebs.csi.aws.com"),
         QueueingHint.QUEUE_SKIP),
        ([EBS_INLINE, pvc_volume("pvc1")],
         attachment("ebs.csi.aws.com", inline_driver="ebs.csi.aws.com"), QueueingHint.QUEUE),
        ([EBS_INLINE, pvc_volume("pvc1")], attachment("test.storage.gke.io", "pv1"),
         QueueingHint.QUEUE),
        ([], attachment("test.storage.gke.io", "pv1"), QueueingHint.QUEUE_SKIP),
    ],
    ids=[
        "a pod has PVC when VolumeAttachment is deleting",
        "a pod has an Inline Migratable volume (AWSEBSDriver) when VolumeAttachment "
        "(AWSEBSDriver) is deleting (match)",
        "a pod has an Inline Migratable volume (GCEPDDriver) when VolumeAttachment "
        "(AWSEBSDriver) is deleting (no match)",
        "a pod has an Inline Migratable volume (AWSEBSDriver) and PVC when VolumeAttachment "
        "(AWSEBSDriver) is deleting",
        "a pod has an Inline Migratable volume (AWSEBSDriver) and PVC when VolumeAttachment "
        "(PV) is deleting",
        "a pod has no PVC when VolumeAttachment is deleting",
    ],
)  # fmt: skip
def test_deleted_volume_attachment_hint(
    volumes: list[Volume], deleted: VolumeAttachment, want: QueueingHint
) -> None:
    harness = PluginHarness(NodeVolumeLimits, persistent_volume_claims=[PVC1])
    builder = make_pod("p").namespace("ns1")
    for volume in volumes:
        builder = builder.volume(volume)
    pod = builder.obj()
    [hint] = [
        e.hint
        for e in harness.plugin.events_to_register()
        if e.event.resource == EventResource.VOLUME_ATTACHMENT
        and e.event.action_type == ActionType.DELETE
    ]
    assert hint is not None
    assert hint(pod, deleted, None) == want


def test_the_pods_volumes_worked_out_once_per_cycle_count_alike_on_every_node() -> None:
    """Within one cycle the new pod's volumes are worked out once per migration key; each
    node still gets its own verdict (a volume shared with a pod there is not new)."""
    from attrs import evolve

    from kubesched.api import CSINodeDriver, CSINodeSpec, VolumeNodeResources

    def limited(name: str) -> CSINode:
        driver = CSINodeDriver("ebs.csi.aws.com", allocatable=VolumeNodeResources(1))
        return CSINode(ObjectMeta(name=name), CSINodeSpec([driver]))

    def ebs(volume_id: str) -> Volume:
        return Volume(name="data", aws_elastic_block_store=EBS(volume_i_d=volume_id))

    def placed(name: str, node: str, volume_id: str) -> Pod:
        pod = make_pod(name).volume(ebs(volume_id)).obj()
        return evolve(pod, spec=evolve(pod.spec, node_name=node))

    names = ["a-shared", "b-full", "c-empty", "d-no-csinode"]
    harness = PluginHarness(
        NodeVolumeLimits,
        nodes=[make_node(n).obj() for n in names],
        pods=[placed("s", "a-shared", "vol-1"), placed("f", "b-full", "vol-2")],
        csi_nodes=[limited(n) for n in names[:3]],
    )
    pod = make_pod("p").volume(ebs("vol-1")).obj()
    assert harness.pre_filter(pod) is None
    verdicts = {n: (s.message if s is not None else None) for n, s in harness.filter(pod).items()}
    assert verdicts == {
        "a-shared": None,
        "b-full": "node(s) exceed max volume count",
        "c-empty": None,
        "d-no-csinode": None,
    }


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.sets(st.integers(0, 6), max_size=3), max_size=4),
    st.sets(st.integers(0, 6), min_size=1, max_size=3),
    st.integers(0, 6),
)
def test_a_node_fits_while_its_distinct_volumes_stay_within_the_limit(
    on_node: list[set[int]], wanted: set[int], limit: int
) -> None:
    """Volumes shared by pods count once; the node fits iff the new pod brings no volume the
    node lacks, or the distinct volumes of its pods and the new pod number at most the
    driver's limit."""
    from attrs import evolve

    from kubesched.api import CSINodeDriver, CSINodeSpec, VolumeNodeResources

    def with_volumes(name: str, ids: set[int]) -> Pod:
        pod = make_pod(name)
        for i in sorted(ids):
            source = EBS(volume_i_d=f"vol-{i}")
            pod = pod.volume(Volume(name=f"v{i}", aws_elastic_block_store=source))
        return pod.obj()

    placed = [with_volumes(f"q{k}", ids) for k, ids in enumerate(on_node)]
    placed = [evolve(p, spec=evolve(p.spec, node_name="n1")) for p in placed]
    driver = CSINodeDriver("ebs.csi.aws.com", allocatable=VolumeNodeResources(limit))
    harness = PluginHarness(
        NodeVolumeLimits,
        nodes=[make_node("n1").obj()],
        pods=placed,
        csi_nodes=[CSINode(ObjectMeta(name="n1"), CSINodeSpec([driver]))],
    )
    pod = with_volumes("p", wanted)
    assert harness.pre_filter(pod) is None
    status = harness.filter(pod)["n1"]
    attached = set().union(*on_node)
    assert (status is None) == (wanted <= attached or len(attached | wanted) <= limit)
