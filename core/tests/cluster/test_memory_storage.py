"""The in-memory cluster holds the storage objects, lists them, records their changes, and
plays the PV controller and the provisioners."""

from __future__ import annotations

import pytest
from attrs import evolve

from kubesched.api import (
    ANN_SELECTED_NODE,
    BINDING_WAIT_FOR_FIRST_CONSUMER,
    ObjectMeta,
    ObjectReference,
    PersistentVolume,
    PersistentVolumeClaim,
    PersistentVolumeClaimSpec,
    PersistentVolumeSpec,
    ResourceRequirementsForClaim,
    StorageClass,
    TopologySelectorLabelRequirement,
    TopologySelectorTerm,
    is_claim_bound,
)
from kubesched.cluster.memory import InMemoryCluster
from kubesched.cluster.storage import StorageError
from kubesched.framework import ActionType, ClusterEvent, EventResource
from kubesched.scheduler.eventhandlers import storage_event
from kubesched.testing import make_node

ZONE = "topology.kubernetes.io/zone"


def test_lists_looks_up_and_records_changes() -> None:
    pv = PersistentVolume(ObjectMeta(name="pv1"), PersistentVolumeSpec(capacity={"storage": 1}))
    pvc = PersistentVolumeClaim(ObjectMeta(name="c", namespace="ns"))
    cluster = InMemoryCluster(
        persistent_volumes=[pv],
        persistent_volume_claims=[pvc],
        storage_classes=[StorageClass(ObjectMeta(name="sc"))],
    )
    available = cluster.get_persistent_volume("pv1")
    assert available is not None and available.status.phase == "Available"
    assert cluster.take_changes() == [(None, available), (None, pvc)]
    assert cluster.get_persistent_volume_claim("ns", "c") == pvc
    assert cluster.get_persistent_volume_claim("other", "c") is None
    assert cluster.get_storage_class("sc") is not None
    assert cluster.get_csi_node("n1") is None
    with pytest.raises(StorageError, match="already exists"):
        cluster.create_persistent_volume(pv)
    with pytest.raises(StorageError, match="not found"):
        cluster.update_persistent_volume(evolve(pv, metadata=ObjectMeta(name="nope")))


def test_a_claim_naming_a_volume_is_bound_at_load() -> None:
    pv = PersistentVolume(ObjectMeta(name="pv1"), PersistentVolumeSpec(capacity={"storage": 5}))
    pvc = PersistentVolumeClaim(
        ObjectMeta(name="c", namespace="ns", uid="u1"), PersistentVolumeClaimSpec(volume_name="pv1")
    )
    cluster = InMemoryCluster(persistent_volumes=[pv], persistent_volume_claims=[pvc])
    bound = cluster.get_persistent_volume_claim("ns", "c")
    volume = cluster.get_persistent_volume("pv1")
    assert bound is not None and is_claim_bound(bound) and bound.status.phase == "Bound"
    assert volume is not None and volume.status.phase == "Bound"
    assert volume.spec.claim_ref == ObjectReference(
        kind="PersistentVolumeClaim", namespace="ns", name="c", uid="u1", api_version="v1"
    )


def test_a_claim_ref_written_to_a_volume_binds_the_claim() -> None:
    pv = PersistentVolume(ObjectMeta(name="pv1"), PersistentVolumeSpec(capacity={"storage": 5}))
    pvc = PersistentVolumeClaim(ObjectMeta(name="c", namespace="ns"))
    cluster = InMemoryCluster(persistent_volumes=[pv], persistent_volume_claims=[pvc])
    cluster.take_changes()
    live = cluster.get_persistent_volume("pv1")
    assert live is not None
    cluster.update_persistent_volume(
        evolve(live, spec=evolve(live.spec, claim_ref=ObjectReference(namespace="ns", name="c")))
    )
    bound = cluster.get_persistent_volume_claim("ns", "c")
    assert bound is not None and is_claim_bound(bound) and bound.spec.volume_name == "pv1"
    assert len(cluster.take_changes()) == 3  # the claimRef write, then the controller's binding


def test_a_selected_node_provisions_a_volume_in_the_node_topology() -> None:
    sc = StorageClass(
        ObjectMeta(name="wait"),
        provisioner="ebs.csi.aws.com",
        volume_binding_mode=BINDING_WAIT_FOR_FIRST_CONSUMER,
        allowed_topologies=[
            TopologySelectorTerm([TopologySelectorLabelRequirement(ZONE, ["a", "b"])])
        ],
    )
    pvc = PersistentVolumeClaim(
        ObjectMeta(name="c", namespace="ns", uid="u1"),
        PersistentVolumeClaimSpec(
            access_modes=["ReadWriteOnce"],
            storage_class_name="wait",
            resources=ResourceRequirementsForClaim(requests={"storage": 10}),
        ),
    )
    cluster = InMemoryCluster(
        nodes=[make_node("n1").label(ZONE, "b").obj()],
        persistent_volume_claims=[pvc],
        storage_classes=[sc],
    )
    annotated = evolve(pvc, metadata=evolve(pvc.metadata, annotations={ANN_SELECTED_NODE: "n1"}))
    cluster.update_persistent_volume_claim(annotated)
    bound = cluster.get_persistent_volume_claim("ns", "c")
    assert bound is not None and is_claim_bound(bound) and bound.spec.volume_name == "pvc-u1"
    volume = cluster.get_persistent_volume("pvc-u1")
    assert volume is not None
    assert volume.spec.capacity == {"storage": 10}
    assert volume.spec.storage_class_name == "wait"
    assert volume.spec.node_affinity is not None
    (term,) = volume.spec.node_affinity.required.node_selector_terms  # type: ignore[union-attr]
    assert [(r.key, r.values) for r in term.match_expressions] == [(ZONE, ["b"])]


def test_storage_changes_are_cluster_events() -> None:
    pvc = PersistentVolumeClaim(ObjectMeta(name="c"))
    claim = EventResource.PERSISTENT_VOLUME_CLAIM
    assert storage_event(None, pvc) == ClusterEvent(claim, ActionType.ADD)
    assert storage_event(pvc, pvc) == ClusterEvent(claim, ActionType.UPDATE)
    assert storage_event(pvc, None) == ClusterEvent(claim, ActionType.DELETE)
    assert storage_event(None, object()) is None
