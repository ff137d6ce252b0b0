"""VolumeBinding in the default profile, through `kubesched.testing.simulate`: the claims of
a StatefulSet-style set of pods are bound at PreBind, and the outcome shows to what."""

from __future__ import annotations

from vb_testlib import WAIT_SC, ZONE, claim, pod_with, provisioning_class, volume

from kubesched.testing import make_node, simulate


def test_claims_are_bound_where_their_pods_go() -> None:
    nodes = [
        make_node(f"node-{z}").label(ZONE, z).capacity(cpu="4", memory="8Gi", pods=10).obj()
        for z in ("a", "b")
    ]
    pvs = [volume("pv-a", "wait-sc", zone="a"), volume("pv-b", "wait-sc", zone="b")]
    claims = [claim(f"data-web-{i}", "wait-sc") for i in range(3)]
    pods = [pod_with(f"data-web-{i}", name=f"web-{i}") for i in range(3)]
    run = simulate(
        nodes,
        pods,
        persistent_volumes=pvs,
        persistent_volume_claims=claims,
        storage_classes=[WAIT_SC],
    )
    placed = {k: v for k, v in run.placements.items() if v is not None}
    assert len(placed) == 2
    for key, node in placed.items():
        outcome = run.outcome(key)
        ((claim_key, pv),) = outcome.volumes.items()
        assert pv == f"pv-{node[-1]}"
        bound = run.cluster.get_persistent_volume_claim("default", claim_key.split("/")[1])
        assert bound is not None and bound.spec.volume_name == pv
    (waiting,) = [k for k, v in run.placements.items() if v is None]
    assert "didn't find available persistent volumes to bind" in run.outcome(waiting).message


def test_a_claim_is_provisioned_in_an_allowed_zone() -> None:
    nodes = [
        make_node(f"node-{z}").label(ZONE, z).capacity(cpu="4", memory="8Gi", pods=10).obj()
        for z in ("a", "b", "c")
    ]
    run = simulate(
        nodes,
        [pod_with("data-db-0", name="db-0")],
        persistent_volume_claims=[claim("data-db-0", "fast")],
        storage_classes=[provisioning_class("fast", "c")],
    )
    assert run.placements == {"default/db-0": "node-c"}
    ((_, pv),) = run.outcome("default/db-0").volumes.items()
    provisioned = run.cluster.get_persistent_volume(pv)
    assert provisioned is not None and provisioned.spec.node_affinity is not None
