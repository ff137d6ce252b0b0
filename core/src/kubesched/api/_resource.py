"""The `resource.k8s.io/v1` objects of dynamic resource allocation (DRA): DeviceClass,
ResourceClaim, ResourceClaimTemplate and ResourceSlice.

Only the fields the scheduler reads or writes are modelled. A device's
capacity keeps its quantity text (`"80Gi"`), parsed when compared; opaque
driver configuration is kept as the JSON it was given. The defaults the API
server applies (an exact request's `allocationMode: ExactCount` with `count: 1`,
a toleration's `operator: Equal`) are applied by `default_resource_claim_spec`.
"""

from __future__ import annotations

from typing import Any

from attrs import evolve, field, frozen

from kubesched.api._meta import ObjectMeta
from kubesched.api._pod import NodeSelector
from kubesched.api._resource_parts import (
    AllocatedDeviceStatus,
    CapacityRequestPolicy,
)
from kubesched.api._time import Time, as_time

RESOURCE_API_VERSION = "resource.k8s.io/v1"
ALLOCATION_MODE_EXACT_COUNT = "ExactCount"
ALLOCATION_MODE_ALL = "All"
ALLOCATION_MODES = (ALLOCATION_MODE_EXACT_COUNT, ALLOCATION_MODE_ALL)
RESOURCE_CLAIM_FINALIZER = "resource.kubernetes.io/delete-protection"
"""The finalizer the scheduler adds to a claim it allocates."""
RESOURCE_CLAIM_RESERVED_FOR_MAX_SIZE = 256
"""How many consumers a claim may be reserved for."""
ALLOCATION_RESULTS_MAX_SIZE = 32
"""How many devices one claim may be allocated (upstream's AllocationResultsMaxSize)."""
DEVICE_TAINT_EFFECTS = ("NoSchedule", "NoExecute", "None")

# -- DeviceClass ----------------------------------------------------------------------


@frozen
class CELDeviceSelector:
    """A CEL expression over `device` that must evaluate to true."""

    expression: str = ""


@frozen
class DeviceSelector:
    """A selector; `cel` is the only kind there is."""

    cel: CELDeviceSelector | None = None


@frozen
class OpaqueDeviceConfiguration:
    """Configuration for one driver, passed through to it unread."""

    driver: str = ""
    parameters: Any = None


@frozen
class DeviceClassConfiguration:
    """Configuration a class adds to every device allocated through it."""

    opaque: OpaqueDeviceConfiguration | None = None


@frozen
class DeviceClassSpec:
    """The selectors every device of the class meets, and its configuration."""

    selectors: list[DeviceSelector] = field(factory=list)
    config: list[DeviceClassConfiguration] = field(factory=list)
    extended_resource_name: str | None = None


@frozen
class DeviceClass:
    """A `resource.k8s.io/v1` DeviceClass (cluster-scoped)."""

    metadata: ObjectMeta = field(factory=ObjectMeta)
    spec: DeviceClassSpec = field(factory=DeviceClassSpec)


# -- ResourceClaim --------------------------------------------------------------------


@frozen
class DeviceToleration:
    """A toleration of device taints (DRADeviceTaints)."""

    key: str = ""
    operator: str = "Equal"
    value: str = ""
    effect: str = ""
    toleration_seconds: int | None = None


@frozen
class CapacityRequirements:
    """The capacity a request consumes of a shared device (DRAConsumableCapacity)."""

    requests: dict[str, str] = field(factory=dict)


@frozen
class ExactDeviceRequest:
    """Devices of one class: `count` of them (ExactCount) or all that match (All)."""

    device_class_name: str = ""
    selectors: list[DeviceSelector] = field(factory=list)
    allocation_mode: str = ""
    count: int | None = None
    admin_access: bool | None = None
    tolerations: list[DeviceToleration] = field(factory=list)
    capacity: CapacityRequirements | None = None


@frozen
class DeviceSubRequest:
    """One alternative of a `firstAvailable` request, tried in order."""

    name: str = ""
    device_class_name: str = ""
    selectors: list[DeviceSelector] = field(factory=list)
    allocation_mode: str = ""
    count: int | None = None
    tolerations: list[DeviceToleration] = field(factory=list)
    capacity: CapacityRequirements | None = None


