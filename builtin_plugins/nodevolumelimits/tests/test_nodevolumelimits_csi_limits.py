"""Upstream's TestCSILimits table (nodevolumelimits/csi_test.go), every case, as data.

Each case builds upstream's fixture for its `drivers`: for every driver four claims
`csi-<driver>-<i>` bound to volumes of the same name and handle (a CSI volume of that
driver; an in-tree AWS EBS volume for `kubernetes.io/aws-ebs`; a volume of no CSI-migratable
kind for `kubernetes.io/hostpath`), the claims `csi-4` (unbound, of the class), `csi-5` (no
class) and `csi-6` (class, volume missing), a StorageClass whose provisioner is the first
driver, `va_count` VolumeAttachments per driver to the node, and, per `limit_source`, a
CSINode listing the drivers with `max_vols` as their count ("csinode"), without a count
("csinode-with-no-limit"), or no CSINode at all (""). Like upstream's harness, every
CSINode says the AWS EBS plugin is migrated.

Upstream's expected message for a missing claim reads `persistentvolumeclaims "abc-xyz" not
found`: its fake lister names the plural resource. The real informer lister, which
kube-scheduler runs with, names the singular one, and so does this plugin.
"""

from __future__ import annotations

from typing import NamedTuple

import pytest
from attrs import evolve

from kubesched.api import (
    MIGRATED_PLUGINS_ANNOTATION,
    AWSElasticBlockStoreVolumeSource,
    CSINode,
    CSINodeDriver,
    CSINodeSpec,
    CSIPersistentVolumeSource,
    EphemeralVolumeSource,
    ObjectMeta,
    OwnerReference,
    PersistentVolume,
    PersistentVolumeClaim,
    PersistentVolumeClaimSpec,
    PersistentVolumeClaimVolumeSource,
    PersistentVolumeSpec,
    Pod,
    StorageClass,
    Volume,
    VolumeAttachment,
    VolumeAttachmentSource,
    VolumeAttachmentSpec,
    VolumeNodeResources,
)
from kubesched.framework import Code, Status
from kubesched.testing import PluginHarness, make_node, make_pod
from kubesched_nodevolumelimits import NodeVolumeLimits

NODE = "node-for-max-pd-test-1"
EBS = "ebs.csi.aws.com"
GCE = "pd.csi.storage.gke.io"
EBS_IN_TREE = "kubernetes.io/aws-ebs"
HOSTPATH = "kubernetes.io/hostpath"
SC = "csi-sc"
PLUGIN = "NodeVolumeLimits"
EXCEEDED = Status(Code.UNSCHEDULABLE, "node(s) exceed max volume count", plugin=PLUGIN)
MISSING_ABC_XYZ = Status(
    Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
    'looking up PVC test/abc-xyz: persistentvolumeclaim "abc-xyz" not found',
    plugin=PLUGIN,
)
NOT_OWNED = Status(
    Code.ERROR,
    'running "NodeVolumeLimits" filter plugin: PVC test/abc-xyz was not created for pod '
    "test/abc (pod is not owner)",
    plugin=PLUGIN,
)
"""Upstream's plugin error, as the framework wraps it (upstream's table calls the plugin
directly, and compares the error alone)."""
SKIP = "skip"

# -- upstream's pods ---------------------------------------------------------------------


def pvc_pod(name: str, *claims: str) -> Pod:
    builder = make_pod(name).namespace("default")
    for claim in claims:
        builder = builder.pvc(claim)
    return builder.obj()


def volumes_pod(name: str, *volumes: Volume, namespace: str = "default", uid: str = "") -> Pod:
    builder = make_pod(name).namespace(namespace)
    for volume in volumes:
        builder = builder.volume(volume)
    pod = builder.obj()
    return evolve(pod, metadata=evolve(pod.metadata, uid=uid)) if uid else pod


def ebs_inline(volume_id: str) -> Volume:
    return Volume(aws_elastic_block_store=AWSElasticBlockStoreVolumeSource(volume_i_d=volume_id))


CONFIG_MAP_AND_SECRET = (Volume(name="config-map"), Volume(name="secret"))
"""Volumes of kinds the plugin never counts (our model keeps no source for them)."""

