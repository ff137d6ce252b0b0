"""Scheduling throughput with dynamic resource allocation, modelled on upstream
scheduler_perf's SchedulingWithResourceClaimTemplate (dra/performance-config): structured
parameters, the only kind in resource.k8s.io/v1.

Nodes from upstream's node template; each of the DRA nodes publishes one ResourceSlice of
the test driver with `maxClaimsPerNode` devices; one more node has none. One DeviceClass
selects the driver's devices by CEL (`device.driver == "test-driver.cdi.k8s.io"`); one
ResourceClaimTemplate asks for one device of it. Every pod (upstream's pod template, plus
a `resourceClaims` entry naming the template) gets its own claim from the in-memory
cluster's claim controller, and DynamicResources allocates it. The init pods are
scheduled first and not measured. Default profile (DynamicResources included).

    uv run python benchmarks/dynamic_resources.py           # upstream's shapes
    uv run python benchmarks/dynamic_resources.py --quick   # a small shape, for CI

Prints JSON and writes it to benchmarks/results/dynamic_resources.json.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from _measure import measure, median_of, write_report
from attrs import evolve, frozen
from scheduling_basic import make_node as basic_node
from scheduling_basic import make_pod as basic_pod

from kubesched.api import (
    CELDeviceSelector,
    Device,
    DeviceClaim,
    DeviceClass,
    DeviceClassSpec,
    DeviceRequest,
    DeviceSelector,
    ExactDeviceRequest,
    Node,
    ObjectMeta,
    Pod,
    PodResourceClaim,
    ResourceClaimSpec,
    ResourceClaimTemplate,
    ResourceClaimTemplateSpec,
    ResourcePool,
    ResourceSlice,
    ResourceSliceSpec,
    default_resource_claim_spec,
)

DRIVER = "test-driver.cdi.k8s.io"
CLASS = "test-class"
TEMPLATE = "test-claim-template"
RESULTS = Path(__file__).parent / "results" / "dynamic_resources.json"


@frozen
class Workload:
    name: str
    dra_nodes: int
    devices_per_node: int
    init_pods: int
    measured_pods: int
    plain_nodes: int = 1


FULL = [
    Workload("SchedulingWithResourceClaimTemplate/2000pods_100nodes", 100, 20, 1000, 1000),
    Workload("SchedulingWithResourceClaimTemplate/2000pods_200nodes", 200, 10, 1000, 1000),
]
QUICK = [Workload("SchedulingWithResourceClaimTemplate/fast", 10, 10, 10, 10)]


def device_class() -> DeviceClass:
    selector = DeviceSelector(cel=CELDeviceSelector(expression=f'device.driver == "{DRIVER}"'))
    return DeviceClass(ObjectMeta(name=CLASS), DeviceClassSpec(selectors=[selector]))


def claim_template() -> ResourceClaimTemplate:
    request = DeviceRequest(name="req-0", exactly=ExactDeviceRequest(device_class_name=CLASS))
    spec = default_resource_claim_spec(ResourceClaimSpec(devices=DeviceClaim(requests=[request])))
    return ResourceClaimTemplate(
        ObjectMeta(name=TEMPLATE, namespace="default"), ResourceClaimTemplateSpec(spec=spec)
    )


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


def run(workload: Workload, profile: bool = False) -> dict[str, Any]:
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
