"""VolumeZone: upstream's TestSingleZone, TestMultiZone and TestWithBinding tables, and its
queueing-hint tables."""

from __future__ import annotations

from typing import Any

import pytest

from kubesched.api import (
    BINDING_WAIT_FOR_FIRST_CONSUMER,
    ObjectMeta,
    PersistentVolume,
    PersistentVolumeClaim,
    PersistentVolumeClaimSpec,
    Pod,
    StorageClass,
)
from kubesched.framework import Code, CycleState, NodeInfo, QueueingHint, Status
from kubesched.testing import PluginHarness, make_node, make_pod
from kubesched_volumezone import VolumeZone
from kubesched_volumezone.hints import (
    schedulable_after_claim_change,
    schedulable_after_storage_class_added,
    schedulable_after_volume_change,
)
from kubesched_volumezone.plugin import REASON_CONFLICT

BETA_ZONE = "failure-domain.beta.kubernetes.io/zone"
BETA_REGION = "failure-domain.beta.kubernetes.io/region"
ZONE = "topology.kubernetes.io/zone"
REGION = "topology.kubernetes.io/region"
SKIP = Status(Code.SKIP)
CONFLICT = Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, REASON_CONFLICT)


def pv(name: str, **labels: str) -> PersistentVolume:
    return PersistentVolume(ObjectMeta(name=name, labels=labels))


def pvc(name: str, volume: str = "", class_name: str | None = None) -> PersistentVolumeClaim:
    spec = PersistentVolumeClaimSpec(volume_name=volume, storage_class_name=class_name)
    return PersistentVolumeClaim(ObjectMeta(name=name, namespace="default"), spec)


def pod_with(claim: str) -> Pod:
    return make_pod("pod_1").namespace("default").pvc(claim).obj()


SINGLE_ZONE_PVS = [
    pv("Vol_1", **{BETA_ZONE: "us-west1-a"}),
    pv("Vol_2", **{BETA_REGION: "us-west1", "uselessLabel": "none"}),
    pv("Vol_3", **{BETA_REGION: "us-west1"}),
    pv("Vol_Stable_1", **{ZONE: "us-west1-a"}),
    pv("Vol_Stable_2", **{REGION: "us-west1", "uselessLabel": "none"}),
    pv("Vol_Stable_3", **{ZONE: "us-west1-a", REGION: "us-west1-a"}),
]
SINGLE_ZONE_PVCS = [
    pvc("PVC_1", "Vol_1"),
    pvc("PVC_2", "Vol_2"),
    pvc("PVC_3", "Vol_3"),
    pvc("PVC_4", "Vol_not_exist"),
    pvc("PVC_Stable_1", "Vol_Stable_1"),
    pvc("PVC_Stable_2", "Vol_Stable_2"),
    pvc("PVC_Stable_3", "Vol_Stable_3"),
]
MULTI_ZONE_PVS = [
    pv("Vol_1", **{BETA_ZONE: "us-west1-a"}),
    pv("Vol_2", **{BETA_ZONE: "us-west1-b", "uselessLabel": "none"}),
    pv("Vol_3", **{BETA_ZONE: "us-west1-c__us-west1-a"}),
    pv("Vol_Stable_1", **{ZONE: "us-west1-a"}),
    pv("Vol_Stable_2", **{ZONE: "us-west1-c__us-west1-a"}),
]
MULTI_ZONE_PVCS = [
    pvc("PVC_1", "Vol_1"),
    pvc("PVC_2", "Vol_2"),
    pvc("PVC_3", "Vol_3"),
    pvc("PVC_4", "Vol_not_exist"),
    pvc("PVC_Stable_1", "Vol_Stable_1"),
    pvc("PVC_Stable_2", "Vol_Stable_2"),
]
WITH_BINDING_CLASSES = [
    StorageClass(ObjectMeta(name="Class_Immediate")),
    StorageClass(
        ObjectMeta(name="Class_Wait"), volume_binding_mode=BINDING_WAIT_FOR_FIRST_CONSUMER
    ),
]
WITH_BINDING_PVCS = [
    pvc("PVC_1", "Vol_1"),
    pvc("PVC_NoSC", class_name="Class_0"),
    pvc("PVC_EmptySC"),
    pvc("PVC_WaitSC", class_name="Class_Wait"),
    pvc("PVC_ImmediateSC", class_name="Class_Immediate"),
]


