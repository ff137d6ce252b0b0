"""The DynamicResources plugin: a pod's ResourceClaims must exist, and be allocated (or
allocatable, by the structured-parameters allocator) on the node it goes to; PreBind writes
the allocation and the reservation into each claim's status."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from attrs import define, evolve, field
from numpy.typing import NDArray

from kubesched import hookimpl
from kubesched.api import (
    RESOURCE_CLAIM_FINALIZER,
    AllocationResult,
    Node,
    NodeSelector,
    Pod,
    ResourceClaim,
    ResourceClaimStatus,
    node_selector_matches,
)
from kubesched.errors import PluginError
from kubesched.framework import (
    MAX_NODE_SCORE,
    ActionType,
    ClusterEvent,
    ClusterEventWithHint,
    Code,
    CycleState,
    EventResource,
    Handle,
    NodeInfo,
    NodeScoreList,
    NodeTable,
    QueueingHint,
    StateNotFoundError,
    Status,
    default_normalize_score,
)
from kubesched_dynamicresources.allocator import (
    AllocationError,
    AllocationTimeout,
    Allocator,
    DeviceID,
    Features,
    Plan,
    SliceCache,
    allocated_devices,
)
from kubesched_dynamicresources.args import DynamicResourcesArgs
from kubesched_dynamicresources.binding import (
    DEVICE_BINDING_TIMEOUT,
    BindingFailed,
    has_binding_conditions,
    ready_for_binding,
)
from kubesched_dynamicresources.capacity import capacity_in_use
from kubesched_dynamicresources.cel import SelectorEvaluator
from kubesched_dynamicresources.claims import (
    ClaimError,
    ResourceReader,
    can_be_reserved,
    is_reserved_for,
    pod_claims,
    pod_reference,
)
from kubesched_dynamicresources.scoring import pod_score

NAME = "DynamicResources"
STATE_KEY = NAME
REASON_CANNOT_ALLOCATE = "cannot allocate all claims"
REASON_NOT_AVAILABLE = "resourceclaim not available on the node"
REASON_IN_USE = "resourceclaim in use"
GATE_ADMIN_ACCESS = "DRAAdminAccess"
GATE_PRIORITIZED_LIST = "DRAPrioritizedList"
GATE_PARTITIONABLE_DEVICES = "DRAPartitionableDevices"
GATE_DEVICE_TAINTS = "DRADeviceTaints"
GATE_CONSUMABLE_CAPACITY = "DRAConsumableCapacity"
GATE_EXTENDED_RESOURCE = "DRAExtendedResource"
GATE_FILTER_TIMEOUT = "DRASchedulerFilterTimeout"
GATE_BINDING_CONDITIONS = "DRADeviceBindingConditions"
GATE_DEVICE_STATUS = "DRAResourceClaimDeviceStatus"
REASON_TIMED_OUT = "timed out trying to allocate devices"
GATE_SCHEDULING_QUEUE_HINTS = "SchedulerQueueingHints"
IMPLEMENTED_GATES: Mapping[str, bool] = {
    GATE_ADMIN_ACCESS: True,
    GATE_PRIORITIZED_LIST: True,
    GATE_PARTITIONABLE_DEVICES: True,
    GATE_DEVICE_TAINTS: True,
    GATE_CONSUMABLE_CAPACITY: True,
    GATE_EXTENDED_RESOURCE: False,
    GATE_FILTER_TIMEOUT: True,
    GATE_BINDING_CONDITIONS: True,
}
"""The DRA feature gates, and whether turning each on changes what this plugin does."""


@define
class _State:
    """The pod's claims, what each allows, and per node what allocating them takes."""

    claims: list[ResourceClaim] = field(factory=list)
    allocator: Allocator | None = None
    available_on: list[NodeSelector | None] = field(factory=list)
    unavailable: set[int] = field(factory=set)
    node_allocations: dict[str, tuple[Node, Plan]] = field(factory=dict)
    """Per feasible node: the devices the allocator found there (results made at Reserve)."""
    allocations: dict[int, AllocationResult] = field(factory=dict)
    """Set by Reserve: the allocation of each claim the scheduler allocates, by index."""

    def clone(self) -> _State:
        return self


def _unschedulable(reason: str) -> Status:
    """Upstream's statusUnschedulable: nothing but a cluster event can change it."""
    return Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, reason)


