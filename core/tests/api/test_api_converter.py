"""The converter between Kubernetes JSON and the api models."""

from __future__ import annotations

import types
from datetime import datetime, timedelta, timezone
from typing import Any, Union, get_args, get_origin

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kubesched.api import (
    Container,
    ContainerPort,
    Node,
    Pod,
    PodDisruptionBudget,
    PriorityClass,
    ResourceRequirements,
    Taint,
    Time,
    Toleration,
)
from kubesched.api._converter import json_name, structure, unstructure
from kubesched.errors import InputError, QuantityError

GiB = 1024**3
WHEN = Time.parse("2024-05-01T10:00:00Z")


@pytest.mark.parametrize(
    ("attribute", "expected"),
    [
        ("name", "name"),
        ("node_name", "nodeName"),
        ("required_during_scheduling_ignored_during_execution",
         "requiredDuringSchedulingIgnoredDuringExecution"),
        ("host_ip", "hostIP"),
        ("pod_ip", "podIP"),
        ("api_version", "apiVersion"),
        ("size_bytes", "sizeBytes"),
    ],
)  # fmt: skip
def test_json_names(attribute: str, expected: str) -> None:
    assert json_name(attribute) == expected


POD = {
    "apiVersion": "v1",
    "kind": "Pod",
    "metadata": {
        "name": "web-1",
        "namespace": "shop",
        "uid": "u-1",
        "labels": {"app": "web"},
        "creationTimestamp": "2024-05-01T10:00:00Z",
        "resourceVersion": "42",
        "managedFields": [{"manager": "kubectl"}],
    },
    "spec": {
        "nodeName": "node-a",
        "priority": 100,
        "preemptionPolicy": "Never",
        "containers": [
            {
                "name": "app",
                "image": "nginx:1.27",
                "resources": {
                    "requests": {"cpu": "250m", "memory": "1Gi", "example.com/gpu": 1},
                    "limits": {"cpu": 1, "memory": " 2Gi "},
                },
                "ports": [{"containerPort": 80, "hostPort": 8080, "hostIP": "10.0.0.1"}],
                "imagePullPolicy": "IfNotPresent",
            }
        ],
        "overhead": {"cpu": "10m"},
        "tolerations": [
            {"key": "k", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 30}
        ],
        "dnsPolicy": "ClusterFirst",
    },
    "status": {"phase": "Running", "startTime": "2024-05-01T12:00:05+02:00", "podIP": "1.2.3.4"},
}


def test_structure_a_pod_field_by_field() -> None:
    pod = structure(POD, Pod)
    meta = pod.metadata
    assert (meta.name, meta.namespace, meta.uid, meta.labels) == (
        "web-1",
        "shop",
        "u-1",
        {"app": "web"},
    )
    assert meta.creation_timestamp == WHEN
    assert (pod.spec.node_name, pod.priority, pod.spec.preemption_policy) == (
        "node-a",
        100,
        "Never",
    )
    assert pod.spec.scheduler_name == "default-scheduler"
    assert pod.spec.containers == [
        Container(
            name="app",
            image="nginx:1.27",
            resources=ResourceRequirements(
                requests={"cpu": 250, "memory": GiB, "example.com/gpu": 1},
                limits={"cpu": 1000, "memory": 2 * GiB},
            ),
            ports=[ContainerPort(container_port=80, host_port=8080, host_ip="10.0.0.1")],
        )
    ]
    assert pod.spec.overhead == {"cpu": 10}
    assert pod.spec.tolerations == [
        Toleration(key="k", operator="Exists", effect="NoExecute", toleration_seconds=30)
    ]
    assert pod.status.phase == "Running"
    assert pod.status.start_time == WHEN + timedelta(seconds=5)


def test_unstructure_uses_kubernetes_names_canonical_quantities_and_omits_defaults() -> None:
    data = unstructure(structure(POD, Pod))
    assert data == {
        "metadata": {
            "name": "web-1",
            "namespace": "shop",
            "uid": "u-1",
            "labels": {"app": "web"},
            "creationTimestamp": "2024-05-01T10:00:00Z",
        },
        "spec": {
            "containers": [
                {
                    "name": "app",
                    "image": "nginx:1.27",
                    "resources": {
                        "requests": {"cpu": "250m", "memory": "1Gi", "example.com/gpu": "1"},
                        "limits": {"cpu": "1", "memory": "2Gi"},
                    },
                    "ports": [{"containerPort": 80, "hostPort": 8080, "hostIP": "10.0.0.1"}],
                }
            ],
            "nodeName": "node-a",
            "priority": 100,
            "preemptionPolicy": "Never",
            "overhead": {"cpu": "10m"},
            "tolerations": [
                {"key": "k", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 30}
            ],
        },
        "status": {"phase": "Running", "startTime": "2024-05-01T10:00:05Z"},
    }
    assert unstructure(Pod()) == {}


