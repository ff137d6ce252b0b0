"""VolumeRestrictions: upstream's disk-conflict tables (GCE PD, AWS EBS, RBD, iSCSI), its
access-mode conflict table, the preemption extensions and the queueing hints."""

from __future__ import annotations

import pytest

from kubesched.api import (
    READ_WRITE_MANY,
    READ_WRITE_ONCE_POD,
    AWSElasticBlockStoreVolumeSource,
    GCEPersistentDiskVolumeSource,
    ISCSIVolumeSource,
    ObjectMeta,
    PersistentVolumeClaim,
    PersistentVolumeClaimSpec,
    Pod,
    RBDVolumeSource,
    Volume,
)
from kubesched.framework import ActionType, Code, EventResource, PodInfo, QueueingHint, Status
from kubesched.testing import PluginHarness, make_node, make_pod
from kubesched_volumerestrictions import VolumeRestrictions
from kubesched_volumerestrictions.hints import (
    schedulable_after_claim_added,
    schedulable_after_pod_deleted,
)
from kubesched_volumerestrictions.plugin import (
    REASON_DISK_CONFLICT,
    REASON_READ_WRITE_ONCE_POD_CONFLICT,
)

SKIP = Status(Code.SKIP)
PLUGIN = "VolumeRestrictions"
DISK = Status(Code.UNSCHEDULABLE, REASON_DISK_CONFLICT, plugin=PLUGIN)
RWOP = Status(Code.UNSCHEDULABLE, REASON_READ_WRITE_ONCE_POD_CONFLICT, plugin=PLUGIN)

GCE = (
    Volume(name="v", gce_persistent_disk=GCEPersistentDiskVolumeSource(pd_name="foo")),
    Volume(name="v", gce_persistent_disk=GCEPersistentDiskVolumeSource(pd_name="bar")),
)
AWS = (
    Volume(name="v", aws_elastic_block_store=AWSElasticBlockStoreVolumeSource(volume_i_d="foo")),
    Volume(name="v", aws_elastic_block_store=AWSElasticBlockStoreVolumeSource(volume_i_d="bar")),
)
RBD = (
    Volume(name="v", rbd=RBDVolumeSource(monitors=["a", "b"], pool="foo", image="bar")),
    Volume(name="v", rbd=RBDVolumeSource(monitors=["c", "d"], pool="foo", image="bar")),
)
ISCSI = (
    Volume(name="v", iscsi=ISCSIVolumeSource(iqn="iqn.2016-12.server:storage.target01")),
    Volume(name="v", iscsi=ISCSIVolumeSource(iqn="iqn.2017-12.server:storage.target01")),
)


def run(pod: Pod, existing: list[Pod], **storage: object) -> tuple[object, Status | None]:
    """PreFilter, then (unless it rejected or skipped) Filter on node-1 holding `existing`."""
    node = make_node("node-1").obj()
    harness = PluginHarness(VolumeRestrictions, nodes=[node], pods=existing, **storage)  # type: ignore[arg-type]
    pre = harness.pre_filter(pod)
    if harness.name in harness.state.skip_filter_plugins:
        return SKIP, None
    if pre is not None:
        return pre, None
    return pre, harness.filter(pod)["node-1"]


def with_volume(name: str, volume: Volume, node: str = "") -> Pod:
    builder = make_pod(name).volume(volume)
    return (builder.node(node) if node else builder).obj()


@pytest.mark.parametrize("kind", [GCE, AWS, RBD, ISCSI], ids=["gce", "aws", "rbd", "iscsi"])
@pytest.mark.parametrize(
    ("pod_volume", "existing_volume", "want_pre", "want"),
    [
        pytest.param(None, None, SKIP, None, id="nothing"),
        pytest.param(None, 0, SKIP, None, id="one state"),
        pytest.param(0, 0, None, DISK, id="same state"),
        pytest.param(1, 0, None, None, id="different state"),
    ],
)
def test_disk_conflicts(
    kind: tuple[Volume, Volume],
    pod_volume: int | None,
    existing_volume: int | None,
    want_pre: Status | None,
    want: Status | None,
) -> None:
    pod = with_volume("p", kind[pod_volume]) if pod_volume is not None else make_pod("p").obj()
    existing = (
        [with_volume("e", kind[existing_volume], "node-1")] if existing_volume is not None else []
    )
    pre, got = run(pod, existing)
    assert pre == want_pre
    assert got == want


def test_volume_without_restrictions_is_skipped() -> None:
    pre, _ = run(make_pod("p").volume(Volume(name="empty")).obj(), [])
    assert pre == SKIP


@pytest.mark.parametrize(
    ("both_read_only", "want"), [(True, None), (False, DISK)], ids=["read-only", "read-write"]
)
def test_read_only_gce_disks_share_a_node(both_read_only: bool, want: Status | None) -> None:
    ro = Volume(
        name="v", gce_persistent_disk=GCEPersistentDiskVolumeSource(pd_name="d", read_only=True)
    )
    rw = Volume(name="v", gce_persistent_disk=GCEPersistentDiskVolumeSource(pd_name="d"))
    _, got = run(with_volume("p", ro), [with_volume("e", ro if both_read_only else rw, "node-1")])
    assert got == want


def claim(name: str, mode: str) -> PersistentVolumeClaim:
    return PersistentVolumeClaim(
        ObjectMeta(name=name, namespace="default"), PersistentVolumeClaimSpec(access_modes=[mode])
    )


RWOP1, RWOP2 = (
    claim("claim-with-rwop-1", READ_WRITE_ONCE_POD),
    claim("claim-with-rwop-2", READ_WRITE_ONCE_POD),
)
RWX = claim("claim-with-rwx", READ_WRITE_MANY)


