"""NodeVolumeLimits in the default profile, through `kubesched.testing.simulate`."""

from __future__ import annotations

from kubesched.api import (
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
)
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
