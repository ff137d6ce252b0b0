"""Loading manifests: kubectl output, multi-document YAML, JSON, directories, stdin, bad input."""

from __future__ import annotations

import io
import json
import shutil
import sys
from datetime import datetime, timezone
from pathlib import Path

import pytest

from kubesched.api import (
    ContainerImage,
    LabelSelector,
    OwnerReference,
    PodCondition,
    Taint,
    Time,
    Toleration,
    pod_requests,
)
from kubesched.api._load_progress import LoadProgress
from kubesched.api._manifests import ClusterObjects, default_uid, load_manifests
from kubesched.errors import InputError, QuantityError

DATA = Path(__file__).parent / "data"
EXAMPLE = Path(__file__).parents[3] / "examples" / "kubectl-get-nodes-pods.yaml"
KI, MI, GI = 1024, 1024**2, 1024**3


POD_HEAD = "apiVersion: v1\nkind: Pod\n"
CONTAINERS = "spec: {containers: [{name: c}]}\n"


def utc(text: str) -> Time:
    return Time.from_datetime(datetime.fromisoformat(text).replace(tzinfo=timezone.utc))


def test_kubectl_example_nodes() -> None:
    objects = load_manifests(EXAMPLE)
    assert objects.warnings == []
    assert [n.name for n in objects.nodes] == ["cp-1", "worker-1", "worker-2"]
    cp, worker1, worker2 = objects.nodes

    assert cp.metadata.uid == "0b6c4c2e-5a3b-4a4e-9f57-1d0f5e0c1a01"
    assert cp.metadata.namespace == ""
    assert cp.metadata.creation_timestamp == utc("2024-04-02T08:14:51")
    assert cp.metadata.labels["node-role.kubernetes.io/control-plane"] == ""
    assert cp.metadata.labels["topology.kubernetes.io/zone"] == "eu-west-1a"
    assert cp.metadata.annotations["node.alpha.kubernetes.io/ttl"] == "0"
    assert cp.spec.taints == [
        Taint(key="node-role.kubernetes.io/control-plane", effect="NoSchedule")
    ]
    assert not cp.spec.unschedulable
    assert cp.status.capacity == {
        "cpu": 2000,
        "ephemeral-storage": 41152812 * KI,
        "hugepages-1Gi": 0,
        "hugepages-2Mi": 0,
        "memory": 4015788 * KI,
        "pods": 110,
    }
    assert cp.status.allocatable["ephemeral-storage"] == 37926431477
    assert cp.status.allocatable["memory"] == 3913388 * KI
    assert len(cp.status.images) == 5
    assert cp.status.images[1] == ContainerImage(
        names=[
            "registry.k8s.io/kube-apiserver@sha256:"
            "6b8e197b2d39c321189a475ac755a77896e34b56729425590fbc99f3a96468a3",
            "registry.k8s.io/kube-apiserver:v1.30.0",
        ],
        size_bytes=32663599,
    )

    assert worker1.spec.taints == []
    assert worker1.status.allocatable == {
        "cpu": 3920,
        "ephemeral-storage": 75748962817,
        "hugepages-1Gi": 0,
        "hugepages-2Mi": 0,
        "memory": 15242172 * KI,
        "pods": 110,
    }
    assert worker1.metadata.labels["node.kubernetes.io/instance-type"] == "m5.xlarge"
    assert worker2.status.capacity["cpu"] == 8000
    assert worker2.status.allocatable["cpu"] == 7910
    assert worker2.metadata.labels["topology.kubernetes.io/zone"] == "eu-west-1b"
    assert [i.size_bytes for i in worker2.status.images] == [40136014, 70996262, 29020473]