def run(
    pod: Pod,
    node_labels: dict[str, str],
    pvs: list[PersistentVolume],
    pvcs: list[PersistentVolumeClaim],
    classes: list[StorageClass] = (),  # type: ignore[assignment]
) -> tuple[Status | None, Status | None]:
    """PreFilter's status (SKIP when skipped), then Filter's on the node (always run, as
    upstream's tests do: Filter recomputes when PreFilter wrote nothing)."""
    node = make_node("host1").labels(node_labels).obj()
    harness = PluginHarness(
        VolumeZone,
        nodes=[node],
        persistent_volumes=pvs,
        persistent_volume_claims=pvcs,
        storage_classes=classes,
    )
    plugin = harness.plugin
    state = CycleState()
    pre = plugin.pre_filter(state, pod)
    return pre, plugin.filter(state, pod, NodeInfo(node))


@pytest.mark.parametrize(
    ("claim", "labels", "want_pre", "want"),
    [
        pytest.param(None, {BETA_ZONE: "us-west1-a"}, SKIP, None, id="pod without volume"),
        pytest.param("PVC_1", {}, None, None, id="node without labels"),
        pytest.param(
            "PVC_1",
            {BETA_ZONE: "us-west1-a", "uselessLabel": "none"},
            None,
            None,
            id="beta zone label matched",
        ),
        pytest.param(
            "PVC_2",
            {BETA_REGION: "us-west1", "uselessLabel": "none"},
            None,
            None,
            id="beta region label matched",
        ),
        pytest.param(
            "PVC_2",
            {BETA_REGION: "no_us-west1", "uselessLabel": "none"},
            None,
            CONFLICT,
            id="beta region label doesn't match",
        ),
        pytest.param(
            "PVC_1",
            {BETA_ZONE: "no_us-west1-a", "uselessLabel": "none"},
            None,
            CONFLICT,
            id="beta zone label doesn't match",
        ),
        pytest.param(
            "PVC_Stable_1",
            {ZONE: "us-west1-a", "uselessLabel": "none"},
            None,
            None,
            id="zone label matched",
        ),
        pytest.param(
            "PVC_Stable_2",
            {REGION: "us-west1", "uselessLabel": "none"},
            None,
            None,
            id="region label matched",
        ),
        pytest.param(
            "PVC_Stable_2",
            {REGION: "no_us-west1", "uselessLabel": "none"},
            None,
            CONFLICT,
            id="region label doesn't match",
        ),
        pytest.param(
            "PVC_Stable_1",
            {ZONE: "no_us-west1-a", "uselessLabel": "none"},
            None,
            CONFLICT,
            id="zone label doesn't match",
        ),
        pytest.param(
            "PVC_Stable_3",
            {ZONE: "us-west1-a"},
            None,
            CONFLICT,
            id="pv with zone and region, node with only zone",
        ),
        pytest.param(
            "PVC_Stable_1",
            {BETA_ZONE: "us-west1-a"},
            None,
            CONFLICT,
            id="pv with zone,node with beta zone",
        ),
        pytest.param(
            "PVC_1",
            {ZONE: "us-west1-a"},
            None,
            None,
            id="pv with beta label,node with ga label, matched",
        ),
        pytest.param(
            "PVC_1",
            {ZONE: "us-west1-b"},
            None,
            CONFLICT,
            id="pv with beta label,node with ga label, don't match",
        ),
    ],
)
def test_single_zone(
    claim: str | None, labels: dict[str, str], want_pre: Status | None, want: Status | None
) -> None:
    pod = pod_with(claim) if claim else make_pod("pod_1").namespace("default").obj()
    assert run(pod, labels, SINGLE_ZONE_PVS, SINGLE_ZONE_PVCS) == (want_pre, want)