def claim_pod(name: str, *claims: str, node: str = "") -> Pod:
    builder = make_pod(name).namespace("default")
    for c in claims:
        builder = builder.pvc(c)
    return (builder.node(node) if node else builder).obj()


@pytest.mark.parametrize(
    ("pod", "existing", "claims", "want_pre", "want"),
    [
        pytest.param(make_pod("p").obj(), [], [], SKIP, None, id="nothing"),
        pytest.param(
            claim_pod("p", "claim-with-rwop-1"),
            [],
            [],
            Status(
                Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
                'persistentvolumeclaim "claim-with-rwop-1" not found',
                plugin=PLUGIN,
            ),
            None,
            id="failed to get PVC",
        ),
        pytest.param(
            claim_pod("p", "claim-with-rwop-1"),
            [claim_pod("rwx", "claim-with-rwx", node="node-1")],
            [RWOP1, RWX],
            SKIP,
            None,
            id="no access mode conflict",
        ),
        pytest.param(
            claim_pod("p", "claim-with-rwop-1"),
            [
                claim_pod("one", "claim-with-rwop-1", node="node-1"),
                claim_pod("rwx", "claim-with-rwx", node="node-1"),
            ],
            [RWOP1, RWX],
            None,
            RWOP,
            id="access mode conflict, unschedulable",
        ),
        pytest.param(
            claim_pod("p", "claim-with-rwop-1", "claim-with-rwop-2"),
            [
                claim_pod("two", "claim-with-rwop-1", "claim-with-rwop-2", node="node-1"),
                claim_pod("rwx", "claim-with-rwx", node="node-1"),
            ],
            [RWOP1, RWOP2, RWX],
            None,
            RWOP,
            id="two conflicts, unschedulable",
        ),
    ],
)
def test_access_mode_conflicts(
    pod: Pod,
    existing: list[Pod],
    claims: list[PersistentVolumeClaim],
    want_pre: Status | None,
    want: Status | None,
) -> None:
    pre, got = run(pod, existing, persistent_volume_claims=claims)
    assert pre == want_pre
    assert got == want


def test_conflict_on_another_node_rejects_every_node() -> None:
    harness = PluginHarness(
        VolumeRestrictions,
        nodes=[make_node("node-1").obj(), make_node("node-2").obj()],
        pods=[claim_pod("holder", "claim-with-rwop-1", node="node-2")],
        persistent_volume_claims=[RWOP1],
    )
    pod = claim_pod("p", "claim-with-rwop-1")
    assert harness.pre_filter(pod) is None
    assert harness.filter(pod) == {"node-1": RWOP, "node-2": RWOP}


def test_removing_the_holder_in_a_dry_run_clears_the_conflict() -> None:
    holder = claim_pod("holder", "claim-with-rwop-1", node="node-1")
    harness = PluginHarness(
        VolumeRestrictions,
        nodes=[make_node("node-1").obj()],
        pods=[holder],
        persistent_volume_claims=[RWOP1],
    )
    pod = claim_pod("p", "claim-with-rwop-1")
    assert harness.pre_filter(pod) is None
    (node,) = harness.nodes
    plugin = harness.plugin
    assert plugin.pre_filter_remove_pod(harness.state, PodInfo(holder)) is None
    assert plugin.filter(harness.state, pod, node) is None
    assert plugin.pre_filter_add_pod(harness.state, PodInfo(holder)) is None
    assert plugin.filter(harness.state, pod, node) == Status(
        Code.UNSCHEDULABLE, REASON_READ_WRITE_ONCE_POD_CONFLICT
    )


def test_events() -> None:
    events = [
        (e.event.resource, e.event.action_type) for e in VolumeRestrictions().events_to_register()
    ]
    assert events == [
        (EventResource.POD, ActionType.DELETE),
        (EventResource.NODE, ActionType.ADD),
        (EventResource.PERSISTENT_VOLUME_CLAIM, ActionType.ADD),
    ]


@pytest.mark.parametrize(
    ("deleted", "want"),
    [
        pytest.param(with_volume("d", GCE[0], "n"), QueueingHint.QUEUE, id="conflicting disk"),
        pytest.param(with_volume("d", GCE[1], "n"), QueueingHint.QUEUE_SKIP, id="other disk"),
        pytest.param(
            make_pod("d").namespace("other").volume(GCE[0]).obj(),
            QueueingHint.QUEUE_SKIP,
            id="other namespace",
        ),
        pytest.param(make_pod("d").pvc("c1").obj(), QueueingHint.QUEUE, id="same claim"),
        pytest.param(make_pod("d").pvc("c2").obj(), QueueingHint.QUEUE_SKIP, id="other claim"),
    ],
)
def test_pod_deleted_hint(deleted: Pod, want: QueueingHint) -> None:
    pod = make_pod("p").volume(GCE[0]).pvc("c1").obj()
    assert schedulable_after_pod_deleted(pod, deleted, None) == want


def test_claim_added_hint() -> None:
    pod = claim_pod("p", "claim-with-rwop-1")
    assert schedulable_after_claim_added(pod, None, RWOP1) == QueueingHint.QUEUE
    assert schedulable_after_claim_added(pod, None, RWX) == QueueingHint.QUEUE_SKIP
    other_ns = PersistentVolumeClaim(ObjectMeta(name="claim-with-rwop-1", namespace="x"))
    assert schedulable_after_claim_added(pod, None, other_ns) == QueueingHint.QUEUE_SKIP