RUNNING = pvc_pod("running", f"csi-{EBS}-3")
PENDING_VOLUME = pvc_pod("pending-volume", "csi-4")
UNBOUND_PVC_2 = pvc_pod("unbound-pvc-2", "csi-4")
MISSING_PV = pvc_pod("missing-pv", "csi-6")
NO_SC_PVC = pvc_pod("no-sc-pvc", "csi-5")
GCE_TWO_VOL = pvc_pod("gce-two-vol", f"csi-{GCE}-1", f"csi-{GCE}-2")
IN_TREE_ONE_VOL = pvc_pod("in-tree-one-vol", f"csi-{EBS_IN_TREE}-0")
IN_TREE_TWO_VOL = pvc_pod("in-tree-two-vol", f"csi-{EBS_IN_TREE}-1", f"csi-{EBS_IN_TREE}-2")
CSI_EBS_ONE_VOL = pvc_pod("csi-ebs-one-vol", f"csi-{EBS}-0")
CSI_EBS_TWO_VOL = pvc_pod("csi-ebs-two-vol", f"csi-{EBS}-1", f"csi-{EBS}-2")
IN_TREE_NON_MIGRATABLE = pvc_pod("in-tree-non-migratable", f"csi-{HOSTPATH}-0")
EPHEMERAL = volumes_pod(
    "abc", Volume(name="xyz", ephemeral=EphemeralVolumeSource()), namespace="test", uid="12345"
)
EPHEMERAL_TWO = volumes_pod(
    "abc",
    Volume(name="x", ephemeral=EphemeralVolumeSource()),
    Volume(name="y", ephemeral=EphemeralVolumeSource()),
    namespace="test",
    uid="12345II",
)
IN_TREE_INLINE = volumes_pod("in-tree-inline", ebs_inline("aws-inline1"))
IN_TREE_INLINE_SAME_CSI_ID = volumes_pod("in-tree-inline-same-id", ebs_inline(f"csi-{EBS}-1"))
ONLY_CONFIG_MAP_AND_SECRET = volumes_pod("only-cm-secret", *CONFIG_MAP_AND_SECRET)
PVC_WITH_CONFIG_MAP_AND_SECRET = volumes_pod(
    "pvc-cm-secret",
    *CONFIG_MAP_AND_SECRET,
    Volume(persistent_volume_claim=PersistentVolumeClaimVolumeSource(claim_name=f"csi-{EBS}-0")),
)
EPHEMERAL_WITH_CONFIG_MAP_AND_SECRET = volumes_pod(
    "abc",
    *CONFIG_MAP_AND_SECRET,
    Volume(name="xyz", ephemeral=EphemeralVolumeSource()),
    namespace="test",
)
INLINE_MIGRATABLE_WITH_CONFIG_MAP_AND_SECRET = volumes_pod(
    "inline-cm-secret", *CONFIG_MAP_AND_SECRET, ebs_inline("aws-inline1")
)


def owned_claim(name: str, owner: Pod | None) -> PersistentVolumeClaim:
    owners = []
    if owner is not None:
        owners = [OwnerReference(kind="Pod", name="abc", uid=owner.uid, controller=True)]
    meta = ObjectMeta(name=name, namespace="test", owner_references=owners)
    return PersistentVolumeClaim(meta, PersistentVolumeClaimSpec(storage_class_name=SC))


EPHEMERAL_CLAIM = owned_claim("abc-xyz", EPHEMERAL)
CONFLICTING_CLAIM = owned_claim("abc-xyz", None)
EPHEMERAL_CLAIM_X = owned_claim("abc-x", EPHEMERAL_TWO)
EPHEMERAL_CLAIM_Y = owned_claim("abc-y", EPHEMERAL_TWO)

# -- upstream's listers --------------------------------------------------------------------