def test_kubectl_example_pods() -> None:
    pods = {p.key: p for p in load_manifests(EXAMPLE).pods}
    assert list(pods) == [
        "kube-system/etcd-cp-1",
        "kube-system/kube-scheduler-cp-1",
        "kube-system/coredns-7db6d8ff4d-x2k9p",
        "kube-system/kube-proxy-8hq2w",
        "shop/web-6d4cf56db6-4xjzq",
        "shop/web-6d4cf56db6-p8m2d",
        "shop/redis-0",
        "analytics/nightly-report-28575955-vb7tq",
        "ml/train-resnet",
    ]
    running = [p for p in pods.values() if p.spec.node_name]
    assert all(p.status.phase == "Running" for p in running) and len(running) == 7

    etcd = pods["kube-system/etcd-cp-1"]
    assert (etcd.uid, etcd.spec.node_name) == ("1c2d3e4f-5a6b-4c7d-8e9f-a0b1c2d3e401", "cp-1")
    assert (etcd.priority, etcd.spec.priority_class_name) == (2000001000, "system-node-critical")
    assert etcd.spec.preemption_policy == "PreemptLowerPriority"
    assert etcd.spec.tolerations == [Toleration(operator="Exists", effect="NoExecute")]
    assert pod_requests(etcd) == {"cpu": 100, "memory": 100 * MI}
    assert etcd.metadata.owner_references == [
        OwnerReference(
            api_version="v1",
            kind="Node",
            name="cp-1",
            uid="0b6c4c2e-5a3b-4a4e-9f57-1d0f5e0c1a01",
            controller=True,
        )
    ]
    assert etcd.status.start_time == utc("2024-04-02T08:15:03")
    assert [c.type for c in etcd.status.conditions] == ["Initialized", "Ready", "PodScheduled"]

    coredns = pods["kube-system/coredns-7db6d8ff4d-x2k9p"]
    assert coredns.spec.node_selector == {"kubernetes.io/os": "linux"}
    assert coredns.spec.tolerations == [
        Toleration(key="CriticalAddonsOnly", operator="Exists"),
        Toleration(key="node-role.kubernetes.io/control-plane", effect="NoSchedule"),
        Toleration(key="node.kubernetes.io/not-ready", operator="Exists", effect="NoExecute",
                   toleration_seconds=300),
        Toleration(key="node.kubernetes.io/unreachable", operator="Exists", effect="NoExecute",
                   toleration_seconds=300),
    ]  # fmt: skip
    (container,) = coredns.spec.containers
    assert container.resources.requests == {"cpu": 100, "memory": 70 * MI}
    assert container.resources.limits == {"memory": 170 * MI}
    assert [(p.container_port, p.protocol, p.host_port) for p in container.ports] == [
        (53, "UDP", 0),
        (53, "TCP", 0),
        (9153, "TCP", 0),
    ]
    assert coredns.spec.affinity is not None
    anti = coredns.spec.affinity.pod_anti_affinity
    assert anti is not None
    (preferred,) = anti.preferred_during_scheduling_ignored_during_execution
    assert preferred.weight == 100
    assert preferred.pod_affinity_term.topology_key == "kubernetes.io/hostname"

    proxy = pods["kube-system/kube-proxy-8hq2w"]
    assert proxy.spec.tolerations[0] == Toleration(operator="Exists")
    assert proxy.spec.affinity is not None and proxy.spec.affinity.node_affinity is not None
    required = proxy.spec.affinity.node_affinity.required_during_scheduling_ignored_during_execution
    assert required is not None
    assert required.node_selector_terms[0].match_fields[0].values == ["worker-2"]
    assert pod_requests(proxy) == {}

    web = pods["shop/web-6d4cf56db6-4xjzq"]
    (spread,) = web.spec.topology_spread_constraints
    assert (spread.max_skew, spread.topology_key, spread.when_unsatisfiable) == (
        1,
        "topology.kubernetes.io/zone",
        "ScheduleAnyway",
    )
    assert spread.label_selector == LabelSelector(match_labels={"app": "web"})

    redis = pods["shop/redis-0"]
    assert redis.spec.containers[0].ports[0].host_port == 6379
    assert redis.spec.init_containers[0].resources.requests == {"cpu": 50, "memory": 16 * MI}
    assert pod_requests(redis) == {"cpu": 250, "memory": GI}

    report = pods["analytics/nightly-report-28575955-vb7tq"]
    assert (report.spec.node_name, report.status.phase, report.priority) == ("", "Pending", 1000)
    assert pod_requests(report) == {"cpu": 12000, "memory": 24 * GI}
    (scheduled,) = report.status.conditions
    assert scheduled == PodCondition(
        type="PodScheduled",
        status="False",
        reason="Unschedulable",
        message=scheduled.message,
        last_transition_time=utc("2024-05-01T09:55:00"),
    )
    assert scheduled.message.startswith("0/3 nodes are available: 1 Insufficient memory, ")

    trainer = pods["ml/train-resnet"]
    assert trainer.status.phase == "Pending" and trainer.spec.node_name == ""
    assert trainer.priority == 0 and trainer.spec.priority is None
    assert trainer.spec.node_selector == {"accelerator": "nvidia-a10g"}
    assert pod_requests(trainer) == {"cpu": 2000, "example.com/gpu": 1, "memory": 8 * GI}


