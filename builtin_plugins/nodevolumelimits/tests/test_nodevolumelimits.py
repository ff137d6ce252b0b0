"""NodeVolumeLimits: CSI volume counting on small fixtures of our own, generic ephemeral
volumes, and the queueing hints (upstream's whole TestCSILimits table, in-tree migration and
VolumeAttachments included, is test_nodevolumelimits_csi_limits.py)."""

from __future__ import annotations

from typing import Any

import pytest
from attrs import evolve

from kubesched.api import (
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
    PersistentVolumeSpec,
    Pod,
    StorageClass,
    Volume,
    VolumeNodeResources,
)
from kubesched.framework import Code, QueueingHint, Status
from kubesched.testing import PluginHarness, make_node, make_pod
from kubesched_nodevolumelimits import NodeVolumeLimits
from kubesched_nodevolumelimits.hints import (
    schedulable_after_assigned_pod_deleted,
    schedulable_after_claim_added,
    schedulable_after_csi_node_updated,
)
from kubesched_nodevolumelimits.plugin import REASON_MAX_VOLUME_COUNT_EXCEEDED

EBS = "ebs.csi.aws.com"
GCE = "pd.csi.storage.gke.io"
SC = "csi-sc"
EXCEEDED = Status(Code.UNSCHEDULABLE, REASON_MAX_VOLUME_COUNT_EXCEEDED, plugin="NodeVolumeLimits")


def claim(name: str, volume: str = "", class_name: str | None = None) -> PersistentVolumeClaim:
    spec = PersistentVolumeClaimSpec(volume_name=volume, storage_class_name=class_name)
    return PersistentVolumeClaim(ObjectMeta(name=name, namespace="default"), spec)


def csi_volume(name: str, driver: str) -> PersistentVolume:
    source = CSIPersistentVolumeSource(driver=driver, volume_handle=name)
    return PersistentVolume(ObjectMeta(name=name), PersistentVolumeSpec(csi=source))


# Claims named csi-<driver>-<i> bound to CSI volumes of that driver, as upstream's helpers.
BOUND = [(driver, i) for driver in (EBS, GCE) for i in range(4)]
VOLUMES = [csi_volume(f"pv-{d}-{i}", d) for d, i in BOUND]
CLAIMS = [
    *(claim(f"csi-{d}-{i}", f"pv-{d}-{i}") for d, i in BOUND),
    claim("csi-4", class_name=SC),  # pending: counted as a volume its class would create
    claim("csi-5", class_name="missing-sc"),  # class missing: not counted
    claim("csi-6", "missing-pv", class_name=SC),  # volume missing: counted through its class
]
CLASSES = [StorageClass(ObjectMeta(name=SC), provisioner=EBS)]


def pod(name: str, *claims: str) -> Pod:
    builder = make_pod(name).namespace("default")
    for c in claims:
        builder = builder.pvc(c)
    return builder.obj()


def on_node(p: Pod) -> Pod:
    return evolve(p, spec=evolve(p.spec, node_name="node-1"))


CSI_EBS_ONE = pod("ebs-one", f"csi-{EBS}-0")
CSI_EBS_TWO = pod("ebs-two", f"csi-{EBS}-1", f"csi-{EBS}-2")
RUNNING = pod("running", f"csi-{EBS}-3")
PENDING = pod("pending", "csi-4")
PENDING_2 = pod("pending-2", "csi-4")
MISSING_PV = pod("missing-pv", "csi-6")
NO_SC = pod("no-sc", "csi-5")
GCE_TWO = pod("gce-two", f"csi-{GCE}-1", f"csi-{GCE}-2")


def csi_node(drivers: list[str], limit: int | None) -> CSINode:
    return CSINode(
        ObjectMeta(name="node-1"),
        CSINodeSpec(
            drivers=[
                CSINodeDriver(
                    name=d, allocatable=VolumeNodeResources(limit) if limit is not None else None
                )
                for d in drivers
            ]
        ),
    )