def volumes(drivers: list[str]) -> list[PersistentVolume]:
    found = []
    for driver in drivers:
        for j in range(4):
            handle = f"csi-{driver}-{j}"
            if driver == EBS_IN_TREE:
                spec = PersistentVolumeSpec(
                    aws_elastic_block_store=AWSElasticBlockStoreVolumeSource(volume_i_d=handle)
                )
            elif driver == HOSTPATH:
                spec = PersistentVolumeSpec()  # a hostPath volume: neither CSI nor migratable
            else:
                spec = PersistentVolumeSpec(csi=CSIPersistentVolumeSource(driver, handle))
            found.append(PersistentVolume(ObjectMeta(name=handle), spec))
    return found


def claims(drivers: list[str]) -> list[PersistentVolumeClaim]:
    def claim(name: str, volume: str = "", class_name: str | None = None) -> PersistentVolumeClaim:
        spec = PersistentVolumeClaimSpec(volume_name=volume, storage_class_name=class_name)
        return PersistentVolumeClaim(ObjectMeta(name=name, namespace="default"), spec)

    bound = [claim(f"csi-{d}-{j}", f"csi-{d}-{j}") for d in drivers for j in range(4)]
    return [
        *bound,
        claim("csi-4", class_name=SC),
        claim("csi-5"),
        claim("csi-6", "missing-in-action", class_name=SC),
    ]


def attachments(count: int, drivers: list[str]) -> list[VolumeAttachment]:
    return [
        VolumeAttachment(
            ObjectMeta(name=f"va-{driver}-{j}"),
            VolumeAttachmentSpec(
                attacher=driver,
                node_name=NODE,
                source=VolumeAttachmentSource(persistent_volume_name=f"csi-{driver}-{j}"),
            ),
        )
        for driver in drivers
        for j in range(count)
    ]


def csi_nodes(limit_source: str, max_vols: int, drivers: list[str]) -> list[CSINode]:
    if not limit_source:
        return []
    count = VolumeNodeResources(max_vols) if limit_source == "csinode" else None
    meta = ObjectMeta(name=NODE, annotations={MIGRATED_PLUGINS_ANNOTATION: EBS_IN_TREE})
    spec = CSINodeSpec(drivers=[CSINodeDriver(name=d, allocatable=count) for d in drivers])
    return [CSINode(meta, spec)]


# -- the table -----------------------------------------------------------------------------


class Case(NamedTuple):
    new: Pod
    existing: list[Pod]
    drivers: list[str]
    want: Status | str | None
    max_vols: int = 0
    limit_source: str = "csinode"
    va_count: int = 0
    extra_claims: list[PersistentVolumeClaim] = []


