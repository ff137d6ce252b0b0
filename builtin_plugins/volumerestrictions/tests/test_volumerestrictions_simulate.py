"""VolumeRestrictions in the default profile, through `kubesched.testing.simulate`."""

from __future__ import annotations

from kubesched.api import (
    READ_WRITE_ONCE_POD,
    AWSElasticBlockStoreVolumeSource,
    ObjectMeta,
    PersistentVolume,
    PersistentVolumeClaim,
    PersistentVolumeClaimSpec,
    Volume,
)
from kubesched.testing import make_node, make_pod, simulate


def test_a_second_pod_mounting_the_same_ebs_volume_goes_to_another_node() -> None:
    ebs = Volume(
        name="d", aws_elastic_block_store=AWSElasticBlockStoreVolumeSource(volume_i_d="v1")
    )
    nodes = [make_node(n).capacity(cpu="4", memory="8Gi", pods=10).obj() for n in ("n1", "n2")]
    run = simulate(
        nodes,
        [
            make_pod("running").namespace("default").node("n1").volume(ebs).obj(),
            make_pod("new").namespace("default").volume(ebs).obj(),
        ],
    )
    assert run.placements == {"default/new": "n2"}


def test_a_read_write_once_pod_claim_in_use_blocks_every_node() -> None:
    claim = PersistentVolumeClaim(
        ObjectMeta(name="data", namespace="default"),
        PersistentVolumeClaimSpec(access_modes=[READ_WRITE_ONCE_POD], volume_name="pv1"),
    )
    nodes = [make_node(n).capacity(cpu="4", memory="8Gi", pods=10).obj() for n in ("n1", "n2")]
    run = simulate(
        nodes,
        [
            make_pod("holder").namespace("default").node("n1").pvc("data").obj(),
            make_pod("second").namespace("default").pvc("data").obj(),
        ],
        persistent_volume_claims=[claim],
        persistent_volumes=[PersistentVolume(ObjectMeta(name="pv1"))],
    )
    outcome = run.outcome("default/second")
    assert outcome.node is None
    assert outcome.message == (
        "0/2 nodes are available: 2 node has pod using PersistentVolumeClaim with the same "
        "name and ReadWriteOncePod access mode. preemption: 0/2 nodes are available: "
        "2 No preemption victims found for incoming pod."
    )
