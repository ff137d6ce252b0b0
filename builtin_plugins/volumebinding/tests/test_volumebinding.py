"""VolumeBinding: upstream's TestVolumeBinding cases (PreFilter and Filter outcomes), static
matching rules from FindMatchingVolume, provisioning with allowedTopologies, Reserve and
PreBind, and args validation."""

from __future__ import annotations

import pytest
from attrs import evolve
from vb_testlib import (
    GI,
    IMMEDIATE_SC,
    WAIT_HDD_SC,
    WAIT_SC,
    ZONE,
    claim,
    pod_with,
    provisioning_class,
    volume,
)

from kubesched.api import (
    LabelSelector,
    Node,
    NodeSelector,
    NodeSelectorRequirement,
    NodeSelectorTerm,
    PersistentVolume,
    PersistentVolumeClaim,
    StorageClass,
    VolumeNodeAffinity,
    is_claim_bound,
)
from kubesched.errors import ConfigError
from kubesched.framework import Code, PreFilterResult, Status
from kubesched.testing import PluginHarness, make_node
from kubesched_volumebinding import VolumeBinding, VolumeBindingArgs
from kubesched_volumebinding.args import UtilizationShapePoint
from kubesched_volumebinding.binder import (
    REASON_BIND_CONFLICT,
    REASON_NODE_CONFLICT,
    REASON_PV_NOT_EXIST,
)
from kubesched_volumebinding.plugin import REASON_UNBOUND_IMMEDIATE

PLUGIN = "VolumeBinding"
ZONE_A = make_node("node-a").label(ZONE, "a").obj()
ZONE_B = make_node("node-b").label(ZONE, "b").obj()


def harness(
    pvcs: list[PersistentVolumeClaim],
    pvs: list[PersistentVolume] = [],  # noqa: B006
    classes: list[StorageClass] = [WAIT_SC, WAIT_HDD_SC, IMMEDIATE_SC],  # noqa: B006
    nodes: list[Node] = [ZONE_A],  # noqa: B006
) -> PluginHarness:
    return PluginHarness(
        VolumeBinding,
        nodes=nodes,
        persistent_volumes=pvs,
        persistent_volume_claims=pvcs,
        storage_classes=classes,
    )


def unresolvable(*reasons: str) -> Status:
    return Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, *reasons, plugin=PLUGIN)


def test_pod_without_claims_is_skipped() -> None:
    h = harness([])
    assert h.pre_filter(pod_with()) is None
    assert PLUGIN in h.state.skip_filter_plugins


def test_all_bound() -> None:
    h = harness(
        [claim("pvc-a", "wait-sc", volume="pv-a")], [volume("pv-a", "wait-sc", claim_ref="pvc-a")]
    )
    pod = pod_with("pvc-a")
    assert h.pre_filter(pod) is None
    assert h.filter(pod) == {"node-a": None}


@pytest.mark.parametrize(
    ("claims", "pod_claims"),
    [(["pvc-a"], ["pvc-b"]), (["pvc-a"], ["pvc-a", "pvc-b"])],
    ids=["PVC does not exist", "Part of PVCs do not exist"],
)
def test_missing_claim(claims: list[str], pod_claims: list[str]) -> None:
    h = harness([claim(c, "wait-sc", volume=f"pv-{c}") for c in claims])
    got = h.pre_filter(pod_with(*pod_claims))
    assert got == unresolvable('persistentvolumeclaim "pvc-b" not found')


def test_immediate_claims_not_bound() -> None:
    h = harness([claim("pvc-a", "immediate-sc")])
    assert h.pre_filter(pod_with("pvc-a")) == unresolvable(REASON_UNBOUND_IMMEDIATE)


def test_claim_naming_a_volume_without_completed_binding_is_immediate() -> None:
    prebound = claim("pvc-a", "wait-sc")
    prebound = evolve(prebound, spec=evolve(prebound.spec, volume_name="pv-missing"))
    h = harness([prebound])
    assert h.pre_filter(pod_with("pvc-a")) == unresolvable(REASON_UNBOUND_IMMEDIATE)


def test_unbound_claims_no_matches() -> None:
    h = harness([claim("pvc-a", "wait-sc")])
    pod = pod_with("pvc-a")
    assert h.pre_filter(pod) is None
    assert h.filter(pod) == {"node-a": unresolvable(REASON_BIND_CONFLICT)}


