"""The default constraints' selector: upstream's DefaultSelector and GetPodServices facts,
and the constraints PreScore builds from it (upstream's TestPreScoreStateEmptyNodes)."""

from __future__ import annotations

import pytest
from attrs import evolve
from hypothesis import given, settings
from hypothesis import strategies as st

from kubesched.api import (
    LabelSelector,
    LabelSelectorRequirement,
    ObjectMeta,
    OwnerReference,
    Pod,
    ReplicaSet,
    ReplicationController,
    ReplicationControllerSpec,
    Service,
    ServiceSpec,
    StatefulSet,
    TopologySpreadConstraint,
    Workload,
    WorkloadSpec,
    as_selector,
)
from kubesched.cluster import InMemoryCluster
from kubesched.testing import PluginHarness, PodBuilder, make_node, make_pod
from kubesched_podtopologyspread import PodTopologySpread, PodTopologySpreadArgs
from kubesched_podtopologyspread.constraints import (
    DO_NOT_SCHEDULE,
    LABEL_HOSTNAME,
    LABEL_ZONE,
    SCHEDULE_ANYWAY,
    Constraint,
)
from kubesched_podtopologyspread.default_selector import default_selector, group_version

FOO = LabelSelector(match_expressions=[LabelSelectorRequirement("foo", "Exists")])


def service(name: str, selector: dict[str, str], namespace: str = "test") -> Service:
    return Service(ObjectMeta(name=name, namespace=namespace), ServiceSpec(selector))


def replica_set(
    name: str, selector: LabelSelector | None, namespace: str = "default"
) -> ReplicaSet:
    return ReplicaSet(ObjectMeta(name=name, namespace=namespace), WorkloadSpec(selector))


def selector_of(pod: Pod, *workloads: Workload) -> LabelSelector | None:
    """The default selector as a LabelSelector of equalities and expressions (None: empty)."""
    found = default_selector(pod, InMemoryCluster(workloads=workloads))
    if found.empty:
        return None
    labels = {r.key: next(iter(r.values)) for r in found.requirements if r.operator == "="}
    expressions = [
        LabelSelectorRequirement(r.key, r.operator, sorted(r.values))
        for r in found.requirements
        if r.operator != "="
    ]
    return LabelSelector(match_labels=labels, match_expressions=expressions)


def pod_in_default(name: str) -> PodBuilder:
    return make_pod(name).namespace("default")


SERVICES = [service(f"service-{i}", {"app": f"test-{i}"}) for i in range(3)]


@pytest.mark.parametrize("i", range(5))
def test_services_whose_selector_matches_the_pod(i: int) -> None:
    """Upstream's TestGetPodServices: pod i matches service i only, pods 3 and 4 none."""
    pod = make_pod(f"test-pod-{i}").namespace("test").label("app", f"test-{i}")
    pod = pod.label("label", f"label-{i}")
    expected = LabelSelector(match_labels={"app": f"test-{i}"}) if i < 3 else None
    assert selector_of(pod.obj(), *SERVICES) == expected


def test_matching_services_merge_and_other_namespaces_do_not_count() -> None:
    pod = make_pod("p").namespace("test").label("app", "web").label("tier", "front").obj()
    workloads = [
        service("by-app", {"app": "web"}),
        service("by-tier", {"tier": "front"}),
        service("other-value", {"app": "db"}),
        service("elsewhere", {"app": "web", "zone": "a"}, namespace="prod"),
        service("no-selector", {}),
    ]
    assert selector_of(pod, *workloads) == LabelSelector(
        match_labels={"app": "web", "tier": "front"}
    )
    assert selector_of(pod, service("no-selector", {})) is None


def test_a_replica_set_owner_adds_its_selector_requirements() -> None:
    pod = (
        pod_in_default("p")
        .label("foo", "tar")
        .label("baz", "sup")
        .owner_reference("ReplicaSet", "rs1")
    )
    rs = replica_set("rs1", FOO)
    assert selector_of(pod.obj(), rs) == FOO
    with_service = selector_of(pod.obj(), rs, service("s", {"baz": "sup"}, "default"))
    assert with_service == LabelSelector(
        match_labels={"baz": "sup"}, match_expressions=FOO.match_expressions
    )


@pytest.mark.parametrize(
    ("owner", "why"),
    [
        (OwnerReference("apps/v1", "ReplicaSet", "rs1", controller=False), "not the controller"),
        (OwnerReference("extensions/v1beta1", "ReplicaSet", "rs1", controller=True), "old group"),
        (OwnerReference("v1", "ReplicaSet", "rs1", controller=True), "core group"),
        (OwnerReference("apps/v1/x", "ReplicaSet", "rs1", controller=True), "malformed"),
        (OwnerReference("apps/v1", "ReplicaSet", "rs2", controller=True), "no such object"),
        (OwnerReference("batch/v1", "Job", "rs1", controller=True), "unsupported kind"),
    ],
)
def test_owners_that_add_nothing(owner: OwnerReference, why: str) -> None:
    pod = pod_in_default("p").label("foo", "").obj()
    pod = evolve(pod, metadata=evolve(pod.metadata, owner_references=[owner]))
    assert selector_of(pod, replica_set("rs1", FOO)) is None, why


def test_controller_in_another_namespace_does_not_count() -> None:
    pod = pod_in_default("p").label("foo", "").owner_reference("ReplicaSet", "rs1").obj()
    assert selector_of(pod, replica_set("rs1", FOO, namespace="other")) is None


