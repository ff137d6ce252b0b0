"""Builders for DynamicResources tests: classes, slices, claims and pods as upstream's tests
make them (a driver, a pool per node, claims with one request)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from attrs import evolve

from kubesched.api import (
    AllocationResult,
    CELDeviceSelector,
    Device,
    DeviceAllocationResult,
    DeviceAttribute,
    DeviceCapacity,
    DeviceClaim,
    DeviceClass,
    DeviceClassSpec,
    DeviceConstraint,
    DeviceRequest,
    DeviceRequestAllocationResult,
    DeviceSelector,
    DeviceSubRequest,
    ExactDeviceRequest,
    Node,
    ObjectMeta,
    OwnerReference,
    Pod,
    PodResourceClaim,
    PodResourceClaimStatus,
    ResourceClaim,
    ResourceClaimConsumerReference,
    ResourceClaimSpec,
    ResourceClaimStatus,
    ResourceClaimTemplate,
    ResourceClaimTemplateSpec,
    ResourcePool,
    ResourceSlice,
    ResourceSliceSpec,
    default_resource_claim_spec,
)
from kubesched.testing import make_node, make_pod

DRIVER = "driver.example.com"
CLASS = "gpu-class"
NAMESPACE = "default"


def selectors(*expressions: str) -> list[DeviceSelector]:
    return [DeviceSelector(cel=CELDeviceSelector(expression=e)) for e in expressions]


def device_class(name: str = CLASS, *expressions: str) -> DeviceClass:
    return DeviceClass(ObjectMeta(name=name), DeviceClassSpec(selectors=selectors(*expressions)))


def device(
    name: str,
    attributes: Mapping[str, int | bool | str] | None = None,
    capacity: Mapping[str, str] | None = None,
    versions: Mapping[str, str] | None = None,
) -> Device:
    attrs: dict[str, DeviceAttribute] = {}
    for key, value in (attributes or {}).items():
        if isinstance(value, bool):
            attrs[key] = DeviceAttribute(bool_=value)
        elif isinstance(value, int):
            attrs[key] = DeviceAttribute(int_=value)
        else:
            attrs[key] = DeviceAttribute(string=value)
    for key, version in (versions or {}).items():
        attrs[key] = DeviceAttribute(version=version)
    return Device(
        name=name,
        attributes=attrs,
        capacity={k: DeviceCapacity(v) for k, v in (capacity or {}).items()},
    )


def node_slice(
    node: str,
    *devices: Device,
    driver: str = DRIVER,
    pool: str | None = None,
    generation: int = 1,
    name: str | None = None,
) -> ResourceSlice:
    return ResourceSlice(
        ObjectMeta(name=name or f"{node}-{driver}-{generation}"),
        ResourceSliceSpec(
            driver=driver,
            pool=ResourcePool(name=pool or node, generation=generation, resource_slice_count=1),
            node_name=node,
            devices=list(devices),
        ),
    )


def cluster_slice(*devices: Device, driver: str = DRIVER, pool: str = "network") -> ResourceSlice:
    return ResourceSlice(
        ObjectMeta(name=f"{pool}-{driver}"),
        ResourceSliceSpec(
            driver=driver,
            pool=ResourcePool(name=pool, generation=1, resource_slice_count=1),
            all_nodes=True,
            devices=list(devices),
        ),
    )


def exact(
    name: str = "req-0",
    *,
    device_class_name: str = CLASS,
    count: int | None = None,
    mode: str = "",
    admin: bool | None = None,
    expressions: Sequence[str] = (),
) -> DeviceRequest:
    return DeviceRequest(
        name=name,
        exactly=ExactDeviceRequest(
            device_class_name=device_class_name,
            selectors=selectors(*expressions),
            allocation_mode=mode,
            count=count,
            admin_access=admin,
        ),
    )


def first_available(name: str, *subs: tuple[str, str, int]) -> DeviceRequest:
    """A request with subrequests (name, class, count), tried in order."""
    return DeviceRequest(
        name=name,
        first_available=[
            DeviceSubRequest(name=n, device_class_name=c, count=k) for n, c, k in subs
        ],
    )


def claim(
    name: str = "my-claim",
    *requests: DeviceRequest,
    constraints: Sequence[DeviceConstraint] = (),
    uid: str | None = None,
) -> ResourceClaim:
    spec = ResourceClaimSpec(
        devices=DeviceClaim(requests=list(requests or [exact()]), constraints=list(constraints))
    )
    return ResourceClaim(
        ObjectMeta(name=name, namespace=NAMESPACE, uid=uid or f"uid-{name}"),
        default_resource_claim_spec(spec),
    )


def template(name: str, *requests: DeviceRequest) -> ResourceClaimTemplate:
    spec = ResourceClaimSpec(devices=DeviceClaim(requests=list(requests or [exact()])))
    return ResourceClaimTemplate(
        ObjectMeta(name=name, namespace=NAMESPACE), ResourceClaimTemplateSpec(spec=spec)
    )


def allocated(
    c: ResourceClaim, node: str, *devices: str, reserved_for: Sequence[Pod] = ()
) -> ResourceClaim:
    """The claim allocated to devices of the node's pool (node-local)."""
    from kubesched_dynamicresources.nodeselector import node_name_selector

    results = [
        DeviceRequestAllocationResult(request="req-0", driver=DRIVER, pool=node, device=d)
        for d in devices
    ]
    allocation = AllocationResult(
        devices=DeviceAllocationResult(results=results), node_selector=node_name_selector(node)
    )
    reserved = [
        ResourceClaimConsumerReference(resource="pods", name=p.metadata.name, uid=p.uid)
        for p in reserved_for
    ]
    return evolve(c, status=ResourceClaimStatus(allocation=allocation, reserved_for=reserved))


def pod_with_claims(name: str, *claim_names: str, uid: str | None = None) -> Pod:
    pod = make_pod(name).uid(uid or f"uid-{name}").container("app").obj()
    entries = [
        PodResourceClaim(name=f"c{i}", resource_claim_name=n) for i, n in enumerate(claim_names)
    ]
    return evolve(pod, spec=evolve(pod.spec, resource_claims=entries))


def pod_with_template(name: str, template_name: str, *, generated: str | None = None) -> Pod:
    pod = make_pod(name).uid(f"uid-{name}").container("app").obj()
    entry = PodResourceClaim(name="gpu", resource_claim_template_name=template_name)
    statuses = (
        [PodResourceClaimStatus(name="gpu", resource_claim_name=generated)]
        if generated is not None
        else []
    )
    return evolve(
        pod,
        spec=evolve(pod.spec, resource_claims=[entry]),
        status=evolve(pod.status, resource_claim_statuses=statuses),
    )


def owned_by(c: ResourceClaim, pod: Pod) -> ResourceClaim:
    owner = OwnerReference(
        api_version="v1", kind="Pod", name=pod.metadata.name, uid=pod.uid, controller=True
    )
    return evolve(c, metadata=evolve(c.metadata, owner_references=[owner]))


def node(name: str, **labels: str) -> Node:
    builder = make_node(name).allocatable(cpu="8", memory="16Gi", pods=110)
    for key, value in labels.items():
        builder = builder.label(key, value)
    return builder.obj()