def test_multi_document_yaml_skips_other_kinds_and_defaults() -> None:
    objects = load_manifests(DATA / "mixed.yaml")
    file = str(DATA / "mixed.yaml")
    warning, reads = objects.warnings
    assert warning == f"skipped 1 Deployment object (the first: {file}: document 4: Deployment web)"
    assert reads.startswith("kubesched reads only Node, Pod, ")
    assert "Service, ReplicationController, ReplicaSet, StatefulSet" in reads
    (service,) = objects.services
    assert service.metadata.uid == default_uid("Service", "shop", "web")
    assert service.spec.selector == {}
    (pdb,) = objects.pod_disruption_budgets
    assert (pdb.metadata.namespace, pdb.spec.min_available) == ("default", 1)
    assert pdb.status.disruptions_allowed == 1
    assert pdb.metadata.uid == default_uid("PodDisruptionBudget", "default", "web-pdb")
    (priority_class,) = objects.priority_classes
    assert (priority_class.metadata.namespace, priority_class.value) == ("", 1000)
    assert priority_class.preemption_policy == "Never"
    (pod,) = objects.pods
    assert pod.key == "default/plain"
    assert pod.uid == default_uid("Pod", "default", "plain")
    assert pod.metadata.creation_timestamp == utc("2024-05-01T10:00:00")
    assert objects.nodes == []


def test_json_list_with_untyped_items() -> None:
    objects = load_manifests(DATA / "pods.json")
    a, b = objects.pods
    assert (a.key, a.uid, pod_requests(a)) == ("ns/a", "uid-a", {"cpu": 250})
    assert (b.key, b.uid) == ("default/b", default_uid("Pod", "default", "b"))


def test_directory_is_read_recursively_in_sorted_order(tmp_path: Path) -> None:
    (tmp_path / "b").mkdir()
    shutil.copy(DATA / "pods.json", tmp_path / "b" / "pods.json")
    shutil.copy(DATA / "mixed.yaml", tmp_path / "a.yml")
    (tmp_path / "notes.txt").write_text("not a manifest: {")
    objects = load_manifests(tmp_path)
    assert [p.key for p in objects.pods] == ["default/plain", "ns/a", "default/b"]
    skipped, reads = objects.warnings
    assert f"(the first: {tmp_path / 'a.yml'}: document 4: Deployment web)" in skipped
    assert reads.startswith("kubesched reads only ")