def test_bound_and_unbound_unsatisfied() -> None:
    h = harness(
        [claim("pvc-a", "wait-sc", volume="pv-a"), claim("pvc-b", "wait-sc")],
        [volume("pv-a", "wait-sc", zone="b", claim_ref="pvc-a")],
    )
    pod = pod_with("pvc-a", "pvc-b")
    assert h.pre_filter(pod) is None
    assert h.filter(pod) == {"node-a": unresolvable(REASON_NODE_CONFLICT, REASON_BIND_CONFLICT)}


def test_bound_to_missing_volume() -> None:
    h = harness([claim("pvc-a", "wait-sc", volume="pv-a")])
    pod = pod_with("pvc-a")
    assert h.pre_filter(pod) is None
    assert h.filter(pod) == {"node-a": unresolvable(REASON_PV_NOT_EXIST)}


def test_local_volume_narrows_the_nodes() -> None:

    local = volume("pv-a", "wait-sc", claim_ref="pvc-a")
    term = NodeSelectorTerm([NodeSelectorRequirement("kubernetes.io/hostname", "In", ["node-b"])])
    local = evolve(
        local, spec=evolve(local.spec, node_affinity=VolumeNodeAffinity(NodeSelector([term])))
    )
    h = harness([claim("pvc-a", "wait-sc", volume="pv-a")], [local], nodes=[ZONE_A, ZONE_B])
    assert h.pre_filter(pod_with("pvc-a")) == PreFilterResult(frozenset({"node-b"}))


def chosen(h: PluginHarness, pod_claims: list[str], node: str = "node-a") -> dict[str, str]:
    """Run a whole cycle on `node`: claim name -> the volume it ends up bound to."""
    pod = pod_with(*pod_claims)
    assert h.pre_filter(pod) is None
    assert h.filter(pod)[node] is None
    assert h.reserve(pod, node) is None
    assert h.framework.run_pre_bind_plugins(h.state, pod, node) is None
    found = {}
    for name in pod_claims:
        live = h.cluster.get_persistent_volume_claim("default", name)
        assert live is not None and is_claim_bound(live)
        found[name] = live.spec.volume_name
    return found