@frozen
class DeviceRequest:
    """A named request: `exactly` one kind of device, or the first satisfiable of a list."""

    name: str = ""
    exactly: ExactDeviceRequest | None = None
    first_available: list[DeviceSubRequest] = field(factory=list)


@frozen
class DeviceConstraint:
    """A constraint across the devices of some requests (all of them when none named)."""

    requests: list[str] = field(factory=list)
    match_attribute: str | None = None
    distinct_attribute: str | None = None


@frozen
class DeviceClaimConfiguration:
    """Configuration for the devices of some requests (all of them when none named)."""

    requests: list[str] = field(factory=list)
    opaque: OpaqueDeviceConfiguration | None = None


@frozen
class DeviceClaim:
    """What a claim asks for: requests, constraints between them, configuration."""

    requests: list[DeviceRequest] = field(factory=list)
    constraints: list[DeviceConstraint] = field(factory=list)
    config: list[DeviceClaimConfiguration] = field(factory=list)


@frozen
class ResourceClaimSpec:
    """A claim's spec (immutable once created)."""

    devices: DeviceClaim = field(factory=DeviceClaim)


@frozen
class DeviceRequestAllocationResult:
    """One allocated device: the request (`req` or `req/sub`) and the device's identity."""

    request: str = ""
    driver: str = ""
    pool: str = ""
    device: str = ""
    admin_access: bool | None = None
    tolerations: list[DeviceToleration] = field(factory=list)
    consumed_capacity: dict[str, str] = field(factory=dict)
    share_id: str | None = None
    binding_conditions: list[str] = field(factory=list)
    binding_failure_conditions: list[str] = field(factory=list)


@frozen
class DeviceAllocationConfiguration:
    """Configuration copied into the allocation, from the class (`FromClass`) or the claim."""

    source: str = ""
    requests: list[str] = field(factory=list)
    opaque: OpaqueDeviceConfiguration | None = None


@frozen
class DeviceAllocationResult:
    """The devices allocated and their configuration."""

    results: list[DeviceRequestAllocationResult] = field(factory=list)
    config: list[DeviceAllocationConfiguration] = field(factory=list)


@frozen
class AllocationResult:
    """Where a claim was allocated: its devices and the nodes that can reach them."""

    devices: DeviceAllocationResult = field(factory=DeviceAllocationResult)
    node_selector: NodeSelector | None = None
    allocation_timestamp: Time | None = field(default=None, converter=as_time)


@frozen
class ResourceClaimConsumerReference:
    """A consumer a claim is reserved for (a pod: resource `pods`)."""

    api_group: str = ""
    resource: str = ""
    name: str = ""
    uid: str = ""


@frozen
class ResourceClaimStatus:
    """The allocation, the consumers the claim is reserved for, and the drivers' device
    statuses."""

    allocation: AllocationResult | None = None
    reserved_for: list[ResourceClaimConsumerReference] = field(factory=list)
    devices: list[AllocatedDeviceStatus] = field(factory=list)


@frozen
class ResourceClaim:
    """A `resource.k8s.io/v1` ResourceClaim (namespaced)."""

    metadata: ObjectMeta = field(factory=ObjectMeta)
    spec: ResourceClaimSpec = field(factory=ResourceClaimSpec)
    status: ResourceClaimStatus = field(factory=ResourceClaimStatus)

    @property
    def key(self) -> str:
        return f"{self.metadata.namespace}/{self.metadata.name}"


@frozen
class ResourceClaimTemplateSpec:
    """The metadata and spec of the claims made from a template."""

    metadata: ObjectMeta = field(factory=ObjectMeta)
    spec: ResourceClaimSpec = field(factory=ResourceClaimSpec)


@frozen
class ResourceClaimTemplate:
    """A `resource.k8s.io/v1` ResourceClaimTemplate (namespaced)."""

    metadata: ObjectMeta = field(factory=ObjectMeta)
    spec: ResourceClaimTemplateSpec = field(factory=ResourceClaimTemplateSpec)


# -- ResourceSlice --------------------------------------------------------------------


@frozen
class DeviceAttribute:
    """One typed attribute value: exactly one of int, bool, string, version."""

    int_: int | None = field(default=None, metadata={"json": "int"})
    bool_: bool | None = field(default=None, metadata={"json": "bool"})
    string: str | None = None
    version: str | None = None

    @property
    def value(self) -> int | bool | str | None:
        """The value, whichever kind it is (a version as its text)."""
        for value in (self.int_, self.bool_, self.string, self.version):
            if value is not None:
                return value
        return None