@pytest.mark.parametrize(
    "text",
    [
        "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n",
        '{"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n1"}}',
        "{apiVersion: v1, kind: Node, metadata: {name: n1}}",
    ],
)
def test_stdin_yaml_or_json(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    (node,) = load_manifests("-").nodes
    assert node.name == "n1"


def test_empty_input_gives_nothing(tmp_path: Path) -> None:
    (tmp_path / "empty.yaml").write_text("---\n# nothing here\n---\n")
    assert load_manifests(tmp_path / "empty.yaml") == ClusterObjects()


def error_line(source: Path | str) -> InputError:
    with pytest.raises(InputError) as caught:
        load_manifests(source)
    assert "\n" not in str(caught.value)
    return caught.value


def test_broken_yaml_names_file_document_and_line() -> None:
    error = error_line(DATA / "broken.yaml")
    assert (error.file, error.document) == (str(DATA / "broken.yaml"), 1)
    assert str(
        error
    ) == f"{DATA / 'broken.yaml'}: document 1: line 10, column 2: invalid YAML: " + (
        "while parsing a block mapping did not find expected key"
    )


def test_broken_json_names_the_line() -> None:
    error = error_line(DATA / "broken.json")
    # the trailing comma's line; Python 3.13's json points at the comma, earlier ones after it
    column = 26 if sys.version_info >= (3, 13) else 27
    assert error.message.startswith(f"line 2, column {column}: invalid JSON: ")
    assert error.document == 0


def test_wrong_type_names_object_and_field() -> None:
    error = error_line(DATA / "wrong-type.yaml")
    assert str(error) == (
        f"{DATA / 'wrong-type.yaml'}: document 0: Pod default/web-1: "
        "field spec.containers[0].ports[0].containerPort: "
        'expected an integer, got a string ("eighty")'
    )


def test_bad_quantity_names_object_and_field() -> None:
    error = error_line(DATA / "bad-quantity.yaml")
    assert isinstance(error, QuantityError)
    assert (error.document, error.obj) == (0, "Pod shop/web-1")
    assert error.field == "spec.containers[0].resources.requests.cpu"
    assert "'1.5 cores'" in error.message


def test_missing_name_names_the_item() -> None:
    error = error_line(DATA / "missing-name.yaml")
    assert str(error) == (
        f"{DATA / 'missing-name.yaml'}: document 0: Node at items[1]: "
        "field metadata.name: missing name"
    )


def test_duplicates_are_refused(tmp_path: Path) -> None:
    manifest = tmp_path / "dup.yaml"
    manifest.write_text(
        f"{POD_HEAD}metadata: {{name: a}}\n{CONTAINERS}---\n"
        f"{POD_HEAD}metadata: {{name: a, namespace: default}}\n{CONTAINERS}"
    )
    error = error_line(manifest)
    assert str(error) == (
        f"{manifest}: document 1: Pod default/a: duplicate of the object in {manifest} document 0"
    )
    other_namespace = tmp_path / "ok.yaml"
    other_namespace.write_text(
        f"{POD_HEAD}metadata: {{name: a}}\n{CONTAINERS}---\n"
        f"{POD_HEAD}metadata: {{name: a, namespace: x}}\n{CONTAINERS}"
    )
    assert len(load_manifests(other_namespace).pods) == 2


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("metadata: {name: a}\n", "document 0: a: field kind: missing kind"),
        ("- kind: Pod\n", "document 0: expected a Kubernetes object, got list"),
        ("kind: List\nitems: {a: 1}\n",
         "document 0: field items: expected a list of objects in List"),
        ("kind: List\nitems: [3]\n", "document 0: field items[0]: expected an object"),
        ("apiVersion: v1\nkind: Pod\nmetadata: {name: a}\nspec: 3\n",
         "document 0: Pod default/a: field spec: expected an object, got a number (3)"),
    ],
)  # fmt: skip
def test_malformed_documents(tmp_path: Path, text: str, expected: str) -> None:
    manifest = tmp_path / "m.yaml"
    manifest.write_text(text)
    assert str(error_line(manifest)) == f"{manifest}: {expected}"


def test_missing_source() -> None:
    assert str(error_line("/nonexistent/cluster.yaml")) == (
        "/nonexistent/cluster.yaml: no such file or directory"
    )