@pytest.mark.parametrize(
    "selector",
    [None, LabelSelector(match_expressions=[LabelSelectorRequirement("foo", "Is", ["x"])])],
    ids=["missing", "malformed"],
)
def test_a_replica_set_without_a_usable_selector_adds_nothing(
    selector: LabelSelector | None,
) -> None:
    pod = make_pod("p").namespace("test").label("app", "test-0").owner_reference("ReplicaSet", "rs")
    rs = replica_set("rs", selector, namespace="test")
    assert selector_of(pod.obj(), rs, *SERVICES) == LabelSelector(match_labels={"app": "test-0"})


def test_replication_controller_and_stateful_set_owners() -> None:
    rc = ReplicationController(
        ObjectMeta(name="rc", namespace="default"), ReplicationControllerSpec({"app": "legacy"})
    )
    pod = (
        pod_in_default("p")
        .label("app", "legacy")
        .owner_reference("ReplicationController", "rc", "v1")
    )
    assert selector_of(pod.obj(), rc) == LabelSelector(match_labels={"app": "legacy"})
    apps_rc = pod.owner_reference("ReplicationController", "rc", "apps/v1").obj()
    assert selector_of(apps_rc, rc) is None
    in_db = LabelSelector(match_expressions=[LabelSelectorRequirement("app", "In", ["db"])])
    ss = StatefulSet(ObjectMeta(name="db", namespace="default"), WorkloadSpec(in_db))
    pod = pod_in_default("db-0").label("app", "db").owner_reference("StatefulSet", "db").obj()
    assert selector_of(pod, ss) == in_db


LABEL_SETS = st.dictionaries(st.sampled_from("abc"), st.sampled_from("xy"), max_size=3)


@settings(max_examples=200, deadline=None)
@given(labels=LABEL_SETS, selectors=st.lists(LABEL_SETS, max_size=5))
def test_the_services_selector_selects_the_pod_and_is_the_union_of_theirs(
    labels: dict[str, str], selectors: list[dict[str, str]]
) -> None:
    """Whatever Services exist, the selector matches the pod itself, and it is empty
    exactly when no Service with a selector selects the pod."""
    pod = make_pod("p").namespace("test").obj()
    pod = evolve(pod, metadata=evolve(pod.metadata, labels=labels))
    services = [service(f"s{i}", sel) for i, sel in enumerate(selectors)]
    found = default_selector(pod, InMemoryCluster(workloads=services))
    assert found.matches(labels)
    selecting = [sel for sel in selectors if sel and sel.items() <= labels.items()]
    assert found.empty == (not selecting)
    assert {r.key for r in found.requirements} == {k for sel in selecting for k in sel}


def test_group_version() -> None:
    assert group_version("v1") == ("", "v1")
    assert group_version("apps/v1") == ("apps", "v1")
    assert group_version("") == ("", "")
    assert group_version("a/b/c") is None


# -- the constraints built from it (upstream's TestPreScoreStateEmptyNodes) ------------


def constraints(
    pod: Pod,
    args: PodTopologySpreadArgs | None,
    *workloads: Workload,
    action: str = SCHEDULE_ANYWAY,
) -> list[Constraint]:
    harness = PluginHarness(
        PodTopologySpread, args, nodes=[make_node("node-a").obj()], workloads=workloads
    )
    plugin = harness.plugin
    assert isinstance(plugin, PodTopologySpread)
    return plugin.constraints(pod, action)


OWNED = (
    pod_in_default("p").label("foo", "tar").label("baz", "sup").owner_reference("ReplicaSet", "rs1")
)
RS1 = replica_set("rs1", FOO)


def test_system_default_constraints_and_a_replica_set() -> None:
    foo = as_selector(FOO)
    assert constraints(OWNED.obj(), None, RS1) == [
        Constraint(max_skew=3, topology_key=LABEL_HOSTNAME, selector=foo),
        Constraint(max_skew=5, topology_key=LABEL_ZONE, selector=foo),
    ]
    assert constraints(OWNED.obj(), None, RS1, action=DO_NOT_SCHEDULE) == []
    assert constraints(OWNED.obj(), None) == []


def test_listed_default_constraints_and_a_replica_set() -> None:
    args = PodTopologySpreadArgs(
        defaulting_type="List",
        default_constraints=[
            TopologySpreadConstraint(1, LABEL_HOSTNAME, SCHEDULE_ANYWAY),
            TopologySpreadConstraint(2, "rack", DO_NOT_SCHEDULE),
            TopologySpreadConstraint(2, "planet", SCHEDULE_ANYWAY),
        ],
    )
    foo = as_selector(FOO)
    assert constraints(OWNED.obj(), args, RS1) == [
        Constraint(max_skew=1, topology_key=LABEL_HOSTNAME, selector=foo),
        Constraint(max_skew=2, topology_key="planet", selector=foo),
    ]
    assert constraints(OWNED.obj(), args, RS1, action=DO_NOT_SCHEDULE) == [
        Constraint(max_skew=2, topology_key="rack", selector=foo),
    ]


def test_a_pod_with_constraints_ignores_the_defaults() -> None:
    args = PodTopologySpreadArgs(
        defaulting_type="List",
        default_constraints=[TopologySpreadConstraint(2, "galaxy", SCHEDULE_ANYWAY)],
    )
    baz = LabelSelector(match_labels={"baz": "sup"})
    pod = OWNED.spread_constraint(2, "planet", SCHEDULE_ANYWAY, baz).obj()
    assert constraints(pod, args, RS1) == [
        Constraint(max_skew=2, topology_key="planet", selector=as_selector(baz))
    ]