@frozen
class DeviceCapacity:
    """A capacity: a quantity, kept as its text, and how it may be requested."""

    value: str = "0"
    request_policy: CapacityRequestPolicy | None = None


@frozen
class DeviceTaint:
    """A taint on a device (DRADeviceTaints)."""

    key: str = ""
    value: str = ""
    effect: str = ""


@frozen
class DeviceCounterConsumption:
    """The shared counters a partition consumes (DRAPartitionableDevices)."""

    counter_set: str = ""
    counters: dict[str, DeviceCapacity] = field(factory=dict)


@frozen
class Device:
    """One device a driver publishes."""

    name: str = ""
    attributes: dict[str, DeviceAttribute] = field(factory=dict)
    capacity: dict[str, DeviceCapacity] = field(factory=dict)
    consumes_counters: list[DeviceCounterConsumption] = field(factory=list)
    node_name: str | None = None
    node_selector: NodeSelector | None = None
    all_nodes: bool | None = None
    taints: list[DeviceTaint] = field(factory=list)
    allow_multiple_allocations: bool | None = None
    binding_conditions: list[str] = field(factory=list)
    binding_failure_conditions: list[str] = field(factory=list)
    binds_to_node: bool | None = None


@frozen
class CounterSet:
    """Counters shared by the partitions of a device (DRAPartitionableDevices)."""

    name: str = ""
    counters: dict[str, DeviceCapacity] = field(factory=dict)


@frozen
class ResourcePool:
    """The pool a slice belongs to; only slices of the newest generation count."""

    name: str = ""
    generation: int = 0
    resource_slice_count: int = 0


@frozen
class ResourceSliceSpec:
    """A driver's devices in one pool, and which nodes can reach them."""

    driver: str = ""
    pool: ResourcePool = field(factory=ResourcePool)
    node_name: str | None = None
    node_selector: NodeSelector | None = None
    all_nodes: bool | None = None
    per_device_node_selection: bool | None = None
    devices: list[Device] = field(factory=list)
    shared_counters: list[CounterSet] = field(factory=list)


@frozen
class ResourceSlice:
    """A `resource.k8s.io/v1` ResourceSlice (cluster-scoped)."""

    metadata: ObjectMeta = field(factory=ObjectMeta)
    spec: ResourceSliceSpec = field(factory=ResourceSliceSpec)


# -- defaults ------------------------------------------------------------------------


def _default_exact(request: ExactDeviceRequest) -> ExactDeviceRequest:
    mode = request.allocation_mode or ALLOCATION_MODE_EXACT_COUNT
    count = request.count
    if mode == ALLOCATION_MODE_EXACT_COUNT and count is None:
        count = 1
    return evolve(request, allocation_mode=mode, count=count)


def _default_sub(request: DeviceSubRequest) -> DeviceSubRequest:
    mode = request.allocation_mode or ALLOCATION_MODE_EXACT_COUNT
    count = request.count
    if mode == ALLOCATION_MODE_EXACT_COUNT and count is None:
        count = 1
    return evolve(request, allocation_mode=mode, count=count)


def default_resource_claim_spec(spec: ResourceClaimSpec) -> ResourceClaimSpec:
    """The spec as the API server stores it: ExactCount with count 1 unless said otherwise."""
    requests = [
        evolve(
            r,
            exactly=_default_exact(r.exactly) if r.exactly is not None else None,
            first_available=[_default_sub(s) for s in r.first_available],
        )
        for r in spec.devices.requests
    ]
    return evolve(spec, devices=evolve(spec.devices, requests=requests))


def default_resource_object(obj: Any) -> Any:
    """A ResourceClaim or ResourceClaimTemplate with its spec defaulted; others unchanged."""
    if isinstance(obj, ResourceClaim):
        return evolve(obj, spec=default_resource_claim_spec(obj.spec))
    if isinstance(obj, ResourceClaimTemplate):
        inner = evolve(obj.spec, spec=default_resource_claim_spec(obj.spec.spec))
        return evolve(obj, spec=inner)
    return obj
