"""Storage kinds in manifests: PersistentVolume, PersistentVolumeClaim, StorageClass, CSINode
and pod volumes are read, defaulted and checked, with errors naming object and field."""

from __future__ import annotations

from pathlib import Path

import pytest

from kubesched.api import (
    BINDING_IMMEDIATE,
    BINDING_WAIT_FOR_FIRST_CONSUMER,
    ClusterObjects,
    LabelSelector,
    claim_class,
    load_manifests,
    unstructure,
    volume_class,
)
from kubesched.errors import InputError

GI = 1024**3

MANIFEST = """
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: fast}
provisioner: ebs.csi.aws.com
volumeBindingMode: WaitForFirstConsumer
allowedTopologies:
- matchLabelExpressions:
  - {key: topology.kubernetes.io/zone, values: [a, b]}
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: slow}
provisioner: example.com/slow
---
apiVersion: v1
kind: PersistentVolume
metadata:
  name: pv-a
  labels: {topology.kubernetes.io/zone: a}
spec:
  capacity: {storage: 10Gi}
  accessModes: [ReadWriteOnce]
  storageClassName: fast
  csi: {driver: ebs.csi.aws.com, volumeHandle: vol-1}
  nodeAffinity:
    required:
      nodeSelectorTerms:
      - matchExpressions:
        - {key: topology.kubernetes.io/zone, operator: In, values: [a]}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data-web-0}
spec:
  accessModes: [ReadWriteOncePod]
  storageClassName: fast
  selector: {matchLabels: {tier: db}}
  resources: {requests: {storage: 5Gi}}
---
apiVersion: storage.k8s.io/v1
kind: CSINode
metadata: {name: n1}
spec:
  drivers:
  - {name: ebs.csi.aws.com, nodeID: i-1, allocatable: {count: 25}}
---
apiVersion: v1
kind: Pod
metadata: {name: web-0}
spec:
  containers: [{name: c}]
  volumes:
  - {name: data, persistentVolumeClaim: {claimName: data-web-0}}
  - {name: scratch, ephemeral: {volumeClaimTemplate: {spec: {accessModes: [ReadWriteOnce]}}}}
  - {name: ebs, awsElasticBlockStore: {volumeID: vol-9}}
  - {name: pd, gcePersistentDisk: {pdName: disk, readOnly: true}}
  - {name: rbd, rbd: {monitors: [m1], image: img}}
  - {name: iscsi, iscsi: {targetPortal: "1.2.3.4:3260", iqn: iqn.x, lun: 0}}
"""


def test_storage_kinds_are_read_and_defaulted(tmp_path: Path) -> None:
    objects = load_manifests_text(tmp_path, MANIFEST)
    assert objects.warnings == []
    fast, slow = objects.storage_classes
    assert fast.volume_binding_mode == BINDING_WAIT_FOR_FIRST_CONSUMER
    assert fast.allowed_topologies[0].match_label_expressions[0].values == ["a", "b"]
    assert slow.volume_binding_mode == BINDING_IMMEDIATE  # the API server's default
    (pv,) = objects.persistent_volumes
    assert pv.metadata.namespace == ""
    assert pv.spec.capacity == {"storage": 10 * GI}
    assert pv.spec.csi is not None and pv.spec.csi.volume_handle == "vol-1"
    assert pv.spec.node_affinity is not None and pv.spec.node_affinity.required is not None
    assert volume_class(pv) == "fast"
    (pvc,) = objects.persistent_volume_claims
    assert pvc.key == "default/data-web-0"
    assert pvc.spec.resources.requests == {"storage": 5 * GI}
    assert pvc.spec.selector == LabelSelector(match_labels={"tier": "db"})
    assert claim_class(pvc) == "fast"
    (csi_node,) = objects.csi_nodes
    driver = csi_node.spec.drivers[0]
    assert (driver.name, driver.allocatable and driver.allocatable.count) == ("ebs.csi.aws.com", 25)
    (pod,) = objects.pods
    data, scratch, ebs, pd, rbd, iscsi = pod.spec.volumes
    assert data.persistent_volume_claim is not None
    assert data.persistent_volume_claim.claim_name == "data-web-0"
    assert scratch.ephemeral is not None and scratch.ephemeral.volume_claim_template is not None
    assert ebs.aws_elastic_block_store is not None
    assert ebs.aws_elastic_block_store.volume_id == "vol-9"
    assert unstructure(ebs)["awsElasticBlockStore"] == {"volumeID": "vol-9"}
    assert pd.gce_persistent_disk is not None and pd.gce_persistent_disk.read_only
    assert rbd.rbd is not None and rbd.rbd.pool == "rbd"
    assert iscsi.iscsi is not None and iscsi.iscsi.iqn == "iqn.x"


def load_manifests_text(tmp_path: Path, text: str) -> ClusterObjects:
    path = tmp_path / "cluster.yaml"
    path.write_text(text)
    return load_manifests(path)


def test_beta_annotation_names_the_class(tmp_path: Path) -> None:
    objects = load_manifests_text(
        tmp_path,
        """apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: c
  annotations: {volume.beta.kubernetes.io/storage-class: old}
spec: {accessModes: [ReadWriteOnce], storageClassName: new}
""",
    )
    assert claim_class(objects.persistent_volume_claims[0]) == "old"


@pytest.mark.parametrize(
    ("text", "obj", "field", "message"),
    [
        (
            "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: c}\n"
            "spec: {accessModes: [ReadWriteSometimes]}\n",
            "PersistentVolumeClaim default/c",
            "spec.accessModes[0]",
            "Unsupported value",
        ),
        (
            "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: c}\n"
            "spec: {accessModes: [ReadWriteOncePod, ReadWriteOnce]}\n",
            "PersistentVolumeClaim default/c",
            "spec.accessModes",
            "may not use ReadWriteOncePod with other access modes",
        ),
        (
            "apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: v}\n"
            "spec: {accessModes: [ReadWriteOnce]}\n",
            "PersistentVolume v",
            "spec.capacity",
            "must specify storage",
        ),
        (
            "apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: s}\n"
            "provisioner: p\nvolumeBindingMode: Later\n",
            "StorageClass s",
            "volumeBindingMode",
            "Unsupported value",
        ),
        (
            "apiVersion: v1\nkind: StorageClass\nmetadata: {name: s}\nprovisioner: p\n",
            "StorageClass s",
            "apiVersion",
            'no matches for kind "StorageClass" in version "v1"',
        ),
        (
            "apiVersion: storage.k8s.io/v1\nkind: CSINode\nmetadata: {name: n}\n"
            "spec: {drivers: [{name: d, allocatable: {count: -1}}]}\n",
            "CSINode n",
            "spec.drivers[0].allocatable.count",
            "must be greater than or equal to 0",
        ),
        (
            "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c}]\n"
            "  volumes: [{name: v, persistentVolumeClaim: {}}]\n",
            "Pod default/p",
            "spec.volumes[0].persistentVolumeClaim.claimName",
            "Required value",
        ),
        (
            "apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: v}\n"
            "spec: {capacity: {storage: lots}}\n",
            "PersistentVolume v",
            "spec.capacity.storage",
            "",
        ),
    ],
)
def test_bad_storage_objects_name_object_and_field(
    tmp_path: Path, text: str, obj: str, field: str, message: str
) -> None:
    with pytest.raises(InputError) as caught:
        load_manifests_text(tmp_path, text)
    assert caught.value.obj == obj
    assert caught.value.field == field
    assert message in caught.value.message
