"""Scheduling throughput with dynamic resource allocation, modelled on upstream
scheduler_perf's DRA shapes (dra/performance-config): structured parameters, the only kind in
resource.k8s.io/v1.

SchedulingWithResourceClaimTemplate fills the cluster up:

Nodes from upstream's node template; each of the DRA nodes publishes one ResourceSlice of
the test driver with `maxClaimsPerNode` devices; one more node has none. One DeviceClass
selects the driver's devices by CEL (`device.driver == "test-driver.cdi.k8s.io"`); one
ResourceClaimTemplate asks for one device of it. Every pod (upstream's pod template, plus
a `resourceClaims` entry naming the template) gets its own claim from the in-memory
cluster's claim controller, and DynamicResources allocates it. The init pods are
scheduled first and not measured. Default profile (DynamicResources included).

SteadyStateClusterResourceClaimTemplate keeps the cluster at one level of use: `initClaims`
claims in namespace `init` are allocated up front (none, half or all but ten of the devices:
empty, half, full), then rounds of ten pods are created, scheduled and deleted (their
generated claims go with them). Upstream runs rounds for ten seconds; here a fixed number of
rounds (`steady_pods` / 10), so every run does the same work. The FirstAvailable variant's
template asks for the device through a `firstAvailable` list (DRAPrioritizedList; the
scoring by that list runs too).

    uv run python benchmarks/dynamic_resources.py           # upstream's shapes
    uv run python benchmarks/dynamic_resources.py --only SteadyState
    uv run python benchmarks/dynamic_resources.py --quick   # a small shape, for CI

Prints JSON and writes it to benchmarks/results/dynamic_resources.json.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path
from typing import Any

from _measure import measure, median_of, write_report
from attrs import evolve, frozen
from scheduling_basic import make_node as basic_node
from scheduling_basic import make_pod as basic_pod

from kubesched.api import (
    AllocationResult,
    CELDeviceSelector,
    Device,
    DeviceAllocationResult,
    DeviceClaim,
    DeviceClass,
    DeviceClassSpec,
    DeviceRequest,
    DeviceRequestAllocationResult,
    DeviceSelector,
    DeviceSubRequest,
    ExactDeviceRequest,
    Node,
    ObjectMeta,
    Pod,
    PodResourceClaim,
    ResourceClaim,
    ResourceClaimSpec,
    ResourceClaimStatus,
    ResourceClaimTemplate,
    ResourceClaimTemplateSpec,
    ResourcePool,
    ResourceSlice,
    ResourceSliceSpec,
    default_resource_claim_spec,
)
from kubesched.cluster.memory import InMemoryCluster
from kubesched.config import default_config
from kubesched.framework import default_registry
from kubesched.profile import build_simulation

DRIVER = "test-driver.cdi.k8s.io"
CLASS = "test-class"
TEMPLATE = "test-claim-template"
OTHER_CLASS = "other-class"
"""A class of a driver that publishes nothing here."""
RESULTS = Path(__file__).parent / "results" / "dynamic_resources.json"


@frozen
class Workload:
    name: str
    dra_nodes: int
    devices_per_node: int
    init_pods: int
    measured_pods: int
    plain_nodes: int = 1
    init_claims: int = -1
    """Steady state: claims allocated up front (-1: not a steady-state shape)."""
    first_available: bool = False


def steady(name: str, nodes: int, init_claims: int, pods: int = 500, **kw: Any) -> Workload:
    """A SteadyStateClusterResourceClaimTemplate shape: `pods` pods in rounds of ten."""
    return Workload(name, nodes, 10, 0, pods, plain_nodes=0, init_claims=init_claims, **kw)


STEADY = "SteadyStateClusterResourceClaimTemplate"
FULL = [
    Workload("SchedulingWithResourceClaimTemplate/2000pods_100nodes", 100, 20, 1000, 1000, 0),
    Workload("SchedulingWithResourceClaimTemplate/2000pods_200nodes", 200, 10, 1000, 1000, 0),
    Workload("SchedulingWithResourceClaimTemplate/5000pods_500nodes", 500, 10, 2500, 2500, 0),
    steady(f"{STEADY}/empty_100nodes", 100, 0),
    steady(f"{STEADY}/half_100nodes", 100, 500),
    steady(f"{STEADY}/full_100nodes", 100, 990),
    steady(f"{STEADY}/empty_200nodes", 200, 0),
    steady(f"{STEADY}/half_200nodes", 200, 1000),
    steady(f"{STEADY}/full_200nodes", 200, 1990),
    steady(f"{STEADY}FirstAvailable/empty_100nodes", 100, 0, first_available=True),
]
QUICK = [
    Workload("SchedulingWithResourceClaimTemplate/fast", 1, 10, 0, 10),
    steady(f"{STEADY}/fast", 1, 0, pods=20),
    steady(f"{STEADY}FirstAvailable/fast", 1, 0, pods=20, first_available=True),
]


def device_class(name: str = CLASS, driver: str = DRIVER) -> DeviceClass:
    selector = DeviceSelector(cel=CELDeviceSelector(expression=f'device.driver == "{driver}"'))
    return DeviceClass(ObjectMeta(name=name), DeviceClassSpec(selectors=[selector]))


def claim_template(first_available: bool = False) -> ResourceClaimTemplate:
    """One device of the class; with `first_available`, through a list whose first
    alternative no device meets (a class of another driver), then ours. Upstream's
    resourceclaimtemplate-first-available names a class that does not exist, which its
    PreFilter (and ours) refuses outright."""
    if first_available:
        subs = [
            DeviceSubRequest(name="sub-0", device_class_name=OTHER_CLASS),
            DeviceSubRequest(name="sub-1", device_class_name=CLASS),
        ]
        request = DeviceRequest(name="req-0", first_available=subs)
    else:
        request = DeviceRequest(name="req-0", exactly=ExactDeviceRequest(device_class_name=CLASS))
    spec = default_resource_claim_spec(ResourceClaimSpec(devices=DeviceClaim(requests=[request])))
    return ResourceClaimTemplate(
        ObjectMeta(name=TEMPLATE, namespace="default"), ResourceClaimTemplateSpec(spec=spec)
    )


def allocated_claims(nodes: list[Node], devices_per_node: int, count: int) -> list[ResourceClaim]:
    """Upstream's allocResourceClaims: `count` claims in namespace `init`, each allocated one
    device, filling the nodes in order, reserved for no pod."""
    request = DeviceRequest(name="req-0", exactly=ExactDeviceRequest(device_class_name=CLASS))
    spec = default_resource_claim_spec(ResourceClaimSpec(devices=DeviceClaim(requests=[request])))
    claims = []
    for i in range(count):
        node = nodes[i // devices_per_node].metadata.name
        result = DeviceRequestAllocationResult(
            request="req-0", driver=DRIVER, pool=node, device=f"device-{i % devices_per_node}"
        )
        allocation = AllocationResult(devices=DeviceAllocationResult(results=[result]))
        claims.append(
            ResourceClaim(
                ObjectMeta(name=f"claim-{i}", namespace="init", uid=f"init-claim-{i}"),
                spec,
                ResourceClaimStatus(allocation=allocation),
            )
        )
    return claims


def node_slice(node: Node, devices: int) -> ResourceSlice:
    name = node.metadata.name
    return ResourceSlice(
        ObjectMeta(name=f"{name}-{DRIVER}"),
        ResourceSliceSpec(
            driver=DRIVER,
            pool=ResourcePool(name=name, generation=1, resource_slice_count=1),
            node_name=name,
            devices=[Device(name=f"device-{d}") for d in range(devices)],
        ),
    )


def claiming_pod(prefix: str, i: int) -> Pod:
    pod = basic_pod(prefix, i)
    entry = PodResourceClaim(name="resource", resource_claim_template_name=TEMPLATE)
    return evolve(pod, spec=evolve(pod.spec, resource_claims=[entry]))


def run_steady(workload: Workload) -> dict[str, Any]:
    """Rounds of ten pods: created, scheduled, deleted; timed as a whole."""
    nodes = [basic_node(i) for i in range(workload.dra_nodes)]
    slices = [node_slice(n, workload.devices_per_node) for n in nodes]
    claims = allocated_claims(nodes, workload.devices_per_node, workload.init_claims)
    classes = [device_class(), device_class(OTHER_CLASS, "other-driver.example.com")]
    resources = [*classes, claim_template(workload.first_available), *slices, *claims]
    registry = default_registry()
    cluster = InMemoryCluster(nodes=nodes, pods=[], resources=resources)
    simulation = build_simulation(default_config(registry), registry, cluster)
    simulation.run()
    scheduled = 0
    start, cpu_start = time.perf_counter(), time.process_time()
    for first in range(0, workload.measured_pods, 10):
        added = [cluster.add_pod(claiming_pod("pod", i)) for i in range(first, first + 10)]
        result = simulation.run()
        del result
        for pod in added:
            live = cluster.get_pod(pod.uid)
            if live is not None and live.spec.node_name:
                scheduled += 1
            cluster.delete_pod(live or pod)
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    return {
        "name": workload.name,
        "nodes": len(nodes),
        "init_claims": workload.init_claims,
        "measured_pods": workload.measured_pods,
        "scheduled": scheduled,
        "seconds": round(elapsed, 3),
        "pods_per_second": round(scheduled / elapsed, 1),
        "cpu_seconds": round(cpu, 3),
        "pods_per_cpu_second": round(scheduled / cpu, 1),
        "peak_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
    }


def run(workload: Workload, profile: bool = False) -> dict[str, Any]:
    if workload.init_claims >= 0:
        return run_steady(workload)
    nodes = [basic_node(i) for i in range(workload.dra_nodes + workload.plain_nodes)]
    slices = [node_slice(n, workload.devices_per_node) for n in nodes[: workload.dra_nodes]]
    return measure(
        workload.name,
        nodes,
        [claiming_pod("init", i) for i in range(workload.init_pods)],
        lambda: (claiming_pod("pod", i) for i in range(workload.measured_pods)),
        profile=profile,
        resources=[device_class(), claim_template(), *slices],
    )


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a small workload, for CI")
    parser.add_argument("--profile", action="store_true", help="add cProfile's top entries")
    parser.add_argument("--only", default="", help="run the workloads whose name contains this")
    parser.add_argument("--output", type=Path, default=RESULTS, help="where to write the JSON")
    parser.add_argument("--repeat", type=int, default=1, help="runs per workload (median)")
    args = parser.parse_args(argv)
    selected = [w for w in (QUICK if args.quick else FULL) if args.only in w.name]
    workloads = [median_of(lambda w=w: run(w, args.profile), args.repeat) for w in selected]
    return write_report("dynamic_resources", args.output, repeat=args.repeat, workloads=workloads)


if __name__ == "__main__":
    main(sys.argv[1:])
