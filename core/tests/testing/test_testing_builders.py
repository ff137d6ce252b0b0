"""The pod and node builders produce exactly the objects they describe."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from kubesched.api import (
    Container,
    ContainerPort,
    InvalidTime,
    LabelSelector,
    NodeSelectorRequirement,
    NodeSelectorTerm,
    Pod,
    ResourceRequirements,
    Taint,
    Time,
    Toleration,
    pod_requests,
)
from kubesched.errors import QuantityError
from kubesched.testing import DEFAULT_NODE_PODS, PAUSE_IMAGE, make_node, make_pod

GiB = 1024**3
WHEN = datetime(2024, 5, 1, 10, 0, tzinfo=timezone.utc)


def test_pod_metadata_and_scheduling_fields() -> None:
    pod = (
        make_pod("p1")
        .namespace("ns")
        .uid("u1")
        .label("app", "web")
        .annotation("a", "b")
        .priority(10)
        .preemption_policy("Never")
        .scheduler_name("s")
        .node("n1")
        .nominated_node_name("n2")
        .phase("Running")
        .scheduling_gates("g1", "g2")
        .node_selector({"k": "v"})
        .start_time(WHEN)
        .creation_timestamp(WHEN)
        .obj()
    )
    assert isinstance(pod, Pod)
    assert (pod.metadata.name, pod.metadata.namespace, pod.uid) == ("p1", "ns", "u1")
    assert pod.metadata.labels == {"app": "web"}
    assert pod.metadata.annotations == {"a": "b"}
    assert (pod.priority, pod.spec.preemption_policy, pod.spec.scheduler_name) == (10, "Never", "s")
    assert (pod.spec.node_name, pod.status.nominated_node_name) == ("n1", "n2")
    assert pod.status.phase == "Running"
    assert [g.name for g in pod.spec.scheduling_gates] == ["g1", "g2"]
    assert pod.spec.node_selector == {"k": "v"}
    assert pod.status.start_time == Time.from_datetime(WHEN) == pod.metadata.creation_timestamp


@pytest.mark.parametrize(
    "when",
    [
        Time.parse("2024-05-01T10:00:00.000000500Z"),
        "2024-05-01T10:00:00.000000500Z",
        "2024-05-01T12:00:00.0000005+02:00",
    ],
)
def test_times_take_a_time_or_rfc3339_text(when: Time | str) -> None:
    pod = make_pod("p").start_time(when).creation_timestamp(when).deletion_timestamp(when).obj()
    expected = Time(Time.from_datetime(WHEN).unix_nanos + 500)
    assert pod.status.start_time == pod.metadata.creation_timestamp == expected
    assert pod.metadata.deletion_timestamp == expected


def test_naive_datetimes_are_utc() -> None:
    pod = make_pod("p").start_time(datetime(2024, 5, 1, 10, 0)).obj()
    assert pod.status.start_time == Time.from_datetime(WHEN)


def test_bad_time_text_says_so() -> None:
    with pytest.raises(InvalidTime, match="expected an RFC 3339 time"):
        make_pod("p").start_time("yesterday")


def test_requests_add_one_container_each_and_parse_quantities() -> None:
    pod = (
        make_pod("p")
        .req(cpu="500m", memory="1Gi")
        .req({"example.com/gpu": 1}, ephemeral_storage="1G")
        .req()
        .init_req(cpu=1)
        .sidecar_req(cpu="100m")
        .overhead(cpu="10m")
        .obj()
    )
    assert pod.spec.containers == [
        Container(
            name="con0",
            image=PAUSE_IMAGE,
            resources=ResourceRequirements(requests={"cpu": 500, "memory": GiB}),
        ),
        Container(
            name="con1",
            image=PAUSE_IMAGE,
            resources=ResourceRequirements(
                requests={"example.com/gpu": 1, "ephemeral-storage": 10**9}
            ),
        ),
    ]
    init, sidecar = pod.spec.init_containers
    assert (init.name, init.restart_policy, init.resources.requests) == (
        "init-con0",
        None,
        {"cpu": 1000},
    )
    assert (sidecar.name, sidecar.restart_policy) == ("sidecar-con1", "Always")
    assert pod.spec.overhead == {"cpu": 10}
    # the init container finishes before the sidecar starts: max(500 + 100, 1000) + overhead
    assert pod_requests(pod)["cpu"] == 1000 + 10


def test_bad_quantity_is_reported() -> None:
    with pytest.raises(QuantityError, match="'lots'"):
        make_pod("p").req(cpu="lots")


def test_affinity_tolerations_ports() -> None:
    selector = LabelSelector(match_labels={"app": "db"})
    pod = (
        make_pod("p")
        .node_affinity_in("zone", ["a", "b"])
        .node_affinity_not_in("disk", ["hdd"])
        .node_affinity_in("metadata.name", ["n1"], match_fields=True)
        .preferred_node_affinity(5, "zone", ["a"])
        .pod_affinity("zone", selector)
        .pod_anti_affinity("host", selector, weight=3)
        .toleration(key="k", value="v", effect="NoSchedule")
        .toleration(key="dedicated")
        .host_port(8080)
        .obj()
    )
    node_affinity = pod.spec.affinity.node_affinity if pod.spec.affinity else None
    assert node_affinity is not None
    required = node_affinity.required_during_scheduling_ignored_during_execution
    assert required is not None
    assert required.node_selector_terms == [
        NodeSelectorTerm(match_expressions=[NodeSelectorRequirement("zone", "In", ["a", "b"])]),
        NodeSelectorTerm(match_expressions=[NodeSelectorRequirement("disk", "NotIn", ["hdd"])]),
        NodeSelectorTerm(match_fields=[NodeSelectorRequirement("metadata.name", "In", ["n1"])]),
    ]
    (preferred,) = node_affinity.preferred_during_scheduling_ignored_during_execution
    assert preferred.weight == 5
    assert preferred.preference.match_expressions == [NodeSelectorRequirement("zone", "In", ["a"])]
    assert pod.spec.affinity is not None
    pod_affinity, anti = pod.spec.affinity.pod_affinity, pod.spec.affinity.pod_anti_affinity
    assert pod_affinity is not None and anti is not None
    (term,) = pod_affinity.required_during_scheduling_ignored_during_execution
    assert (term.topology_key, term.label_selector) == ("zone", selector)
    (weighted,) = anti.preferred_during_scheduling_ignored_during_execution
    assert (weighted.weight, weighted.pod_affinity_term.topology_key) == (3, "host")
    assert pod.spec.tolerations == [
        Toleration(key="k", operator="Equal", value="v", effect="NoSchedule"),
        Toleration(key="dedicated", operator="Exists"),
    ]
    (container,) = pod.spec.containers
    assert container.ports == [ContainerPort(host_port=8080)]


def test_default_uids_are_stable_and_distinct() -> None:
    assert make_pod("a").obj().uid == make_pod("a").obj().uid
    uids = {
        make_pod("a").obj().uid,
        make_pod("a").namespace("ns").obj().uid,
        make_pod("b").obj().uid,
        make_node("a").obj().metadata.uid,
    }
    assert len(uids) == 4 and "" not in uids


def test_builder_keeps_going_after_obj() -> None:
    builder = make_pod("p").label("a", "1")
    first = builder.obj()
    second = builder.label("b", "2").obj()
    assert first.metadata.labels == {"a": "1"}
    assert second.metadata.labels == {"a": "1", "b": "2"}


def test_node_builder() -> None:
    node = (
        make_node("n1")
        .label("zone", "a")
        .capacity(cpu="4", memory="8Gi", pods=110)
        .allocatable(cpu="3500m", memory="7Gi", pods=110)
        .taint("k", "v", "NoSchedule")
        .unschedulable()
        .image("nginx:1", 500_000_000, "docker.io/library/nginx:1")
        .obj()
    )
    assert node.name == "n1"
    assert node.metadata.labels == {"zone": "a"}
    assert node.status.capacity == {"cpu": 4000, "memory": 8 * GiB, "pods": 110}
    assert node.status.allocatable == {"cpu": 3500, "memory": 7 * GiB, "pods": 110}
    assert node.spec.taints == [Taint(key="k", value="v", effect="NoSchedule")]
    assert node.spec.unschedulable
    (image,) = node.status.images
    assert (image.names, image.size_bytes) == (
        ["nginx:1", "docker.io/library/nginx:1"],
        500_000_000,
    )


def test_node_capacity_defaults_pods_and_sets_allocatable() -> None:
    assert make_node("n").obj().status.allocatable == {"pods": DEFAULT_NODE_PODS}
    node = make_node("n").capacity({"example.com/gpu": 2}, cpu=2).obj()
    expected = {"pods": DEFAULT_NODE_PODS, "example.com/gpu": 2, "cpu": 2000}
    assert node.status.capacity == expected == node.status.allocatable


def test_a_pod_is_in_the_default_namespace_unless_one_is_set() -> None:
    """A pod built without `.namespace()` is `default/<name>`, as `kubectl apply` makes it."""
    assert make_pod("web").obj().key == "default/web"
    assert make_pod("web").namespace("shop").obj().key == "shop/web"