def run(
    new: Pod,
    existing: list[Pod],
    limit: int | None,
    drivers: list[str] = [EBS],  # noqa: B006
    csi: bool = True,
    extra_claims: list[PersistentVolumeClaim] = [],  # noqa: B006
) -> Status | None:
    harness = PluginHarness(
        NodeVolumeLimits,
        nodes=[make_node("node-1").obj()],
        pods=[on_node(p) for p in existing],
        persistent_volumes=VOLUMES,
        persistent_volume_claims=[*CLAIMS, *extra_claims],
        storage_classes=CLASSES,
        csi_nodes=[csi_node(drivers, limit)] if csi else [],
    )
    assert harness.pre_filter(new) is None
    return harness.filter(new)["node-1"]


@pytest.mark.parametrize(
    ("new", "existing", "limit", "drivers", "want"),
    [
        pytest.param(
            CSI_EBS_ONE,
            [RUNNING, CSI_EBS_TWO],
            4,
            [EBS],
            None,
            id="fits when node volume limit >= new pods CSI volume",
        ),
        pytest.param(
            CSI_EBS_ONE,
            [RUNNING, CSI_EBS_TWO],
            2,
            [EBS],
            EXCEEDED,
            id="doesn't when node volume limit <= pods CSI volume",
        ),
        pytest.param(
            CSI_EBS_ONE,
            [RUNNING, CSI_EBS_TWO],
            None,
            [EBS],
            None,
            id="should when driver does not support volume limits",
        ),
        pytest.param(
            CSI_EBS_ONE,
            [PENDING, CSI_EBS_TWO],
            2,
            [EBS],
            EXCEEDED,
            id="count pending PVCs towards volume limit <= pods CSI volume",
        ),
        pytest.param(
            CSI_EBS_ONE,
            [PENDING, PENDING_2, CSI_EBS_TWO],
            4,
            [EBS],
            None,
            id="count multiple pending pvcs towards volume limit >= pods CSI volume",
        ),
        pytest.param(
            CSI_EBS_ONE,
            [MISSING_PV, CSI_EBS_TWO],
            2,
            [EBS],
            EXCEEDED,
            id="should count PVCs with invalid PV name but valid SC",
        ),
        pytest.param(
            CSI_EBS_ONE,
            [RUNNING, NO_SC],
            2,
            [EBS],
            None,
            id="don't count pvcs with missing SC towards volume limit",
        ),
        pytest.param(
            CSI_EBS_ONE,
            [GCE_TWO, CSI_EBS_TWO],
            2,
            [EBS, GCE],
            EXCEEDED,
            id="count pvcs with the same type towards volume limit",
        ),
        pytest.param(
            GCE_TWO,
            [CSI_EBS_TWO, RUNNING],
            2,
            [EBS, GCE],
            None,
            id="don't count pvcs with different type towards volume limit",
        ),
        pytest.param(
            pod("again", f"csi-{EBS}-1"),
            [CSI_EBS_TWO],
            2,
            [EBS],
            None,
            id="a volume already attached for another pod counts once",
        ),
    ],
)
def test_csi_limits(
    new: Pod, existing: list[Pod], limit: int | None, drivers: list[str], want: Status | None
) -> None:
    assert run(new, existing, limit, drivers) == want


def test_no_csi_node_means_no_limit() -> None:
    assert run(CSI_EBS_ONE, [RUNNING, CSI_EBS_TWO], 1, csi=False) is None


def test_missing_claim_of_the_new_pod_is_unresolvable() -> None:
    got = run(pod("p", "nope"), [], 2)
    assert got == Status(
        Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
        'looking up PVC default/nope: persistentvolumeclaim "nope" not found',
        plugin="NodeVolumeLimits",
    )


def test_missing_claim_of_a_running_pod_is_not_counted() -> None:
    assert run(CSI_EBS_ONE, [pod("gone", "nope"), RUNNING], 2) is None


