"""The in-memory cluster holds the storage objects, lists them and records their changes."""

from __future__ import annotations

import pytest
from attrs import evolve

from kubesched.api import (
    ObjectMeta,
    PersistentVolume,
    PersistentVolumeClaim,
    PersistentVolumeSpec,
    StorageClass,
)
from kubesched.cluster.memory import InMemoryCluster
from kubesched.cluster.storage import StorageError
from kubesched.framework import ActionType, ClusterEvent, EventResource
from kubesched.scheduler.eventhandlers import storage_event


def test_lists_looks_up_and_records_changes() -> None:
    pv = PersistentVolume(ObjectMeta(name="pv1"), PersistentVolumeSpec(capacity={"storage": 1}))
    pvc = PersistentVolumeClaim(ObjectMeta(name="c", namespace="ns"))
    cluster = InMemoryCluster(
        persistent_volumes=[pv],
        persistent_volume_claims=[pvc],
        storage_classes=[StorageClass(ObjectMeta(name="sc"))],
    )
    assert cluster.take_changes() == [(None, pv), (None, pvc)]
    assert cluster.get_persistent_volume("pv1") == pv
    assert cluster.get_persistent_volume_claim("ns", "c") == pvc
    assert cluster.get_persistent_volume_claim("other", "c") is None
    assert cluster.get_storage_class("sc") is not None
    assert cluster.get_csi_node("n1") is None
    bound = evolve(pvc, spec=evolve(pvc.spec, volume_name="pv1"))
    cluster.update_persistent_volume_claim(bound)
    assert cluster.take_changes() == [(pvc, bound)]
    with pytest.raises(StorageError, match="already exists"):
        cluster.create_persistent_volume(pv)
    with pytest.raises(StorageError, match="not found"):
        cluster.update_persistent_volume(evolve(pv, metadata=ObjectMeta(name="nope")))


def test_storage_changes_are_cluster_events() -> None:
    pvc = PersistentVolumeClaim(ObjectMeta(name="c"))
    claim = EventResource.PERSISTENT_VOLUME_CLAIM
    assert storage_event(None, pvc) == ClusterEvent(claim, ActionType.ADD)
    assert storage_event(pvc, pvc) == ClusterEvent(claim, ActionType.UPDATE)
    assert storage_event(pvc, None) == ClusterEvent(claim, ActionType.DELETE)
    assert storage_event(None, object()) is None