@pytest.mark.parametrize(
    ("claim", "labels", "want"),
    [
        pytest.param("PVC_3", {}, None, id="node without labels"),
        pytest.param(
            "PVC_3",
            {BETA_ZONE: "us-west1-a", "uselessLabel": "none"},
            None,
            id="beta zone label matched",
        ),
        pytest.param(
            "PVC_1",
            {BETA_ZONE: "us-west1-b", "uselessLabel": "none"},
            CONFLICT,
            id="beta zone label doesn't match",
        ),
        pytest.param(
            "PVC_Stable_2",
            {ZONE: "us-west1-a", "uselessLabel": "none"},
            None,
            id="zone label matched",
        ),
        pytest.param(
            "PVC_Stable_1",
            {ZONE: "us-west1-b", "uselessLabel": "none"},
            CONFLICT,
            id="zone label doesn't match",
        ),
    ],
)
def test_multi_zone(claim: str, labels: dict[str, str], want: Status | None) -> None:
    assert run(pod_with(claim), labels, MULTI_ZONE_PVS, MULTI_ZONE_PVCS) == (None, want)


def unresolvable(message: str) -> Status:
    return Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, message)


@pytest.mark.parametrize(
    ("claim", "want_pre", "want"),
    [
        pytest.param("PVC_1", None, None, id="label zone failure domain matched"),
        pytest.param(
            "PVC_EmptySC",
            unresolvable("PersistentVolumeClaim had no pv name and storageClass name"),
            unresolvable("PersistentVolumeClaim had no pv name and storageClass name"),
            id="unbound volume empty storage class",
        ),
        pytest.param(
            "PVC_NoSC",
            unresolvable('storageclass.storage.k8s.io "Class_0" not found'),
            unresolvable('storageclass.storage.k8s.io "Class_0" not found'),
            id="unbound volume no storage class",
        ),
        pytest.param(
            "PVC_ImmediateSC",
            unresolvable("PersistentVolume had no name"),
            unresolvable("PersistentVolume had no name"),
            id="unbound volume immediate binding mode",
        ),
        pytest.param("PVC_WaitSC", SKIP, None, id="unbound volume wait binding mode"),
        pytest.param(
            "PVC_missing",
            unresolvable('persistentvolumeclaim "PVC_missing" not found'),
            unresolvable('persistentvolumeclaim "PVC_missing" not found'),
            id="claim not found",
        ),
    ],
)
def test_with_binding(claim: str, want_pre: Status | None, want: Status | None) -> None:
    labels = {BETA_ZONE: "us-west1-a", "uselessLabel": "none"}
    got = run(
        pod_with(claim),
        labels,
        [pv("Vol_1", **{BETA_ZONE: "us-west1-a"})],
        WITH_BINDING_PVCS,
        WITH_BINDING_CLASSES,
    )
    assert got == (want_pre, want)


def test_volume_not_found() -> None:
    want = unresolvable('persistentvolume "Vol_not_exist" not found')
    assert run(pod_with("PVC_4"), {}, SINGLE_ZONE_PVS, SINGLE_ZONE_PVCS) == (want, want)


def test_malformed_zone_label_is_ignored() -> None:
    pvs = [pv("Vol_1", **{ZONE: "a____b"})]
    assert run(pod_with("PVC_1"), {ZONE: "c"}, pvs, [pvc("PVC_1", "Vol_1")]) == (SKIP, None)