def test_null_takes_the_default() -> None:
    pod = structure(
        {"metadata": {"name": "p", "creationTimestamp": None, "labels": None},
         "spec": {"schedulerName": None, "containers": None}},
        Pod,
    )  # fmt: skip
    assert pod.metadata.creation_timestamp is None and pod.metadata.labels == {}
    assert pod.spec.scheduler_name == "default-scheduler" and pod.spec.containers == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2024-05-01T10:00:00Z", WHEN),
        ("2024-05-01T12:30:00+02:30", WHEN),
        ("2024-05-01T09:00:00-01:00", WHEN),
        ("2024-05-01T10:00:00.250Z", WHEN + timedelta(milliseconds=250)),
        ("2024-05-01T10:00:00.123456789Z", Time(WHEN.unix_nanos + 123456789)),
    ],
)
def test_rfc3339_times(text: str, expected: Time) -> None:
    taint = structure({"key": "k", "effect": "NoExecute", "timeAdded": text}, Taint)
    assert taint.time_added == expected


@pytest.mark.parametrize(
    ("when", "text"),
    [
        (WHEN, "2024-05-01T10:00:00Z"),
        (WHEN.to_datetime().astimezone(timezone(timedelta(hours=-5))), "2024-05-01T10:00:00Z"),
        (WHEN + timedelta(microseconds=5), "2024-05-01T10:00:00.000005Z"),
        (WHEN + timedelta(milliseconds=500), "2024-05-01T10:00:00.5Z"),
        (Time(WHEN.unix_nanos + 1), "2024-05-01T10:00:00.000000001Z"),
    ],
)
def test_times_print_in_utc(when: Time | datetime, text: str) -> None:
    data = unstructure(Taint(key="k", effect="NoExecute", time_added=when))
    assert data["timeAdded"] == text


def test_node_and_other_kinds() -> None:
    node = structure(
        {"metadata": {"name": "n1"},
         "spec": {"taints": [{"key": "node-role.kubernetes.io/control-plane",
                              "effect": "NoSchedule"}]},
         "status": {"capacity": {"cpu": "4", "memory": "16Gi", "pods": "110"},
                    "allocatable": {"cpu": "3800m", "memory": "15Gi", "pods": "110"},
                    "images": [{"names": ["nginx:1"], "sizeBytes": 1000}]}},
        Node,
    )  # fmt: skip
    assert node.status.capacity == {"cpu": 4000, "memory": 16 * GiB, "pods": 110}
    assert node.status.allocatable == {"cpu": 3800, "memory": 15 * GiB, "pods": 110}
    assert node.spec.taints == [
        Taint(key="node-role.kubernetes.io/control-plane", effect="NoSchedule")
    ]
    assert node.status.images[0].size_bytes == 1000
    pdb = structure({"spec": {"minAvailable": "50%", "maxUnavailable": 1}}, PodDisruptionBudget)
    assert (pdb.spec.min_available, pdb.spec.max_unavailable) == ("50%", 1)
    pc = structure(
        {"value": 1000, "globalDefault": True, "preemptionPolicy": "Never"}, PriorityClass
    )
    assert (pc.value, pc.global_default, pc.preemption_policy) == (1000, True, "Never")


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        ({"spec": {"containers": [{"resources": {"requests": {"cpu": "lots"}}}]}},
         "spec.containers[0].resources.requests.cpu", "invalid quantity 'lots'"),
        ({"spec": {"overhead": {"memory": [1]}}}, "spec.overhead.memory", "invalid quantity"),
        ({"spec": {"containers": [{"name": 5}]}}, "spec.containers[0].name",
         "expected a string, got a number"),
        ({"spec": {"containers": "app"}}, "spec.containers", "expected a list"),
        ({"spec": "nope"}, "spec", "expected an object"),
        ({"spec": {"priority": "high"}}, "spec.priority", "expected an integer, got a string"),
        ({"spec": {"priority": 1.5}}, "spec.priority", "expected an integer"),
        ({"spec": {"tolerations": [{}, {"tolerationSeconds": True}]}},
         "spec.tolerations[1].tolerationSeconds", "expected an integer, got a boolean"),
        ({"spec": {"nodeSelector": {"zone": 1}}}, "spec.nodeSelector.zone", "expected a string"),
        ({"metadata": {"creationTimestamp": "yesterday"}}, "metadata.creationTimestamp",
         "RFC 3339"),
        ({"metadata": {"creationTimestamp": "2024-13-01T00:00:00Z"}},
         "metadata.creationTimestamp", "invalid time '2024-13-01T00:00:00Z': month out of range"),
        ({"metadata": {"deletionTimestamp": "2024-05-01t10:00:00z"}},
         "metadata.deletionTimestamp", "expected an RFC 3339 time like 2024-05-01T10:00:00Z, got "
         'a string \\("2024-05-01t10:00:00z"\\)'),
        ({"metadata": {"creationTimestamp": 1714557600}}, "metadata.creationTimestamp",
         "expected an RFC 3339 time like 2024-05-01T10:00:00Z, got a number"),
        ({"status": {"startTime": "2024-05-01T10:00:00.5+25:00"}}, "status.startTime",
         "time zone offset hour out of range"),
        ({"status": {"conditions": [{"type": "Ready", "status": "True",
                                     "lastTransitionTime": "2023-02-29T00:00:00Z"}]}},
         "status.conditions[0].lastTransitionTime", "day out of range"),
        ({"spec": {"schedulingGates": [{}]}}, "spec.schedulingGates[0].name",
         "required field missing"),
        ({"spec": {"containers": [{"ports": [{"hostIP": 1}]}]}},
         "spec.containers[0].ports[0].hostIP", "expected a string"),
    ],
)  # fmt: skip
def test_bad_input_names_the_field(data: dict[str, Any], field: str, message: str) -> None:
    with pytest.raises(InputError, match=message) as caught:
        structure(data, Pod)
    assert caught.value.field == field
    assert f"field {field}: " in str(caught.value)


