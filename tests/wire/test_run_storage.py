"""The storage kinds the volume plugins read are listed and watched from the API server."""

from __future__ import annotations

from collections.abc import Callable

from kubesched.api import (
    CSINode,
    ObjectMeta,
    PersistentVolume,
    PersistentVolumeClaim,
    PersistentVolumeClaimSpec,
    PersistentVolumeSpec,
    StorageClass,
    VolumeAttachment,
    VolumeAttachmentSource,
    VolumeAttachmentSpec,
)
from kubesched.testing import make_node
from kubesched.testing.apiserver import FakeApiServer

from .conftest import Running


def test_storage_objects_are_followed(
    apiserver: FakeApiServer, start_scheduler: Callable[..., Running]
) -> None:
    apiserver.create(make_node("n1").capacity(cpu="4", memory="4Gi").obj())
    apiserver.create(
        PersistentVolume(
            ObjectMeta(name="pv1"),
            PersistentVolumeSpec(capacity={"storage": 1024}, access_modes=["ReadWriteOnce"]),
        )
    )
    apiserver.create(StorageClass(ObjectMeta(name="fast"), provisioner="p"))
    apiserver.create(CSINode(ObjectMeta(name="n1")))
    running = start_scheduler()
    apiserver.wait_for(running.server.scheduling.is_set)
    cluster = running.server.cluster
    assert cluster is not None
    claim = PersistentVolumeClaim(
        ObjectMeta(name="data", namespace="apps"),
        PersistentVolumeClaimSpec(access_modes=["ReadWriteOnce"], storage_class_name="fast"),
    )
    apiserver.create(claim)
    found = apiserver.wait_for(lambda: cluster.get_persistent_volume_claim("apps", "data"))
    assert found.spec.storage_class_name == "fast"
    pv = cluster.get_persistent_volume("pv1")
    assert pv is not None and pv.spec.capacity == {"storage": 1024}
    assert [p.metadata.name for p in cluster.persistent_volumes()] == ["pv1"]
    sc = cluster.get_storage_class("fast")
    assert sc is not None and sc.volume_binding_mode == "Immediate"
    assert cluster.get_csi_node("n1") is not None
    assert cluster.get_persistent_volume_claim("default", "data") is None
    assert running.stop() == 0


def attachment(name: str, volume: str) -> VolumeAttachment:
    source = VolumeAttachmentSource(persistent_volume_name=volume)
    spec = VolumeAttachmentSpec(attacher="ebs.csi.aws.com", node_name="n1", source=source)
    return VolumeAttachment(ObjectMeta(name=name), spec)


def test_volume_attachments_are_listed_and_watched(
    apiserver: FakeApiServer, start_scheduler: Callable[..., Running]
) -> None:
    """NodeVolumeLimits counts the volumes VolumeAttachments attach: `run` lists them at
    start and follows their creation and deletion."""
    apiserver.create(make_node("n1").capacity(cpu="4", memory="4Gi").obj())
    apiserver.create(attachment("va-listed", "pv-a"))
    running = start_scheduler()
    apiserver.wait_for(running.server.scheduling.is_set)
    cluster = running.server.cluster
    assert cluster is not None

    def names() -> list[str]:
        return sorted(va.metadata.name for va in cluster.volume_attachments())

    assert names() == ["va-listed"]
    [listed] = cluster.volume_attachments()
    assert listed.spec.source.persistent_volume_name == "pv-a"
    apiserver.create(attachment("va-watched", "pv-b"))
    apiserver.wait_for(lambda: names() == ["va-listed", "va-watched"])
    apiserver.delete("storage.k8s.io/v1", "volumeattachments", "", "va-listed")
    apiserver.wait_for(lambda: names() == ["va-watched"])
    assert running.stop() == 0