def test_pod_without_claims_is_skipped() -> None:
    harness = PluginHarness(NodeVolumeLimits, nodes=[make_node("node-1").obj()])
    harness.pre_filter(make_pod("p").volume(Volume(name="scratch")).obj())
    assert "NodeVolumeLimits" in harness.state.skip_filter_plugins


EPHEMERAL = (
    make_pod("abc")
    .namespace("default")
    .volume(Volume(name="xyz", ephemeral=EphemeralVolumeSource()))
    .obj()
)


def ephemeral_claim(owner_uid: str | None) -> PersistentVolumeClaim:
    owners = [OwnerReference(kind="Pod", name="abc", uid=owner_uid, controller=True)]
    return PersistentVolumeClaim(
        ObjectMeta(
            name="abc-xyz", namespace="default", owner_references=owners if owner_uid else []
        ),
        PersistentVolumeClaimSpec(storage_class_name=SC),
    )


def test_ephemeral_volume_counts_through_its_class() -> None:
    claims = [ephemeral_claim(EPHEMERAL.uid)]
    assert run(EPHEMERAL, [CSI_EBS_TWO], 3, extra_claims=claims) is None
    assert run(EPHEMERAL, [CSI_EBS_TWO], 2, extra_claims=claims) == EXCEEDED


def test_ephemeral_claim_not_owned_by_the_pod_is_an_error() -> None:
    got = run(EPHEMERAL, [], 2, extra_claims=[ephemeral_claim(None)])
    assert got is not None and got.code == Code.ERROR
    assert "PVC default/abc-xyz was not created for pod default/abc (pod is not owner)" in (
        got.message
    )


def test_missing_ephemeral_claim_is_unresolvable() -> None:
    got = run(EPHEMERAL, [], 2)
    assert got is not None and got.code == Code.UNSCHEDULABLE_AND_UNRESOLVABLE


@pytest.mark.parametrize(
    ("old", "new", "want"),
    [
        (csi_node([EBS], 2), csi_node([EBS], 3), QueueingHint.QUEUE),
        (csi_node([EBS], 2), csi_node([EBS], 2), QueueingHint.QUEUE_SKIP),
        (csi_node([EBS], 2), csi_node([EBS], 1), QueueingHint.QUEUE_SKIP),
        (csi_node([EBS], 2), csi_node([EBS], None), QueueingHint.QUEUE),
        (csi_node([EBS], 2), csi_node([EBS, GCE], 2), QueueingHint.QUEUE),
        ("x", csi_node([EBS], 2), QueueingHint.QUEUE),
    ],
    ids=["count raised", "unchanged", "count lowered", "limit removed", "driver added", "bad"],
)
def test_csi_node_updated_hint(old: Any, new: Any, want: QueueingHint) -> None:
    assert schedulable_after_csi_node_updated(CSI_EBS_ONE, old, new) == want


def test_assigned_pod_deleted_hint() -> None:
    assert schedulable_after_assigned_pod_deleted(CSI_EBS_ONE, on_node(RUNNING), None) == (
        QueueingHint.QUEUE
    )
    assert schedulable_after_assigned_pod_deleted(CSI_EBS_ONE, RUNNING, None) == (
        QueueingHint.QUEUE_SKIP
    )
    no_claims = on_node(make_pod("plain").obj())
    assert schedulable_after_assigned_pod_deleted(CSI_EBS_ONE, no_claims, None) == (
        QueueingHint.QUEUE_SKIP
    )


def test_claim_added_hint() -> None:
    assert schedulable_after_claim_added(PENDING, None, claim("csi-4")) == QueueingHint.QUEUE
    assert schedulable_after_claim_added(PENDING, None, claim("other")) == QueueingHint.QUEUE_SKIP
    assert schedulable_after_claim_added(EPHEMERAL, None, ephemeral_claim(None)) == (
        QueueingHint.QUEUE
    )
