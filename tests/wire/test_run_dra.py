"""`kubesched run` with dynamic resource allocation: DeviceClasses, ResourceClaims and
ResourceSlices are listed and watched, PreBind writes each claim's allocation through the API
server (the finalizer by an update of the claim, allocation and reservedFor by an update of
its status), and the next pods see those devices taken before the watch brings them back."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from attrs import evolve

from kubesched.api import (
    CELDeviceSelector,
    Device,
    DeviceClaim,
    DeviceClass,
    DeviceClassSpec,
    DeviceRequest,
    DeviceSelector,
    ExactDeviceRequest,
    ObjectMeta,
    OwnerReference,
    Pod,
    PodResourceClaim,
    ResourceClaim,
    ResourceClaimSpec,
    ResourcePool,
    ResourceSlice,
    ResourceSliceSpec,
)
from kubesched.testing import make_node, make_pod
from kubesched.testing.apiserver import FakeApiServer

from .conftest import SCHEDULER, Running
from .test_run_binds import condition, node_of

DRIVER = "gpu.example.com"
RESOURCE = "resource.k8s.io/v1"


def gpu_class() -> DeviceClass:
    selector = DeviceSelector(cel=CELDeviceSelector(expression=f'device.driver == "{DRIVER}"'))
    return DeviceClass(ObjectMeta(name="gpu"), DeviceClassSpec(selectors=[selector]))


def node_slice(node: str, devices: int) -> ResourceSlice:
    spec = ResourceSliceSpec(
        driver=DRIVER,
        pool=ResourcePool(name=node, generation=1, resource_slice_count=1),
        node_name=node,
        devices=[Device(name=f"gpu-{i}") for i in range(devices)],
    )
    return ResourceSlice(ObjectMeta(name=f"{node}-gpus"), spec)


def gpu_claim(name: str) -> ResourceClaim:
    request = DeviceRequest(name="gpu", exactly=ExactDeviceRequest(device_class_name="gpu"))
    spec = ResourceClaimSpec(devices=DeviceClaim(requests=[request]))
    return ResourceClaim(ObjectMeta(name=name, namespace="default", uid=f"uid-{name}"), spec)


def claiming_pod(name: str, entry: PodResourceClaim) -> Pod:
    pod = make_pod(name).scheduler_name(SCHEDULER).uid(f"uid-{name}").req(cpu="100m").obj()
    return evolve(pod, spec=evolve(pod.spec, resource_claims=[entry]))


def claim_of(apiserver: FakeApiServer, name: str) -> dict[str, Any]:
    return apiserver.get(RESOURCE, "resourceclaims", "default", name)


def allocated(apiserver: FakeApiServer, name: str) -> dict[str, Any] | None:
    status = claim_of(apiserver, name).get("status") or {}
    return status if status.get("allocation") else None


def cluster_with_gpus(apiserver: FakeApiServer, gpus: dict[str, int]) -> None:
    apiserver.create(gpu_class())
    for node, count in gpus.items():
        apiserver.create(make_node(node).capacity(cpu="4", memory="8Gi").obj())
        if count:
            apiserver.create(node_slice(node, count))


def test_prebind_writes_the_allocation_into_the_claim(
    apiserver: FakeApiServer, start_scheduler: Callable[..., Running]
) -> None:
    cluster_with_gpus(apiserver, {"cpu-only": 0, "gpu-node": 2})
    apiserver.create(gpu_claim("train"))
    apiserver.create(
        claiming_pod("trainer", PodResourceClaim(name="gpu", resource_claim_name="train"))
    )
    running = start_scheduler()
    assert apiserver.wait_for(lambda: node_of(apiserver, "trainer")) == "gpu-node"
    claim = claim_of(apiserver, "train")
    results = claim["status"]["allocation"]["devices"]["results"]
    assert [(r["request"], r["driver"], r["pool"], r["device"]) for r in results] == [
        ("gpu", DRIVER, "gpu-node", "gpu-0")
    ]
    assert claim["status"]["reservedFor"] == [
        {"resource": "pods", "name": "trainer", "uid": "uid-trainer"}
    ]
    assert claim["metadata"]["finalizers"] == ["resource.kubernetes.io/delete-protection"]
    writes = [(r.method, r.path) for r in apiserver.requests if "resourceclaims" in r.path]
    path = "/apis/resource.k8s.io/v1/namespaces/default/resourceclaims/train"
    assert ("PUT", path) in writes and ("PUT", path + "/status") in writes
    assert writes.index(("PUT", path)) < writes.index(("PUT", path + "/status"))
    assert running.stop() == 0


def test_devices_written_are_taken_before_the_watch_brings_them_back(
    apiserver: FakeApiServer, start_scheduler: Callable[..., Running]
) -> None:
    cluster_with_gpus(apiserver, {"gpu-node": 2})
    for i in range(3):
        apiserver.create(gpu_claim(f"c{i}"))
        entry = PodResourceClaim(name="gpu", resource_claim_name=f"c{i}")
        apiserver.create(claiming_pod(f"p{i}", entry))
    running = start_scheduler()
    pods = ("p0", "p1", "p2")

    def refused() -> list[dict[str, str]]:
        found = [condition(apiserver, p, "PodScheduled") for p in pods]
        return [c for c in found if c is not None and c["status"] == "False"]

    failed = apiserver.wait_for(refused)
    apiserver.wait_for(lambda: len([p for p in pods if node_of(apiserver, p)]) == 2)
    bound = [p for p in pods if node_of(apiserver, p)]
    devices = sorted(
        (allocated(apiserver, f"c{p[1]}") or {})["allocation"]["devices"]["results"][0]["device"]
        for p in bound
    )
    assert devices == ["gpu-0", "gpu-1"]
    assert failed[0]["reason"] == "Unschedulable"
    assert "cannot allocate all claims" in failed[0]["message"]
    assert running.stop() == 0


def test_a_pod_waits_for_the_claim_of_its_template(
    apiserver: FakeApiServer, start_scheduler: Callable[..., Running]
) -> None:
    cluster_with_gpus(apiserver, {"gpu-node": 1})
    entry = PodResourceClaim(name="gpu", resource_claim_template_name="one-gpu")
    apiserver.create(claiming_pod("worker", entry))
    running = start_scheduler()
    apiserver.wait_for(running.server.scheduling.is_set)
    assert not node_of(apiserver, "worker")
    # Do what the resource-claim controller does: make the claim, owned by the pod, and
    # record it in the pod's status.
    claim = gpu_claim("worker-gpu-x2b4z")
    owner = OwnerReference(
        api_version="v1", kind="Pod", name="worker", uid="uid-worker", controller=True
    )
    apiserver.create(evolve(claim, metadata=evolve(claim.metadata, owner_references=[owner])))
    apiserver.patch(
        "v1",
        "pods",
        "default",
        "worker",
        {
            "status": {
                "resourceClaimStatuses": [{"name": "gpu", "resourceClaimName": "worker-gpu-x2b4z"}]
            }
        },
    )
    assert apiserver.wait_for(lambda: node_of(apiserver, "worker")) == "gpu-node"
    assert allocated(apiserver, "worker-gpu-x2b4z") is not None
    assert running.stop() == 0
