"""VolumeZone in the default profile, through `kubesched.testing.simulate`."""

from __future__ import annotations

from kubesched.api import (
    ObjectMeta,
    PersistentVolume,
    PersistentVolumeClaim,
    PersistentVolumeClaimSpec,
)
from kubesched.testing import make_node, make_pod, simulate

ZONE = "topology.kubernetes.io/zone"


def test_a_pod_follows_its_bound_volume_to_the_volume_zone() -> None:
    nodes = [
        make_node(f"n-{zone}").labels({ZONE: zone}).capacity(cpu="4", memory="8Gi", pods=10).obj()
        for zone in ("a", "b", "c")
    ]
    volume = PersistentVolume(ObjectMeta(name="pv-b", labels={ZONE: "b"}))
    claim = PersistentVolumeClaim(
        ObjectMeta(name="data", namespace="default"), PersistentVolumeClaimSpec(volume_name="pv-b")
    )
    pods = [make_pod("db").namespace("default").pvc("data").obj()]
    run = simulate(nodes, pods, persistent_volumes=[volume], persistent_volume_claims=[claim])
    assert run.placements == {"default/db": "n-b"}

    stranded = PersistentVolume(ObjectMeta(name="pv-d", labels={ZONE: "d"}))
    other = PersistentVolumeClaim(
        ObjectMeta(name="lost", namespace="default"), PersistentVolumeClaimSpec(volume_name="pv-d")
    )
    run = simulate(
        nodes,
        [make_pod("db").namespace("default").pvc("lost").obj()],
        persistent_volumes=[stranded],
        persistent_volume_claims=[other],
    )
    assert run.outcome("default/db").message == (
        "0/3 nodes are available: 3 node(s) had no available volume zone. "
        "preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling."
    )