def test_bad_quantity_keeps_its_type() -> None:
    with pytest.raises(QuantityError):
        structure({"status": {"capacity": {"cpu": "1x"}}}, Node)


def test_not_an_object_at_the_top() -> None:
    with pytest.raises(InputError, match="expected an object") as caught:
        structure(["pod"], Pod)  # type: ignore[arg-type]
    assert caught.value.field is None


# Round trip: structure(unstructure(x)) == x for generated objects.

INT64 = st.integers(min_value=-(2**63) + 1, max_value=2**63 - 1)
TIMES = st.builds(
    Time,
    st.integers(
        Time.parse("0000-01-01T00:00:00Z").unix_nanos,
        Time.parse("9999-12-31T23:59:59.999999999Z").unix_nanos,
    ),
)
TEXT = st.text(max_size=6)
RESOURCE_LISTS = st.dictionaries(
    st.sampled_from(["cpu", "memory", "pods", "example.com/gpu"]), INT64, max_size=3
)


def strategy(tp: Any) -> st.SearchStrategy[Any]:
    """Values of a model attribute type; ResourceList and times as the converter expects them."""
    if attrs.has(tp):
        hints = attrs.resolve_types(tp)
        return st.builds(tp, **{f.name: strategy(f.type) for f in attrs.fields(hints)})
    origin, args = get_origin(tp), get_args(tp)
    if origin in (Union, types.UnionType):
        return st.one_of(*(strategy(a) for a in args))
    if origin is list:
        return st.lists(strategy(args[0]), max_size=2)
    if tp == dict[str, int]:
        return RESOURCE_LISTS
    if origin is dict:
        return st.dictionaries(TEXT, strategy(args[1]), max_size=2)
    simple = {str: TEXT, int: INT64, bool: st.booleans(), Time: TIMES, type(None): st.none()}
    return simple[tp]


@settings(max_examples=60, deadline=None)
@given(strategy(Pod))
def test_pods_round_trip(pod: Pod) -> None:
    assert structure(unstructure(pod), Pod) == pod


@settings(max_examples=60, deadline=None)
@given(strategy(Node))
def test_nodes_round_trip(node: Node) -> None:
    assert structure(unstructure(node), Node) == node


@settings(max_examples=60, deadline=None)
@given(strategy(PodDisruptionBudget))
def test_budgets_round_trip(pdb: PodDisruptionBudget) -> None:
    assert structure(unstructure(pdb), PodDisruptionBudget) == pdb