def test_api_server_defaults_fill_what_hand_written_objects_leave_out(tmp_path: Path) -> None:
    manifest = tmp_path / "cluster.yaml"
    manifest.write_text(
        "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n"
        "status: {capacity: {cpu: '4', memory: 8Gi, pods: '110'}}\n---\n"
        f"{POD_HEAD}metadata: {{name: limited}}\nspec:\n  containers:\n"
        "  - {name: c, resources: {limits: {cpu: 500m, memory: 1Gi}, requests: {cpu: 100m}}}\n"
    )
    objects = load_manifests(manifest)
    [node], [pod] = objects.nodes, objects.pods
    assert (
        node.status.allocatable
        == node.status.capacity
        == {
            "cpu": 4000,
            "memory": 8 * 2**30,
            "pods": 110,
        }
    )
    resources = pod.spec.containers[0].resources
    assert resources.requests == {"cpu": 100, "memory": 2**30}, "limits fill missing requests"


def test_finished_pods_are_ignored_and_counted(tmp_path: Path) -> None:
    manifest = tmp_path / "cluster.yaml"
    pods = [
        f"{POD_HEAD}metadata: {{name: {name}}}\n{CONTAINERS}status: {{phase: {phase}}}\n"
        for name, phase in (("done", "Succeeded"), ("oom", "Failed"), ("up", "Running"))
    ]
    manifest.write_text("---\n".join(pods))
    objects = load_manifests(manifest)
    assert [p.metadata.name for p in objects.pods] == ["up"]
    assert objects.warnings == [
        "ignored 2 finished pods (phase Succeeded or Failed): they hold no resources, and the "
        "scheduler never sees them"
    ]


def test_skipped_objects_are_counted_once_per_kind(tmp_path: Path) -> None:
    """A `kubectl get all` dump holds thousands of objects kubesched does not read: one
    warning per kind says how many and where the first was, and the kinds read are named
    once."""
    items = [
        {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": f"d{i}"}}
        for i in range(2000)
    ] + [
        {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": f"c{i}", "namespace": "x"}}
        for i in range(3)
    ]
    path = tmp_path / "all.json"
    path.write_text(json.dumps({"apiVersion": "v1", "kind": "List", "items": items}))
    warnings = load_manifests(path).warnings
    assert warnings[:2] == [
        f"skipped 2000 Deployment objects (the first: {path}: document 0: Deployment d0)",
        f"skipped 3 ConfigMap objects (the first: {path}: document 0: ConfigMap x/c0)",
    ]
    assert len(warnings) == 3 and warnings[2].startswith("kubesched reads only ")


def test_progress_follows_files_and_objects(tmp_path: Path) -> None:
    """The watcher hears each file start and each object: the share done grows with the
    objects read, file by file weighed by size, and ends at the input's size."""
    node = '{"apiVersion": "v1", "kind": "Node", "metadata": {"name": "%s"}}'
    for name in ("a", "b"):
        items = ",".join(node % f"{name}{i}" for i in range(5))
        text = '{"apiVersion": "v1", "kind": "List", "items": [' + items + "]}"
        (tmp_path / f"{name}.json").write_text(text)
    size_a, size_b = ((tmp_path / f"{n}.json").stat().st_size for n in ("a", "b"))
    seen: list[LoadProgress] = []
    objects = load_manifests(tmp_path, progress=seen.append)
    assert len(objects.nodes) == 10
    assert (seen[0].total_bytes, seen[0].done_bytes, seen[0].objects) == (size_a + size_b, 0, 0)
    done = [p.done_bytes for p in seen]
    assert done == sorted(done)
    assert next(p.done_bytes for p in seen if p.objects == 5) == size_a
    assert (seen[-1].done_bytes, seen[-1].objects) == (size_a + size_b, 10)
    assert seen[-1].seconds_left == 0


def test_progress_from_standard_input_has_no_size(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO('{"apiVersion": "v1", "kind": "Node", '
                                                 '"metadata": {"name": "n1"}}'))  # fmt: skip
    seen: list[LoadProgress] = []
    load_manifests("-", progress=seen.append)
    assert seen[-1].objects == 1 and seen[-1].seconds_left is None