def test_through_the_framework_a_mismatch_rejects_the_node() -> None:
    harness = PluginHarness(
        VolumeZone,
        nodes=[make_node("a").labels({ZONE: "a"}).obj(), make_node("b").labels({ZONE: "b"}).obj()],
        persistent_volumes=[pv("v", **{ZONE: "b"})],
        persistent_volume_claims=[pvc("c", "v")],
    )
    pod = pod_with("c")
    assert harness.pre_filter(pod) is None
    assert harness.filter(pod) == {
        "a": Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, REASON_CONFLICT, plugin="VolumeZone"),
        "b": None,
    }


BOUND = pvc("PVC_1", "Vol_1")


@pytest.mark.parametrize(
    ("pod", "old", "new", "want"),
    [
        (pod_with("PVC_1"), None, "not-a-pvc", QueueingHint.QUEUE),
        (make_pod("pod_1").namespace("default").obj(), None, BOUND, QueueingHint.QUEUE_SKIP),
        (pod_with("PVC_2"), None, BOUND, QueueingHint.QUEUE_SKIP),
        (
            pod_with("PVC_1"),
            None,
            PersistentVolumeClaim(ObjectMeta(name="PVC_1", namespace="ns1")),
            QueueingHint.QUEUE_SKIP,
        ),
        (pod_with("PVC_1"), None, BOUND, QueueingHint.QUEUE),
        (pod_with("PVC_1"), pvc("PVC_1"), BOUND, QueueingHint.QUEUE),
        (
            make_pod("pod_1").namespace("default").obj(),
            pvc("PVC_1"),
            BOUND,
            QueueingHint.QUEUE_SKIP,
        ),
    ],
)
def test_claim_change_hint(pod: Pod, old: Any, new: Any, want: QueueingHint) -> None:
    assert schedulable_after_claim_change(pod, old, new) == want


def test_storage_class_added_hint() -> None:
    pod = pod_with("PVC_1")
    assert schedulable_after_storage_class_added(pod, None, "x") == QueueingHint.QUEUE
    immediate = StorageClass(ObjectMeta(name="SC_1"))
    assert schedulable_after_storage_class_added(pod, None, immediate) == QueueingHint.QUEUE_SKIP
    wait = StorageClass(
        ObjectMeta(name="SC_1"), volume_binding_mode=BINDING_WAIT_FOR_FIRST_CONSUMER
    )
    assert schedulable_after_storage_class_added(pod, None, wait) == QueueingHint.QUEUE


@pytest.mark.parametrize(
    ("old", "new", "want"),
    [
        (None, "not-a-pv", QueueingHint.QUEUE),
        ("not-a-pv", pv("Vol_1"), QueueingHint.QUEUE),
        (None, pv("Vol_1", **{BETA_ZONE: "us-west1-b"}), QueueingHint.QUEUE),
        (
            pv("Vol_1", **{BETA_ZONE: "us-west1-a"}),
            pv("Vol_1", **{BETA_ZONE: "us-west1-b"}),
            QueueingHint.QUEUE,
        ),
        (
            pv("Vol_1", **{BETA_ZONE: "us-west1-a"}),
            pv("Vol_1", **{BETA_ZONE: "us-west1-a", ZONE: "zone"}),
            QueueingHint.QUEUE,
        ),
        (
            pv("Vol_1", **{BETA_ZONE: "us-west1-a", ZONE: "zone"}),
            pv("Vol_1", **{BETA_ZONE: "us-west1-a", ZONE: "zone"}),
            QueueingHint.QUEUE_SKIP,
        ),
    ],
    ids=[
        "error-wrong-new-object",
        "error-wrong-old-object",
        "new-pv-was-added",
        "pv-was-updated-and-changed-topology",
        "pv-was-updated-and-added-topology-label",
        "pv-was-updated-but-no-topology-is-changed",
    ],
)
def test_volume_change_hint(old: Any, new: Any, want: QueueingHint) -> None:
    assert schedulable_after_volume_change(pod_with("PVC_1"), old, new) == want