def test_smallest_matching_volume_is_chosen_and_bound_at_pre_bind() -> None:
    pvs = [
        volume("pv-big", "wait-sc", 10 * GI),
        volume("pv-small", "wait-sc", 2 * GI),
        volume("pv-too-small", "wait-sc", GI // 2),
        volume("pv-other-class", "wait-hdd-sc", 2 * GI),
        volume("pv-other-zone", "wait-sc", 2 * GI, zone="b"),
        volume("pv-released", "wait-sc", 2 * GI, phase="Released"),
    ]
    h = harness([claim("pvc-a", "wait-sc", GI)], pvs)
    assert chosen(h, ["pvc-a"]) == {"pvc-a": "pv-small"}
    pv = h.cluster.get_persistent_volume("pv-small")
    assert pv is not None and pv.status.phase == "Bound"


def test_selector_and_access_modes_must_match() -> None:
    picky = claim("pvc-a", "wait-sc", modes=("ReadWriteOnce",))
    picky = evolve(picky, spec=evolve(picky.spec, selector=LabelSelector({"tier": "db"})))
    pvs = [
        volume("pv-unlabelled", "wait-sc"),
        volume("pv-db", "wait-sc", 2 * GI, labels={"tier": "db"}),
    ]
    h = harness([picky, claim("pvc-rwx", "wait-sc", modes=("ReadWriteMany",))], pvs)
    assert chosen(h, ["pvc-a"]) == {"pvc-a": "pv-db"}
    pod = pod_with("pvc-rwx", name="pod-b")
    h.new_cycle()
    assert h.pre_filter(pod) is None
    assert h.filter(pod) == {"node-a": unresolvable(REASON_BIND_CONFLICT)}


def test_two_claims_never_take_the_same_volume() -> None:
    pvs = [volume("pv-1", "wait-sc", GI), volume("pv-2", "wait-sc", 2 * GI)]
    h = harness([claim("pvc-a", "wait-sc", GI), claim("pvc-b", "wait-sc", GI)], pvs)
    assert chosen(h, ["pvc-a", "pvc-b"]) == {"pvc-a": "pv-1", "pvc-b": "pv-2"}


def test_a_reserved_volume_is_not_offered_to_the_next_pod() -> None:
    h = harness([claim("pvc-a", "wait-sc"), claim("pvc-b", "wait-sc")], [volume("pv-1", "wait-sc")])
    first = pod_with("pvc-a")
    assert h.pre_filter(first) is None
    assert h.filter(first)["node-a"] is None
    assert h.reserve(first, "node-a") is None
    h.new_cycle()
    second = pod_with("pvc-b", name="pod-b")
    assert h.pre_filter(second) is None
    assert h.filter(second) == {"node-a": unresolvable(REASON_BIND_CONFLICT)}


def test_provisioning_follows_allowed_topologies() -> None:
    classes = [provisioning_class("fast", "b")]
    h = harness([claim("pvc-a", "fast", 5 * GI)], classes=classes, nodes=[ZONE_A, ZONE_B])
    pod = pod_with("pvc-a")
    assert h.pre_filter(pod) is None
    assert h.filter(pod) == {"node-a": unresolvable(REASON_BIND_CONFLICT), "node-b": None}
    assert h.reserve(pod, "node-b") is None
    assert h.framework.run_pre_bind_plugins(h.state, pod, "node-b") is None
    live = h.cluster.get_persistent_volume_claim("default", "pvc-a")
    assert live is not None and is_claim_bound(live)
    pv = h.cluster.get_persistent_volume(live.spec.volume_name)
    assert pv is not None and pv.spec.capacity == {"storage": 5 * GI}


def test_static_volume_preferred_over_provisioning() -> None:
    classes = [provisioning_class("fast")]
    h = harness([claim("pvc-a", "fast")], [volume("pv-static", "fast", 3 * GI)], classes=classes)
    assert chosen(h, ["pvc-a"]) == {"pvc-a": "pv-static"}


def test_missing_class_to_provision_from_is_an_error() -> None:
    h = harness([claim("pvc-a", "wait-sc")])
    pod = pod_with("pvc-a")
    assert h.pre_filter(pod) is None
    h.cluster._classes.pop("wait-sc")  # the class is deleted between PreFilter and Filter
    got = h.filter(pod)["node-a"]
    assert got is not None and got.code == Code.ERROR
    assert 'failed to find storage class "wait-sc"' in got.message


@pytest.mark.parametrize(
    ("args", "errors"),
    [
        (VolumeBindingArgs(), []),
        (VolumeBindingArgs(bind_timeout_seconds=0), []),
        (
            VolumeBindingArgs(bind_timeout_seconds=-10),
            [
                "args.bindTimeoutSeconds: Invalid value: -10: invalid BindTimeoutSeconds, "
                "should not be a negative value"
            ],
        ),
    ],
)
def test_args_validation(args: VolumeBindingArgs, errors: list[str]) -> None:
    assert args.validate("args") == errors


def test_shape_is_refused_while_capacity_scoring_is_off() -> None:
    (error,) = VolumeBindingArgs(shape=[UtilizationShapePoint(0, 0)]).validate("args")
    assert error.startswith("args.shape: Invalid value: ")
    assert "turn on the feature gate StorageCapacityScoring" in error


def test_args_from_plugin_config_are_validated_with_their_path() -> None:
    with pytest.raises(ConfigError, match=r"args\.bindTimeoutSeconds: Invalid value: -1"):
        PluginHarness(VolumeBinding, {"bindTimeoutSeconds": -1})
    configured = PluginHarness(VolumeBinding, {"bindTimeoutSeconds": 30}).plugin
    assert configured.args == VolumeBindingArgs(bind_timeout_seconds=30)


def test_node_affinity_reason_is_upstreams_v1_33_text() -> None:
    """Upstream's "PVC bound, PV node affinity mismatched" case, with the text spelled out:
    since v1.33 the reason names the PersistentVolume's node affinity."""
    h = harness(
        [claim("pvc-a", "wait-sc", volume="pv-a")],
        [volume("pv-a", "wait-sc", zone="b", claim_ref="pvc-a")],
    )
    pod = pod_with("pvc-a")
    assert h.pre_filter(pod) is None
    assert h.filter(pod) == {
        "node-a": unresolvable("node(s) didn't match PersistentVolume's node affinity")
    }
