"""NodeVolumeLimits in the default profile, through `kubesched.testing.simulate`."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest

from kubesched.api import (
    ClusterObjects,
    CSINode,
    CSINodeDriver,
    CSINodeSpec,
    CSIPersistentVolumeSource,
    ObjectMeta,
    PersistentVolume,
    PersistentVolumeClaim,
    PersistentVolumeClaimSpec,
    PersistentVolumeSpec,
    VolumeNodeResources,
    load_manifests,
)
from kubesched.cli import main
from kubesched.testing import make_node, make_pod, simulate

DRIVER = "ebs.csi.aws.com"


def test_pods_spread_when_a_node_runs_out_of_attach_slots() -> None:
    nodes = [make_node(n).capacity(cpu="8", memory="8Gi", pods=10).obj() for n in ("n1", "n2")]
    csi_nodes = [
        CSINode(
            ObjectMeta(name=n),
            CSINodeSpec([CSINodeDriver(DRIVER, allocatable=VolumeNodeResources(1))]),
        )
        for n in ("n1", "n2")
    ]
    claims = [
        PersistentVolumeClaim(
            ObjectMeta(name=f"data-{i}", namespace="default"),
            PersistentVolumeClaimSpec(volume_name=f"pv-{i}"),
        )
        for i in range(3)
    ]
    volumes = [
        PersistentVolume(
            ObjectMeta(name=f"pv-{i}"),
            PersistentVolumeSpec(csi=CSIPersistentVolumeSource(DRIVER, f"vol-{i}")),
        )
        for i in range(3)
    ]
    pods = [make_pod(f"db-{i}").namespace("default").pvc(f"data-{i}").obj() for i in range(3)]
    run = simulate(
        nodes,
        pods,
        persistent_volumes=volumes,
        persistent_volume_claims=claims,
        csi_nodes=csi_nodes,
    )
    placed = run.placements
    assert sorted(n for n in placed.values() if n) == ["n1", "n2"]
    (unplaced,) = [p for p, n in placed.items() if n is None]
    assert run.outcome(unplaced).message.startswith(
        "0/2 nodes are available: 2 node(s) exceed max volume count."
    )


MANIFESTS = """
apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "8", memory: 8Gi, pods: "10"}}
---
apiVersion: storage.k8s.io/v1
kind: CSINode
metadata: {name: n1}
spec:
  drivers: [{name: ebs.csi.aws.com, nodeID: i-1, allocatable: {count: 2}}]
---
apiVersion: v1
kind: PersistentVolume
metadata: {name: legacy}
spec:
  capacity: {storage: 1Gi}
  accessModes: [ReadWriteOnce]
  awsElasticBlockStore: {volumeID: "aws://us-east-1a/vol-0legacy"}
---
apiVersion: v1
kind: PersistentVolume
metadata: {name: attached}
spec:
  capacity: {storage: 1Gi}
  accessModes: [ReadWriteOnce]
  csi: {driver: ebs.csi.aws.com, volumeHandle: vol-0attached}
---
apiVersion: storage.k8s.io/v1
kind: VolumeAttachment
metadata: {name: csi-attached}
spec:
  attacher: ebs.csi.aws.com
  nodeName: n1
  source: {persistentVolumeName: attached}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: legacy, namespace: default}
spec:
  accessModes: [ReadWriteOnce]
  volumeName: legacy
  resources: {requests: {storage: 1Gi}}
---
apiVersion: v1
kind: Pod
metadata: {name: old-app, namespace: default}
spec:
  nodeName: n1
  containers: [{name: c}]
  volumes: [{name: data, persistentVolumeClaim: {claimName: legacy}}]
---
apiVersion: v1
kind: Pod
metadata: {name: new-app, namespace: default}
spec:
  containers: [{name: c}]
  volumes: [{name: scratch, awsElasticBlockStore: {volumeID: vol-0new}}]
"""


def test_migrated_in_tree_volumes_and_attachments_fill_a_node_from_manifests(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The running pod's in-tree EBS volume and the VolumeAttachment each take one of the
    node's two EBS slots, so the pending pod's inline EBS volume does not fit."""
    cluster = tmp_path / "cluster.yaml"
    cluster.write_text(MANIFESTS)
    main(["simulate", str(cluster), "-o", "json"])
    captured = capsys.readouterr()
    assert "VolumeAttachment" not in captured.err  # read, not skipped
    [result] = json.loads(captured.out)["results"]
    assert (result["pod"], result["status"]) == ("default/new-app", "Unschedulable")
    assert result["message"].startswith("0/1 nodes are available: 1 node(s) exceed max volume")


def test_a_detached_volume_lets_the_waiting_pod_in() -> None:
    """Deleting the VolumeAttachment is an event NodeVolumeLimits registered: the pod it
    rejected is tried again and fits."""
    objects = load_manifests_text(MANIFESTS)
    run = simulate(
        objects.nodes,
        objects.pods,
        persistent_volumes=objects.persistent_volumes,
        persistent_volume_claims=objects.persistent_volume_claims,
        csi_nodes=objects.csi_nodes,
        volume_attachments=objects.volume_attachments,
    )
    assert run.outcome("default/new-app").status == "Unschedulable"
    run.cluster.delete_volume_attachment("csi-attached")
    run.resume()
    assert run.outcome("default/new-app").node == "n1"


def load_manifests_text(text: str) -> ClusterObjects:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "cluster.yaml"
        path.write_text(text)
        return load_manifests(path)