class DynamicResources:
    """Upstream's DynamicResources with structured parameters (the only kind in v1)."""

    name = NAME
    args_type = DynamicResourcesArgs
    args_kind = "DynamicResourcesArgs"

    def __init__(
        self, args: DynamicResourcesArgs | None = None, handle: Handle | None = None
    ) -> None:
        self.args = args if args is not None else DynamicResourcesArgs()
        self._handle = handle
        self._evaluator = SelectorEvaluator()
        self._slices = SliceCache()
        self._in_flight: dict[str, ResourceClaim] = {}
        """Claims allocated at Reserve and not written yet: uid -> the claim with it."""
        gates = handle.feature_gates if handle is not None else None
        self.features = Features(
            admin_access=gates.enabled(GATE_ADMIN_ACCESS) if gates else True,
            prioritized_list=gates.enabled(GATE_PRIORITIZED_LIST) if gates else True,
            partitionable_devices=gates.enabled(GATE_PARTITIONABLE_DEVICES) if gates else False,
            device_taints=gates.enabled(GATE_DEVICE_TAINTS) if gates else False,
            consumable_capacity=gates.enabled(GATE_CONSUMABLE_CAPACITY) if gates else False,
            binding_conditions=(
                gates.enabled(GATE_BINDING_CONDITIONS) and gates.enabled(GATE_DEVICE_STATUS)
                if gates
                else False
            ),
        )
        timeout = self.args.filter_timeout
        use_timeout = gates.enabled(GATE_FILTER_TIMEOUT) if gates else True
        self.filter_timeout: float | None = (
            timeout.total_seconds() if use_timeout and timeout else None
        )
        """Seconds the allocator may search per node in Filter (None: no limit)."""

    # -- the cluster ---------------------------------------------------------------------

    def _reader(self) -> ResourceReader | None:
        client: Any = self._handle.client if self._handle is not None else None
        return client if isinstance(client, ResourceReader) else None

    def _get_claim(self, namespace: str, name: str) -> ResourceClaim | None:
        reader = self._reader()
        return reader.get_resource_claim(namespace, name) if reader is not None else None

    def _claims(self, pod: Pod) -> list[ResourceClaim]:
        return [claim for _, claim in pod_claims(pod, self._get_claim)]

    # -- PreEnqueue and the queueing hints -----------------------------------------------

    @hookimpl
    def pre_enqueue(self, pod: Pod) -> Status | None:
        """The pod waits until every claim it names exists (and is its own, for those made
        from templates)."""
        if not pod.spec.resource_claims:
            return None
        try:
            self._claims(pod)
        except ClaimError as err:
            return _unschedulable(str(err))
        return None

    def _after_claim_change(self, pod: Pod, old: Any, new: Any) -> QueueingHint:
        """Upstream's isSchedulableAfterClaimChange."""
        if not isinstance(new, ResourceClaim):
            return QueueingHint.QUEUE
        try:
            claims = self._claims(pod)
        except ClaimError:
            return QueueingHint.QUEUE_SKIP
        if (
            isinstance(old, ResourceClaim)
            and old.status.allocation is not None
            and new.status.allocation is None
        ):
            return QueueingHint.QUEUE  # deallocated: its devices are free again
        if not any(c.metadata.uid == new.metadata.uid for c in claims):
            return QueueingHint.QUEUE_SKIP
        if old is None:
            return QueueingHint.QUEUE
        if isinstance(old, ResourceClaim) and old.status == new.status:
            return QueueingHint.QUEUE_SKIP
        return QueueingHint.QUEUE

    def _after_pod_change(self, pod: Pod, old: Any, new: Any) -> QueueingHint:
        """Upstream's isSchedulableAfterPodChange: the pod's own claims got generated."""
        if not isinstance(new, Pod) or new.uid != pod.uid:
            return QueueingHint.QUEUE_SKIP
        try:
            self._claims(new)
        except ClaimError:
            return QueueingHint.QUEUE_SKIP
        return QueueingHint.QUEUE

    @hookimpl
    def events_to_register(self) -> Sequence[ClusterEventWithHint]:
        """Node additions and label changes, claims added or updated (hinted), the pod's
        generated claims (hinted), classes and slices added or updated."""
        add_update = ActionType.ADD | ActionType.UPDATE
        return (
            ClusterEventWithHint(
                ClusterEvent(EventResource.NODE, ActionType.ADD | ActionType.UPDATE_NODE_LABEL)
            ),
            ClusterEventWithHint(
                ClusterEvent(EventResource.RESOURCE_CLAIM, add_update), self._after_claim_change
            ),
            ClusterEventWithHint(
                ClusterEvent(EventResource.POD, ActionType.UPDATE_POD_GENERATED_RESOURCE_CLAIM),
                self._after_pod_change,
            ),
            ClusterEventWithHint(ClusterEvent(EventResource.DEVICE_CLASS, add_update)),
            ClusterEventWithHint(ClusterEvent(EventResource.RESOURCE_SLICE, add_update)),
        )

    # -- PreFilter and Filter ------------------------------------------------------------

    @hookimpl
    def pre_filter(self, state: CycleState, pod: Pod) -> Status | None:
        """Find the pod's claims; reject one reserved for too many others, a request whose
        class does not exist or one allocation in flight; set up the allocator for the
        claims not allocated yet. Skip pods without claims."""
        data = _State()
        state.write(STATE_KEY, data)
        if not pod.spec.resource_claims:
            return Status(Code.SKIP)
        reader = self._reader()
        if reader is None:
            return Status.error("this cluster backend does not serve resource.k8s.io objects")
        try:
            claims = self._claims(pod)
        except ClaimError as err:
            return _unschedulable(str(err))
        if not claims:
            return Status(Code.SKIP)
        to_allocate: list[ResourceClaim] = []
        data.available_on = [None] * len(claims)
        for index, claim in enumerate(claims):
            allocation = claim.status.allocation
            if allocation is not None:
                if not can_be_reserved(claim) and not is_reserved_for(pod, claim):
                    return _unschedulable(REASON_IN_USE)
                data.available_on[index] = allocation.node_selector
                continue
            to_allocate.append(claim)
            if claim.metadata.uid in self._in_flight:
                return _unschedulable(
                    f"resource claim {claim.key} is in the process of being allocated"
                )
            status = self._check_classes(reader, claim)
            if status is not None:
                return status
        if to_allocate:
            all_claims = [*reader.resource_claims(), *self._in_flight.values()]
            classes = {c.metadata.name: c for c in reader.device_classes()}
            try:
                shares = self.features.consumable_capacity
                data.allocator = Allocator(
                    self.features,
                    to_allocate,
                    allocated_devices(all_claims, consumable_capacity=shares),
                    classes,
                    reader.resource_slices(),
                    self._evaluator,
                    slice_cache=self._slices,
                    capacity_in_use=capacity_in_use(all_claims) if shares else None,
                )
            except AllocationError as err:
                return Status.error(str(err))
        data.claims = claims
        return None

    def _check_classes(self, reader: ResourceReader, claim: ResourceClaim) -> Status | None:
        for request in claim.spec.devices.requests:
            if not request.first_available:
                class_name = request.exactly.device_class_name if request.exactly else ""
                status = _class_status(reader, class_name, request.name)
                if status is not None:
                    return status
                continue
            if not self.features.prioritized_list:
                return _unschedulable(
                    f"resource claim {claim.key}, request {request.name}: has subrequests, but "
                    "the DRAPrioritizedList feature is disabled"
                )
            for sub in request.first_available:
                status = _class_status(reader, sub.device_class_name, f"{request.name}/{sub.name}")
                if status is not None:
                    return status
        return None

    @hookimpl
    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Status | None:
        """Allocated claims must be usable on the node; the others must be allocatable
        there (the allocation is kept for Reserve)."""
        try:
            data = state.read_as(STATE_KEY, _State)
        except StateNotFoundError as err:
            return Status.error(err)
        if not data.claims:
            return None
        node = node_info.node
        if node is None:
            return Status.error("node not found")
        unavailable = [
            i
            for i, selector in enumerate(data.available_on)
            if (selector is not None and not node_selector_matches(selector, node))
            or (self.features.binding_conditions and binding_failed(data.claims[i]))
        ]
        plan: Plan | None = None
        if data.allocator is not None:
            try:
                plan = data.allocator.find(node, self.filter_timeout)
            except AllocationError as err:
                return Status.error(str(err))
            except AllocationTimeout:
                return _unschedulable(REASON_TIMED_OUT)
            if plan is None:
                return _unschedulable(REASON_CANNOT_ALLOCATE)
        if unavailable:
            data.unavailable.update(unavailable)
            return _unschedulable(REASON_NOT_AVAILABLE)
        if plan is not None:
            data.node_allocations[node_info.name] = (node, plan)
        return None

    # -- PostFilter ----------------------------------------------------------------------

    @hookimpl
    def post_filter(
        self, state: CycleState, pod: Pod, filtered_node_status_map: Mapping[str, Status]
    ) -> Status | None:
        """Deallocate one allocated claim that kept the pod off nodes, if no other pod
        uses it (better than evicting a pod); DefaultPreemption runs after."""
        if not pod.spec.resource_claims:
            return Status(Code.UNSCHEDULABLE)
        try:
            data = state.read_as(STATE_KEY, _State)
        except StateNotFoundError as err:
            return Status.error(err)
        if not data.claims:
            return Status(Code.UNSCHEDULABLE, "no new claims to deallocate")
        reader = self._reader()
        for index in sorted(data.unavailable):
            claim = data.claims[index]
            reserved = claim.status.reserved_for
            if not reserved or (len(reserved) == 1 and reserved[0].uid == pod.uid):
                if reader is None:
                    return Status.error("this cluster backend cannot write resource claims")
                try:
                    reader.update_resource_claim_status(evolve(claim, status=ResourceClaimStatus()))
                except Exception as err:
                    return Status.error(str(err))
                return Status(Code.UNSCHEDULABLE, "deallocation of ResourceClaim completed")
        return Status(Code.UNSCHEDULABLE, "still not schedulable")

    # -- Score ---------------------------------------------------------------------------

    def _score_state(self, state: CycleState) -> _State | None:
        """The cycle's state when some node may score above 0, else None."""
        if not self.features.prioritized_list:
            return None
        data = state.read_as(STATE_KEY, _State)
        return data if data.claims and data.node_allocations else None

    @staticmethod
    def _node_score(data: _State, node_name: str) -> int:
        """The node's score (raises ValueError for allocations that do not fit the claims)."""
        found = data.node_allocations.get(node_name)
        if found is None:
            return 0
        pending = len(data.allocator.claims) if data.allocator is not None else 0
        requests: list[list[str]] = [[] for _ in range(pending)]
        for taken in found[1].taken:
            requests[taken.claim_index].append(taken.request)
        return pod_score(data.claims, requests)

    @hookimpl
    def score(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> int | Status:
        """Prefer the node where `firstAvailable` requests get earlier alternatives
        (DRAPrioritizedList); 0 for pods without claims and nodes with nothing to allocate."""
        try:
            data = self._score_state(state)
            return 0 if data is None else self._node_score(data, node_info.name)
        except (StateNotFoundError, ValueError) as err:
            return Status.error(str(err))

    @hookimpl
    def score_batch(
        self, state: CycleState, table: NodeTable, rows: NDArray[np.intp]
    ) -> NDArray[np.int64]:
        """`score` over table rows: zeros at once for the pods (most) without claims."""
        try:
            data = self._score_state(state)
            if data is None:
                return np.zeros(len(rows), dtype=np.int64)
            names = table.names
            return np.array([self._node_score(data, names[r]) for r in rows], dtype=np.int64)
        except (StateNotFoundError, ValueError) as err:
            raise PluginError(str(err)) from err

    @hookimpl
    def normalize_score(self, state: CycleState, pod: Pod, scores: NodeScoreList) -> None:
        """Scale to 0..100 (upstream's DefaultNormalizeScore)."""
        default_normalize_score(MAX_NODE_SCORE, False, scores.scores)

    # -- Reserve, Unreserve, PreBind -----------------------------------------------------

    @hookimpl
    def reserve(self, state: CycleState, pod: Pod, node_name: str) -> Status | None:
        """Hold the node's allocation of each unallocated claim (in flight) until PreBind
        writes it, so the next pods do not take the same devices."""
        try:
            data = state.read_as(STATE_KEY, _State)
        except StateNotFoundError as err:
            return Status.error(err)
        if not data.claims or data.allocator is None:
            return None
        found = data.node_allocations.get(node_name)
        if found is None:
            return Status.error("claim allocation not found for node")
        allocations = data.allocator.results(*found)
        pending = [i for i, c in enumerate(data.claims) if c.status.allocation is None]
        if len(allocations) != len(pending):
            return Status.error(
                f"internal error, have {len(allocations)} allocations, "
                f"{len(data.allocator.claims)} claims to allocate, want {len(pending)} claims"
            )
        for index, allocation in zip(pending, allocations, strict=True):
            claim = data.claims[index]
            data.allocations[index] = allocation
            finalizers = list(claim.metadata.finalizers)
            if RESOURCE_CLAIM_FINALIZER not in finalizers:
                finalizers.append(RESOURCE_CLAIM_FINALIZER)
            self._in_flight[claim.metadata.uid] = evolve(
                claim,
                metadata=evolve(claim.metadata, finalizers=finalizers),
                status=evolve(claim.status, allocation=allocation),
            )
        return None

    @hookimpl
    def unreserve(self, state: CycleState, pod: Pod, node_name: str) -> None:
        """Forget the in-flight allocations; drop the pod from claims reserved for it."""
        try:
            data = state.read_as(STATE_KEY, _State)
        except StateNotFoundError:
            return
        reader = self._reader()
        for claim in data.claims:
            self._in_flight.pop(claim.metadata.uid, None)
            live = self._get_claim(claim.metadata.namespace, claim.metadata.name)
            if reader is None or live is None:
                continue
            if live.status.allocation is not None and is_reserved_for(pod, live):
                rest = [r for r in live.status.reserved_for if r.uid != pod.uid]
                reader.update_resource_claim_status(
                    evolve(live, status=evolve(live.status, reserved_for=rest))
                )

    @hookimpl
    def pre_bind(self, state: CycleState, pod: Pod, node_name: str) -> Status | None:
        """Write each claim's allocation (when the scheduler made it) and reserve the claim
        for the pod."""
        try:
            data = state.read_as(STATE_KEY, _State)
        except StateNotFoundError as err:
            return Status.error(err)
        if not data.claims:
            return None
        reader = self._reader()
        if reader is None:
            return Status.error("this cluster backend cannot write resource claims")
        try:
            for index, claim in enumerate(data.claims):
                if is_reserved_for(pod, claim):
                    continue
                data.claims[index] = self._bind_claim(reader, data, index, pod)
        except _BindError as err:
            return Status.error(str(err))
        finally:
            for claim in data.claims:
                self._in_flight.pop(claim.metadata.uid, None)
        if self.features.binding_conditions:
            return _wait_for_binding_conditions(data.claims)
        return None

    def _bind_claim(
        self, reader: ResourceReader, data: _State, index: int, pod: Pod
    ) -> ResourceClaim:
        claim = data.claims[index]
        live = reader.get_resource_claim(claim.metadata.namespace, claim.metadata.name)
        if live is None or live.metadata.uid != claim.metadata.uid:
            raise _BindError(f'resourceclaim.resource.k8s.io "{claim.metadata.name}" not found')
        allocation = data.allocations.get(index)
        metadata, status = live.metadata, live.status
        if allocation is not None:
            if status.allocation is not None:
                raise _BindError(f"claim {live.key} got allocated elsewhere in the meantime")
            finalizers = list(metadata.finalizers)
            if RESOURCE_CLAIM_FINALIZER not in finalizers:
                finalizers.append(RESOURCE_CLAIM_FINALIZER)
            metadata = evolve(metadata, finalizers=finalizers)
            status = evolve(status, allocation=allocation)
        elif status.allocation is None:
            raise _BindError(f"claim {live.key} got deallocated in the meantime")
        if not can_be_reserved(live):
            raise _BindError(f"claim {live.key} cannot be reserved: it is in use by too many")
        status = evolve(status, reserved_for=[*status.reserved_for, pod_reference(pod)])
        return reader.update_resource_claim_status(evolve(live, metadata=metadata, status=status))


class _BindError(Exception):
    """PreBind could not write a claim."""


def _wait_for_binding_conditions(claims: Sequence[ResourceClaim]) -> Status | None:
    """Upstream's PreBind waits (up to bindingTimeout) for the devices' binding conditions.
    Nothing changes a claim while PreBind runs here, so it looks once: ready, failed (the
    driver's reason), or not ready, which ends as upstream's wait does when it times out."""
    if not any(has_binding_conditions(c) for c in claims):
        return None
    try:
        ready = all(ready_for_binding(c) for c in claims)
    except BindingFailed as err:
        return Status.error(str(err))
    return None if ready else Status.error(DEVICE_BINDING_TIMEOUT)


def binding_failed(claim: ResourceClaim) -> bool:
    """Whether a binding failure condition of the allocated claim's devices is True."""
    try:
        ready_for_binding(claim)
    except BindingFailed:
        return True
    return False


def _class_status(reader: ResourceReader, class_name: str, request_name: str) -> Status | None:
    """Upstream's validateDeviceClass."""
    if not class_name:
        return Status.error(f"request {request_name}: unsupported request type")
    if reader.get_device_class(class_name) is None:
        return _unschedulable(f"request {request_name}: device class {class_name} does not exist")
    return None


__all__ = ["IMPLEMENTED_GATES", "NAME", "DeviceID", "DynamicResources"]
