"""`kubesched run` against a real kube-apiserver, as the user system:kube-scheduler with only
upstream's roles: the scenarios of the fake-server wire tests (tests/wire), on the real thing.

No kubelet runs, so a victim of preemption stays Terminating until the test deletes it with
a grace period of 0, as its kubelet would once its containers stopped."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from kubesched.api import unstructure
from kubesched.testing import make_node, make_pod, simulate
from kubesched.testing.realserver import AdminClient, ControlPlane

from .conftest import SCHEDULER, Running, config_text

PODS = "/api/v1/namespaces/default/pods"
PRIORITY_CLASSES = "/apis/scheduling.k8s.io/v1/priorityclasses"
LEASE = f"/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/{SCHEDULER}"


def node_of(admin: AdminClient, name: str) -> str:
    pod = admin.pod(name)
    return str((pod or {}).get("spec", {}).get("nodeName") or "")


def events(admin: AdminClient, reason: str) -> list[dict[str, Any]]:
    found = admin.items("/apis/events.k8s.io/v1/namespaces/default/events")
    return [e for e in found if e.get("reason") == reason]


def condition(admin: AdminClient, pod: str, type_: str) -> dict[str, Any] | None:
    status = (admin.pod(pod) or {}).get("status") or {}
    return next((c for c in status.get("conditions") or [] if c["type"] == type_), None)


def test_pending_pods_are_bound_and_others_left_alone(
    admin: AdminClient, start_scheduler: Callable[..., Running]
) -> None:
    admin.create(make_node("n1").capacity(cpu="2", memory="4Gi", pods="110").obj())
    admin.create(make_pod("early").scheduler_name(SCHEDULER).req(cpu="1").obj())
    admin.create(make_pod("not-ours").req(cpu="1").obj())
    running = start_scheduler()
    assert admin.wait_for(lambda: node_of(admin, "early")) == "n1"
    admin.create(make_pod("late").scheduler_name(SCHEDULER).req(cpu="1").obj())
    assert admin.wait_for(lambda: node_of(admin, "late")) == "n1"
    scheduled = admin.wait_for(
        lambda: len(events(admin, "Scheduled")) == 2 and events(admin, "Scheduled")
    )
    first = next(e for e in scheduled if e["regarding"]["name"] == "early")
    assert first["note"] == "Successfully assigned default/early to n1"
    assert (first["action"], first["type"]) == ("Binding", "Normal")
    assert first["reportingController"] == SCHEDULER
    assert first["reportingInstance"] == f"{SCHEDULER}-real-host"
    assert condition(admin, "early", "PodScheduled")["status"] == "True"  # type: ignore[index]
    assert node_of(admin, "not-ours") == ""
    assert running.stop() == 0


def test_unschedulable_pod_gets_upstreams_condition_event_and_a_retry(
    admin: AdminClient, start_scheduler: Callable[..., Running]
) -> None:
    small = make_node("small").capacity(cpu="1", memory="4Gi", pods="110").obj()
    big = (
        make_pod("big")
        .namespace("default")
        .scheduler_name(SCHEDULER)
        .req(cpu="3")
        .priority(0)
        .obj()
    )
    admin.create(small)
    admin.create(big)
    running = start_scheduler()
    failed = admin.wait_for(lambda: condition(admin, "big", "PodScheduled"))
    message = simulate([small], [big], yaml.safe_load(config_text())).outcome("default/big").message
    assert message.startswith("0/1 nodes are available: 1 Insufficient cpu.")
    assert (failed["status"], failed["reason"], failed["message"]) == (
        "False",
        "Unschedulable",
        message,
    )
    event = admin.wait_for(lambda: events(admin, "FailedScheduling"))[0]
    assert (event["type"], event["action"], event["note"]) == ("Warning", "Scheduling", message)
    admin.create(make_node("large").capacity(cpu="4", memory="4Gi", pods="110").obj())
    assert admin.wait_for(lambda: node_of(admin, "big")) == "large"
    assert condition(admin, "big", "PodScheduled")["status"] == "True"  # type: ignore[index]
    assert running.stop() == 0


def test_a_high_priority_pod_preempts_a_running_one(
    admin: AdminClient, start_scheduler: Callable[..., Running]
) -> None:
    admin.create(make_node("n1").capacity(cpu="2", memory="4Gi", pods="110").obj())
    admin.create(make_pod("victim").node("n1").req(cpu="2").obj())
    running = start_scheduler()
    high = {"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "value": 1000}
    admin.request("POST", PRIORITY_CLASSES, high | {"metadata": {"name": "kubesched-high"}})
    # admission puts the class's value in spec.priority (a pod may not set another)
    vip = make_pod("vip").scheduler_name(SCHEDULER).priority_class_name("kubesched-high")
    admin.create(vip.req(cpu="2").obj())

    def terminating() -> dict[str, Any] | None:
        pod = admin.pod("victim")
        return pod if pod is not None and pod["metadata"].get("deletionTimestamp") else None

    victim = admin.wait_for(terminating)
    disruption = next(c for c in victim["status"]["conditions"] if c["type"] == "DisruptionTarget")
    assert (disruption["status"], disruption["reason"]) == ("True", "PreemptionByScheduler")
    assert disruption["message"] == f"{SCHEDULER}: preempting to accommodate a higher priority pod"
    assert (
        admin.wait_for(lambda: (admin.pod("vip") or {}).get("status", {}).get("nominatedNodeName"))
        == "n1"
    )
    admin.force_delete(f"{PODS}/victim")  # what the victim's kubelet would do
    assert admin.wait_for(lambda: node_of(admin, "vip")) == "n1"
    preempted = admin.wait_for(lambda: events(admin, "Preempted"))[0]
    assert preempted["regarding"]["name"] == "victim"
    assert str(preempted["note"]).startswith("Preempted by pod ")
    assert running.stop() == 0


def test_the_lease_is_taken_renewed_and_released(
    admin: AdminClient, start_scheduler: Callable[..., Running]
) -> None:
    admin.create(make_node("n1").capacity(cpu="2", memory="4Gi", pods="110").obj())
    running = start_scheduler(elect=True, identity="alpha")
    lease = admin.wait_for(
        lambda: admin.status("GET", LEASE) == 200 and admin.request("GET", LEASE)
    )
    assert lease["spec"]["holderIdentity"] == "alpha"
    assert lease["spec"]["leaseDurationSeconds"] == 4
    first_renewal = lease["spec"]["renewTime"]
    admin.wait_for(
        lambda: admin.request("GET", LEASE)["spec"]["renewTime"] != first_renewal, timeout=30
    )
    admin.create(make_pod("web").scheduler_name(SCHEDULER).req(cpu="1").obj())
    assert admin.wait_for(lambda: node_of(admin, "web")) == "n1"
    assert running.stop() == 0
    assert not admin.request("GET", LEASE)["spec"].get("holderIdentity")


def test_a_restarted_api_server_is_listed_again(
    plane: ControlPlane, admin: AdminClient, start_scheduler: Callable[..., Running]
) -> None:
    """While the API server is down, a pod vanishes from etcd and the history is compacted:
    the watch cannot resume (410), so the scheduler lists again and sees the pod gone."""
    admin.create(make_node("n1").capacity(cpu="1", memory="4Gi", pods="110").obj())
    doomed = admin.create(make_pod("doomed").scheduler_name(SCHEDULER).req(cpu="4").obj())
    running = start_scheduler()
    admin.wait_for(lambda: condition(admin, "doomed", "PodScheduled"))
    cluster = running.server.cluster
    assert cluster is not None
    assert any(p.metadata.name == "doomed" for p in cluster.pods())

    def behind_its_back() -> None:
        plane.etcdctl("del", "/registry/pods/default/doomed")
        plane.etcdctl("put", "/kubesched-test/bump", "1")
        status = json.loads(plane.etcdctl("endpoint", "status", "-w", "json"))
        plane.etcdctl("compact", str(status[0]["Status"]["header"]["revision"]))

    plane.restart_apiserver(outage=5.0, during=behind_its_back)
    admin.wait_for(
        lambda: not any(p.metadata.name == "doomed" for p in cluster.pods()), timeout=120
    )
    assert cluster.get_pod(doomed["metadata"]["uid"]) is None
    admin.create(make_pod("after").scheduler_name(SCHEDULER).req(cpu="1").obj())
    assert admin.wait_for(lambda: node_of(admin, "after"), timeout=120) == "n1"
    assert running.stop() == 0


def test_the_command_runs_with_upstreams_roles_and_stops_on_sigterm(
    plane: ControlPlane, admin: AdminClient, tmp_path: Path
) -> None:
    config = tmp_path / "config.yaml"
    config.write_text(config_text(elect=True))
    admin.create(make_node("n1").capacity(cpu="2", memory="4Gi", pods="110").obj())
    admin.create(make_pod("web").scheduler_name(SCHEDULER).req(cpu="1").obj())
    kubesched = str(Path(sys.executable).with_name("kubesched"))
    argv = [
        kubesched,
        "run",
        "--config",
        str(config),
        "--kubeconfig",
        str(plane.kubeconfig("scheduler")),
    ]
    process = subprocess.Popen(
        [*argv, "--bind-address", "127.0.0.1", "--port", "0"],
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        assert admin.wait_for(lambda: node_of(admin, "web"), timeout=120) == "n1"
        assert admin.request("GET", LEASE)["spec"]["holderIdentity"]
    finally:
        process.send_signal(signal.SIGTERM)
        _, stderr = process.communicate(timeout=60)
    assert process.returncode == 0, stderr
    assert "forbidden" not in stderr.lower(), stderr
    assert not admin.request("GET", LEASE)["spec"].get("holderIdentity")


def test_simulate_reads_the_live_cluster_read_only(
    plane: ControlPlane, admin: AdminClient, capsys: Any
) -> None:
    from kubesched.cli.main import main

    admin.create(make_node("n1").capacity(cpu="2", memory="4Gi", pods="110").obj())
    admin.create(make_node("n2").capacity(cpu="4", memory="8Gi", pods="110").obj())
    admin.create(make_pod("a-running").node("n2").req(cpu="3").obj())
    admin.create(make_pod("b-web").label("app", "web").req(cpu="1").obj())
    admin.create(make_pod("c-huge").label("app", "batch").req(cpu="8").obj())

    def versions() -> dict[str, str]:
        # Each pod's own resourceVersion: the list's is the whole store's revision, which the
        # API server's own lease renewals move on too.
        return {p["metadata"]["name"]: p["metadata"]["resourceVersion"] for p in admin.items(PODS)}

    before = versions()
    main(["simulate", "--kubeconfig", str(plane.kubeconfig("scheduler")), "-o", "json"])
    document = json.loads(capsys.readouterr().out)
    placed = {r["pod"]: r["node"] for r in document["results"]}
    assert placed == {"default/b-web": "n1", "default/c-huge": None}
    huge = next(r for r in document["results"] if r["pod"] == "default/c-huge")
    assert huge["message"].startswith("0/2 nodes are available: 2 Insufficient cpu.")
    assert versions() == before  # nothing written
    assert node_of(admin, "b-web") == ""


RESOURCE = "/apis/resource.k8s.io/v1"


def test_dynamic_resources_allocate_and_write_the_claim(
    admin: AdminClient, start_scheduler: Callable[..., Running]
) -> None:
    """A pod claiming a GPU by name: the claim's allocation, reservation and finalizer are
    written through upstream's verbs (allowed by system:kube-scheduler), and the pod is bound
    to the node that publishes the device."""
    driver = "gpu.example.com"
    device_class = {
        "apiVersion": "resource.k8s.io/v1",
        "kind": "DeviceClass",
        "metadata": {"name": "kubesched-gpu"},
        "spec": {"selectors": [{"cel": {"expression": f'device.driver == "{driver}"'}}]},
    }
    slice_ = {
        "apiVersion": "resource.k8s.io/v1",
        "kind": "ResourceSlice",
        "metadata": {"name": "kubesched-gpu-node-gpus"},
        "spec": {
            "driver": driver,
            "pool": {"name": "gpu-node", "generation": 1, "resourceSliceCount": 1},
            "nodeName": "gpu-node",
            "devices": [{"name": "gpu-0"}],
        },
    }
    claim = {
        "apiVersion": "resource.k8s.io/v1",
        "kind": "ResourceClaim",
        "metadata": {"name": "train", "namespace": "default"},
        "spec": {
            "devices": {
                "requests": [{"name": "gpu", "exactly": {"deviceClassName": "kubesched-gpu"}}]
            }
        },
    }
    claims = f"{RESOURCE}/namespaces/default/resourceclaims"
    admin.create(make_node("cpu-node").capacity(cpu="2", memory="4Gi", pods="110").obj())
    admin.create(make_node("gpu-node").capacity(cpu="2", memory="4Gi", pods="110").obj())
    admin.request("POST", f"{RESOURCE}/deviceclasses", device_class)
    admin.request("POST", f"{RESOURCE}/resourceslices", slice_)
    admin.request("POST", claims, claim)
    pod = {"apiVersion": "v1", "kind": "Pod"} | unstructure(
        make_pod("trainer").scheduler_name(SCHEDULER).req(cpu="100m").obj()
    )
    pod["spec"]["resourceClaims"] = [{"name": "gpu", "resourceClaimName": "train"}]
    admin.request("POST", PODS, pod)
    try:
        running = start_scheduler()
        assert admin.wait_for(lambda: node_of(admin, "trainer")) == "gpu-node"
        written = admin.request("GET", f"{claims}/train")
        results = written["status"]["allocation"]["devices"]["results"]
        assert [(r["driver"], r["pool"], r["device"]) for r in results] == [
            (driver, "gpu-node", "gpu-0")
        ]
        assert [r["name"] for r in written["status"]["reservedFor"]] == ["trainer"]
        assert "resource.kubernetes.io/delete-protection" in written["metadata"]["finalizers"]
        assert running.stop() == 0
    finally:
        admin.force_delete(f"{PODS}/trainer")
        live = admin.request("GET", f"{claims}/train")
        live["metadata"]["finalizers"] = []
        admin.request("PUT", f"{claims}/train", live)
        admin.request("DELETE", f"{claims}/train")
        admin.request("DELETE", f"{RESOURCE}/resourceslices/kubesched-gpu-node-gpus")
        admin.request("DELETE", f"{RESOURCE}/deviceclasses/kubesched-gpu")