IN_TREE_AND_CSI = [EBS_IN_TREE, EBS]
CASES = {
    "should count VolumeAttachments towards volume limit when no pods exist": Case(
        CSI_EBS_ONE_VOL, [], [EBS], EXCEEDED, max_vols=2, va_count=2
    ),
    "should schedule pod when VolumeAttachments count does not exceed limit": Case(
        CSI_EBS_ONE_VOL, [], [EBS], None, max_vols=2, va_count=1
    ),
    "fits when node volume limit >= new pods CSI volume": Case(
        CSI_EBS_ONE_VOL, [RUNNING, CSI_EBS_TWO_VOL], [EBS], None, max_vols=4
    ),
    "doesn't when node volume limit <= pods CSI volume": Case(
        CSI_EBS_ONE_VOL, [RUNNING, CSI_EBS_TWO_VOL], [EBS], EXCEEDED, max_vols=2
    ),
    "should when driver does not support volume limits": Case(
        CSI_EBS_ONE_VOL,
        [RUNNING, CSI_EBS_TWO_VOL],
        [EBS],
        None,
        max_vols=2,
        limit_source="csinode-with-no-limit",
    ),
    "count pending PVCs towards volume limit <= pods CSI volume": Case(
        CSI_EBS_ONE_VOL, [PENDING_VOLUME, CSI_EBS_TWO_VOL], [EBS], EXCEEDED, max_vols=2
    ),
    "count multiple pending pvcs towards volume limit >= pods CSI volume": Case(
        CSI_EBS_ONE_VOL, [PENDING_VOLUME, UNBOUND_PVC_2, CSI_EBS_TWO_VOL], [EBS], None, max_vols=4
    ),
    "should count PVCs with invalid PV name but valid SC": Case(
        CSI_EBS_ONE_VOL, [MISSING_PV, CSI_EBS_TWO_VOL], [EBS], EXCEEDED, max_vols=2
    ),
    "don't count pvcs with missing SC towards volume limit": Case(
        CSI_EBS_ONE_VOL, [RUNNING, NO_SC_PVC], [EBS], None, max_vols=2
    ),
    "count pvcs with the same type towards volume limit": Case(
        CSI_EBS_ONE_VOL, [GCE_TWO_VOL, CSI_EBS_TWO_VOL], [EBS, GCE], EXCEEDED, max_vols=2
    ),
    "don't count pvcs with different type towards volume limit": Case(
        GCE_TWO_VOL, [CSI_EBS_TWO_VOL, RUNNING], [EBS, GCE], None, max_vols=2
    ),
    # in-tree volume migration
    "should count in-tree volumes if migration is enabled": Case(
        IN_TREE_ONE_VOL, [IN_TREE_TWO_VOL], IN_TREE_AND_CSI, EXCEEDED, max_vols=2
    ),
    "nil csi node": Case(IN_TREE_INLINE, [IN_TREE_TWO_VOL], IN_TREE_AND_CSI, None, limit_source=""),
    "should count unbound in-tree volumes if migration is enabled": Case(
        PENDING_VOLUME, [IN_TREE_TWO_VOL], IN_TREE_AND_CSI, EXCEEDED, max_vols=2
    ),
    "should not limit pod if volume used does not report limits": Case(
        IN_TREE_ONE_VOL,
        [IN_TREE_TWO_VOL],
        IN_TREE_AND_CSI,
        None,
        max_vols=2,
        limit_source="csinode-with-no-limit",
    ),
    "should not count non-migratable in-tree volumes": Case(
        IN_TREE_NON_MIGRATABLE, [CSI_EBS_TWO_VOL], [HOSTPATH, EBS], None, max_vols=2
    ),
    "should count in-tree inline volumes if migration is enabled": Case(
        IN_TREE_INLINE, [IN_TREE_TWO_VOL], IN_TREE_AND_CSI, EXCEEDED, max_vols=2
    ),
    # mixed volumes
    "should count in-tree and csi volumes if migration is enabled (when scheduling in-tree "
    "volumes)": Case(IN_TREE_ONE_VOL, [CSI_EBS_TWO_VOL], IN_TREE_AND_CSI, EXCEEDED, max_vols=2),
    "should count in-tree, inline and csi volumes if migration is enabled (when scheduling "
    "in-tree volumes)": Case(
        IN_TREE_INLINE, [CSI_EBS_TWO_VOL, IN_TREE_ONE_VOL], IN_TREE_AND_CSI, EXCEEDED, max_vols=3
    ),
    "should not count in-tree, inline and csi volumes if migration is enabled (when scheduling "
    "in-tree volumes)": Case(
        IN_TREE_INLINE_SAME_CSI_ID,
        [CSI_EBS_TWO_VOL, IN_TREE_ONE_VOL],
        IN_TREE_AND_CSI,
        None,
        max_vols=3,
    ),
    "should count in-tree and csi volumes if migration is enabled (when scheduling csi "
    "volumes)": Case(CSI_EBS_ONE_VOL, [IN_TREE_TWO_VOL], IN_TREE_AND_CSI, EXCEEDED, max_vols=2),
    # ephemeral volumes
    "ephemeral volume missing": Case(
        EPHEMERAL, [], [EBS], MISSING_ABC_XYZ, limit_source="csinode-with-no-limit"
    ),
    "ephemeral volume not owned": Case(
        EPHEMERAL,
        [],
        [EBS],
        NOT_OWNED,
        limit_source="csinode-with-no-limit",
        extra_claims=[CONFLICTING_CLAIM],
    ),
    "ephemeral volume unbound": Case(
        EPHEMERAL,
        [],
        [EBS],
        None,
        limit_source="csinode-with-no-limit",
        extra_claims=[EPHEMERAL_CLAIM],
    ),
    "ephemeral doesn't when node volume limit <= pods CSI volume": Case(
        EPHEMERAL,
        [RUNNING, CSI_EBS_TWO_VOL],
        [EBS],
        EXCEEDED,
        max_vols=2,
        extra_claims=[EPHEMERAL_CLAIM],
    ),
    "ephemeral doesn't when node volume limit <= pods ephemeral CSI volume": Case(
        CSI_EBS_ONE_VOL,
        [RUNNING, EPHEMERAL_TWO],
        [EBS],
        EXCEEDED,
        max_vols=2,
        extra_claims=[EPHEMERAL_CLAIM_X, EPHEMERAL_CLAIM_Y],
    ),
    "persistent doesn't when node volume limit <= pods ephemeral CSI volume + persistent "
    "volume, ephemeral disabled": Case(
        CSI_EBS_ONE_VOL,
        [RUNNING, EPHEMERAL, CSI_EBS_TWO_VOL],
        [EBS],
        EXCEEDED,
        max_vols=3,
        extra_claims=[EPHEMERAL_CLAIM],
    ),
    "persistent doesn't when node volume limit <= pods ephemeral CSI volume + persistent "
    "volume": Case(
        CSI_EBS_ONE_VOL,
        [RUNNING, EPHEMERAL, CSI_EBS_TWO_VOL],
        [EBS],
        EXCEEDED,
        max_vols=3,
        extra_claims=[EPHEMERAL_CLAIM],
    ),
    "persistent okay when node volume limit > pods ephemeral CSI volume + persistent volume": Case(
        CSI_EBS_ONE_VOL,
        [RUNNING, EPHEMERAL, CSI_EBS_TWO_VOL],
        [EBS],
        None,
        max_vols=5,
        extra_claims=[EPHEMERAL_CLAIM],
    ),
    "skip Filter when the pod only uses secrets and configmaps": Case(
        ONLY_CONFIG_MAP_AND_SECRET, [], [EBS], SKIP, max_vols=2
    ),
    "don't skip Filter when the pod has pvcs": Case(
        PVC_WITH_CONFIG_MAP_AND_SECRET, [], [EBS], None, max_vols=2
    ),
    "don't skip Filter when the pod has ephemeral volumes": Case(
        EPHEMERAL_WITH_CONFIG_MAP_AND_SECRET,
        [],
        [EBS],
        MISSING_ABC_XYZ,
        limit_source="csinode-with-no-limit",
    ),
    "don't skip Filter when the pod has inline migratable volumes": Case(
        INLINE_MIGRATABLE_WITH_CONFIG_MAP_AND_SECRET,
        [IN_TREE_TWO_VOL],
        IN_TREE_AND_CSI,
        EXCEEDED,
        max_vols=2,
    ),
}
MIGRATION_REJECTS = [
    name for name, case in CASES.items() if case.want == EXCEEDED and EBS_IN_TREE in case.drivers
]


def on_node(pod: Pod) -> Pod:
    return evolve(pod, spec=evolve(pod.spec, node_name=NODE))


def outcome(case: Case) -> Status | str | None:
    harness = PluginHarness(
        NodeVolumeLimits,
        nodes=[make_node(NODE).obj()],
        pods=[on_node(p) for p in case.existing],
        persistent_volumes=volumes(case.drivers),
        persistent_volume_claims=[*claims(case.drivers), *case.extra_claims],
        storage_classes=[StorageClass(ObjectMeta(name=SC), provisioner=case.drivers[0])],
        csi_nodes=csi_nodes(case.limit_source, case.max_vols, case.drivers),
        volume_attachments=attachments(case.va_count, case.drivers),
    )
    pre_filter = harness.pre_filter(case.new)
    if PLUGIN in harness.state.skip_filter_plugins:
        return SKIP
    assert pre_filter is None
    return harness.filter(case.new)[NODE]


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_upstream_csi_limits_table(case: Case) -> None:
    assert outcome(case) == case.want


def test_the_table_has_upstreams_seven_migration_rejections() -> None:
    """The cases where only counting migrated in-tree volumes finds the node full."""
    assert len(CASES) == 33
    assert len(MIGRATION_REJECTS) == 7
