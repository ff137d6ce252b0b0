"""Upstream's structured-parameters allocator (k8s.io/dynamic-resource-allocation/structured):
for one node, find devices for every request of a pod's unallocated claims, or say there
are none.

The devices are those of the ResourceSlices the node can reach, pool by pool (driver,
then pool name), newest generation only, in slice order. Each request (or, for a
`firstAvailable` request, its first subrequest that works out) takes `count` devices
(ExactCount) or every matching device (All) that is free, meets its class's and its
own CEL selectors and keeps the claim's `matchAttribute` constraints; a failed choice
is undone and the next device tried (backtracking, as upstream). Admin access may take
devices already allocated and does not use them up. Device taints, partitionable
devices' shared counters and consumable capacity (devices shared by many requests, each
taking a share of their capacity; `distinctAttribute` constraints) are honoured when their
feature gates are on.

`Allocator.allocate` returns one AllocationResult per claim, or None when the node cannot
satisfy them; it raises AllocationError when a claim or class is broken (a selector that
does not compile or fails while it runs) or when an `All` request meets a pool the node
reaches that is incomplete (not all of its newest generation's slices published) or
invalid (a device name twice), which upstream reports as an error. Given a deadline, the
search raises AllocationTimeout once it passes (upstream's filterTimeout).
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator, Mapping, Sequence
from typing import NamedTuple

from attrs import define, field, frozen

from kubesched.api import (
    ALLOCATION_MODE_ALL,
    AllocationResult,
    CapacityRequirements,
    Device,
    DeviceAllocationConfiguration,
    DeviceAllocationResult,
    DeviceClass,
    DeviceRequestAllocationResult,
    DeviceSelector,
    DeviceTaint,
    DeviceToleration,
    Node,
    NodeSelector,
    ResourceClaim,
    ResourceSlice,
    node_selector_matches,
    parse_quantity,
)
from kubesched_dynamicresources.capacity import CapacityKey, share, status_amounts
from kubesched_dynamicresources.cel import (
    CELError,
    SelectorEvaluator,
    compile_selector,
)
from kubesched_dynamicresources.constraints import Constraint, claim_constraints
from kubesched_dynamicresources.nodeselector import node_name_selector

FROM_CLASS, FROM_CLAIM = "FromClass", "FromClaim"
_TAINT_EFFECTS_THAT_BLOCK = ("NoSchedule", "NoExecute")


class AllocationError(Exception):
    """A claim or class that cannot be evaluated (upstream's allocator error)."""


class AllocationTimeout(Exception):
    """The search on one node went past its deadline (upstream's filterTimeout)."""


_SHARE_ID_NAMESPACE = uuid.UUID("8a4c3d0e-5b1f-4f57-9a43-0d6c1e2b7f10")
"""Share IDs are name-based UUIDs in this namespace (upstream's are random)."""

_DEADLINE_CHECK_EVERY = 64
"""Device tries between two looks at the clock."""


@frozen
class Features:
    """The DRA feature gates the allocator honours."""

    admin_access: bool = True
    prioritized_list: bool = True
    partitionable_devices: bool = False
    device_taints: bool = False
    consumable_capacity: bool = False
    binding_conditions: bool = False


@frozen
class DeviceID:
    """A device's identity: driver, pool, device name."""

    driver: str
    pool: str
    device: str

    def __str__(self) -> str:
        return f"{self.driver}/{self.pool}/{self.device}"


@frozen
class Candidate:
    """A device the node can reach, with where it comes from."""

    id: DeviceID
    device: Device
    slice: ResourceSlice
    node_local: bool
    node_selector: NodeSelector | None


@frozen
class _Alternative:
    """What one request (or subrequest) asks for."""

    name: str
    device_class: DeviceClass
    selectors: tuple[DeviceSelector, ...]
    all_devices: bool
    count: int
    admin_access: bool
    tolerations: tuple[DeviceToleration, ...]
    capacity: CapacityRequirements | None


class _Taken(NamedTuple):
    """A device the search took: for which claim and request, with admin access or not, and
    its share of the device's capacity when the device is shared (else None). A named
    tuple: the search makes one per device tried."""

    claim_index: int
    request: str
    candidate: Candidate
    admin: bool
    share: dict[CapacityKey, int] | None


@frozen
class Plan:
    """What `Allocator.find` chose on a node: (claim index, request name, device, admin
    access) in allocation order, and the alternative chosen for each request."""

    taken: tuple[_Taken, ...]
    chosen: dict[tuple[int, int], str]


@define
class _Search:
    """The state of one node's search: devices taken so far, constraints, counters."""

    taken: list[_Taken] = field(factory=list)
    """The devices taken, in allocation order."""
    used: set[DeviceID] = field(factory=set)
    counters_used: dict[tuple[str, str, str, str], int] = field(factory=dict)
    capacity_used: dict[DeviceID, dict[CapacityKey, int]] = field(factory=dict)
    """What this search's shares take of each shared device."""


def _class_name(claim: ResourceClaim, request_name: str) -> str:
    return f"claim {claim.metadata.namespace}/{claim.metadata.name}, request {request_name}"


class Allocator:
    """Allocates a pod's claims, node by node (one Allocator per scheduling cycle)."""

    def __init__(
        self,
        features: Features,
        claims: Sequence[ResourceClaim],
        allocated: set[DeviceID],
        classes: Mapping[str, DeviceClass],
        slices: Sequence[ResourceSlice],
        evaluator: SelectorEvaluator,
        counters_in_use: Mapping[tuple[str, str, str, str], int] | None = None,
        slice_cache: SliceCache | None = None,
        capacity_in_use: Mapping[tuple[str, str, str], Mapping[CapacityKey, int]] | None = None,
    ) -> None:
        self.features = features
        self.claims = list(claims)
        self._allocated = allocated
        self._classes = classes
        self._evaluator = evaluator
        self._pools = _newest_pools(slices)
        if features.binding_conditions:
            # Upstream tries the pools whose devices wait for binding conditions last.
            self._pools.sort(key=lambda entry: _has_binding_conditions(entry[1]))
        self._deadline: float | None = None
        self._steps = 0
        self._local: dict[str, list[tuple[int, str, str, ResourceSlice]]] = {}
        """Node name -> its node-local slices, with their place in upstream's order."""
        self._shared: list[tuple[int, str, str, ResourceSlice]] = []
        """The slices not tied to one node by name, with their place."""
        place = 0
        for (driver, pool), pool_slices in self._pools:
            for resource_slice in pool_slices:
                entry = (place, driver, pool, resource_slice)
                place += 1
                node_name = resource_slice.spec.node_name
                if node_name and not resource_slice.spec.per_device_node_selection:
                    self._local.setdefault(node_name, []).append(entry)
                else:
                    self._shared.append(entry)
        self._counters_in_use = dict(counters_in_use or {})
        if features.partitionable_devices and counters_in_use is None:
            self._counters_in_use = self._counters_of_allocated()
        self._slice_cache = slice_cache if slice_cache is not None else SliceCache()
        self._capacity_in_use = {
            DeviceID(*key): dict(amounts) for key, amounts in (capacity_in_use or {}).items()
        }
        """What other claims' shares take of each shared device (DRAConsumableCapacity)."""
        self._requests = [self._claim_requests(claim) for claim in self.claims]
        self._meets_cache: dict[tuple[int, int], bool] = {}
        wants_all = any(
            alternative.all_devices
            for requests in self._requests
            for alternatives in requests
            for alternative in alternatives
        )
        self._pool_problem = (
            {key: _pool_problem(pool_slices) for key, pool_slices in self._pools}
            if wants_all
            else {}
        )
        """(driver, pool) -> why an `All` request may not use it ("" when it may); only
        worked out when some request asks for all devices."""
        self._check_pools = any(self._pool_problem.values())
        """Whether an `All` request may meet a pool it cannot use (else no need to look)."""
        self._constraints = [
            claim_constraints(claim.spec.devices.constraints, distinct=features.consumable_capacity)
            for claim in self.claims
        ]

    # -- setup ---------------------------------------------------------------------------

    def _alternative(
        self,
        claim: ResourceClaim,
        name: str,
        class_name: str,
        selectors: Sequence[DeviceSelector],
        mode: str,
        count: int | None,
        admin_access: bool,
        tolerations: Sequence[DeviceToleration],
        capacity: CapacityRequirements | None,
    ) -> _Alternative | None:
        device_class = self._classes.get(class_name)
        if device_class is None:
            return None
        if capacity is not None and not self.features.consumable_capacity:
            raise AllocationError(
                f"claim {claim.metadata.namespace}/{claim.metadata.name}, request "
                f"{name.split('/', 1)[0]}: has capacity requests, but the "
                "DRAConsumableCapacity feature is disabled"
            )
        return _Alternative(
            name=name,
            device_class=device_class,
            selectors=tuple(selectors),
            all_devices=mode == ALLOCATION_MODE_ALL,
            count=count or 1,
            admin_access=admin_access and self.features.admin_access,
            tolerations=tuple(tolerations),
            capacity=capacity,
        )

    def _claim_requests(self, claim: ResourceClaim) -> list[list[_Alternative]]:
        requests: list[list[_Alternative]] = []
        for request in claim.spec.devices.requests:
            alternatives: list[_Alternative] = []
            if request.exactly is not None:
                exact = request.exactly
                alt = self._alternative(
                    claim,
                    request.name,
                    exact.device_class_name,
                    exact.selectors,
                    exact.allocation_mode,
                    exact.count,
                    bool(exact.admin_access),
                    exact.tolerations,
                    exact.capacity,
                )
                if alt is None:
                    raise AllocationError(
                        f"{_class_name(claim, request.name)}: could not retrieve device class "
                        f"{exact.device_class_name}"
                    )
                alternatives.append(alt)
            elif self.features.prioritized_list:
                for sub in request.first_available:
                    alt = self._alternative(
                        claim,
                        f"{request.name}/{sub.name}",
                        sub.device_class_name,
                        sub.selectors,
                        sub.allocation_mode,
                        sub.count,
                        False,
                        sub.tolerations,
                        sub.capacity,
                    )
                    if alt is None:
                        raise AllocationError(
                            f"{_class_name(claim, f'{request.name}/{sub.name}')}: could not "
                            f"retrieve device class {sub.device_class_name}"
                        )
                    alternatives.append(alt)
            requests.append(alternatives)
        return requests

    # -- per node ------------------------------------------------------------------------

    def candidates(self, node: Node) -> list[Candidate]:
        """The devices the node can reach, in upstream's order (pools by driver and name,
        slices and devices in order)."""
        return self._gather(node)[0]

    def _gather(self, node: Node) -> tuple[list[Candidate], list[tuple[str, str]]]:
        """The devices the node can reach, and the pools (in order) of the slices it
        reaches."""
        found: list[Candidate] = []
        pools: list[tuple[str, str]] = []
        entries = self._local.get(node.metadata.name, [])
        if self._shared:
            entries = sorted([*entries, *self._shared], key=lambda e: e[0])
        for _, driver, pool, resource_slice in entries:
            spec = resource_slice.spec
            if spec.per_device_node_selection:
                some = _per_device_candidates(driver, pool, resource_slice, node)
                found += some
                reaches = bool(some)
            else:
                reaches = (
                    (bool(spec.node_name) and spec.node_name == node.metadata.name)
                    or bool(spec.all_nodes)
                    or (
                        spec.node_selector is not None
                        and node_selector_matches(spec.node_selector, node)
                    )
                )
                if reaches:
                    found += self._slice_cache.candidates(driver, pool, resource_slice)
            if self._check_pools and reaches and (not pools or pools[-1] != (driver, pool)):
                pools.append((driver, pool))
        return found, pools

    def _check_pools_for_all(self, pools: Sequence[tuple[str, str]]) -> None:
        """Upstream refuses an `All` request while a pool the node reaches is incomplete or
        invalid: "all" cannot be known then."""
        problems = [(key, self._pool_problem[key]) for key in pools if self._pool_problem[key]]
        if not problems:
            return
        for claim, requests in zip(self.claims, self._requests, strict=True):
            for alternatives in requests:
                for alternative in alternatives:
                    if not alternative.all_devices:
                        continue
                    (driver, pool), problem = problems[0]
                    raise AllocationError(
                        f"claim {claim.metadata.namespace}/{claim.metadata.name}, request "
                        f"{alternative.name.rpartition('/')[2]}: asks for all devices, but "
                        f"resource pool {driver}/{pool} is currently {problem}"
                    )

    def allocate(self, node: Node, timeout: float | None = None) -> list[AllocationResult] | None:
        """One AllocationResult per claim (in order), or None when the node cannot satisfy
        them. Raises AllocationError for a broken selector or a pool an `All` request cannot
        use, AllocationTimeout when the search takes more than `timeout` seconds."""
        found = self.find(node, timeout)
        return None if found is None else self.results(node, found)

    def find(self, node: Node, timeout: float | None = None) -> Plan | None:
        """The devices for every claim on the node (`results` turns them into allocation
        results), or None when the node cannot satisfy the claims. With a `timeout` (seconds,
        None or 0 for none) the search stops with AllocationTimeout once it is spent."""
        self._deadline = time.monotonic() + timeout if timeout else None
        self._steps = 0
        candidates, pools = self._gather(node)
        if self._check_pools:
            self._check_pools_for_all(pools)
        plan = [(c, r) for c in range(len(self.claims)) for r in range(len(self._requests[c]))]
        search = _Search()
        for constraints in self._constraints:
            for constraint in constraints:
                constraint.reset()
        chosen: dict[tuple[int, int], str] = {}
        if not self._request(plan, 0, candidates, search, chosen):
            return None
        return Plan(tuple(search.taken), dict(chosen))

    def _request(
        self,
        plan: list[tuple[int, int]],
        step: int,
        candidates: list[Candidate],
        search: _Search,
        chosen: dict[tuple[int, int], str],
    ) -> bool:
        if step == len(plan):
            return True
        claim_index, request_index = plan[step]
        for alternative in self._requests[claim_index][request_index]:
            if alternative.all_devices:
                matching = [
                    c for c in candidates if self._device_fits(claim_index, alternative, c, search)
                ]
                every = [
                    c
                    for c in candidates
                    if self._meets(claim_index, alternative, c) and self._has_room(alternative, c)
                ]
                if not every or len(every) != len(matching):
                    continue  # All needs at least one device, and every one of them free
                need = len(every)
            else:
                need = alternative.count
            chosen[(claim_index, request_index)] = alternative.name
            if self._devices(
                plan, step, claim_index, alternative, need, 0, candidates, search, chosen
            ):
                return True
            del chosen[(claim_index, request_index)]
        return False

    def _devices(
        self,
        plan: list[tuple[int, int]],
        step: int,
        claim_index: int,
        alternative: _Alternative,
        need: int,
        start: int,
        candidates: list[Candidate],
        search: _Search,
        chosen: dict[tuple[int, int], str],
    ) -> bool:
        if need == 0:
            return self._request(plan, step + 1, candidates, search, chosen)
        for position in range(start, len(candidates)):
            if self._deadline is not None:
                self._tick()
            candidate = candidates[position]
            if not self._device_fits(claim_index, alternative, candidate, search):
                continue
            taken = self._take(claim_index, alternative, candidate, search)
            if taken is None:
                continue
            # A shared device may give another share to the same request (not for All).
            again = taken.share is not None and not alternative.all_devices
            if self._devices(
                plan,
                step,
                claim_index,
                alternative,
                need - 1,
                position if again else position + 1,
                candidates,
                search,
                chosen,
            ):
                return True
            self._give_back(taken, search)
        return False

    def _tick(self) -> None:
        """Count a device try; every so often, stop if the deadline has passed."""
        self._steps += 1
        deadline = self._deadline
        if self._steps % _DEADLINE_CHECK_EVERY == 0 and deadline and time.monotonic() > deadline:
            raise AllocationTimeout("timed out trying to allocate devices")

    def _meets(self, claim_index: int, alternative: _Alternative, candidate: Candidate) -> bool:
        """Whether the device is of the request's kind: class and request selectors, taints
        (remembered for this allocator's life)."""
        key = (id(alternative), id(candidate.device))
        known = self._meets_cache.get(key)
        if known is None:
            known = self._meets_cache[key] = self._check(claim_index, alternative, candidate)
        return known

    def _check(self, claim_index: int, alternative: _Alternative, candidate: Candidate) -> bool:
        claim = self.claims[claim_index]
        owners = (
            (
                f"class {alternative.device_class.metadata.name}",
                alternative.device_class.spec.selectors,
            ),
            (f"claim {claim.metadata.namespace}/{claim.metadata.name}", alternative.selectors),
        )
        for owner, selectors in owners:
            for i, selector in enumerate(selectors):
                if not self._selector_matches(owner, i, selector, candidate):
                    return False
        if candidate.device.binding_conditions and not self.features.binding_conditions:
            return False  # such devices are never allocated with the gate off
        return not (
            self.features.device_taints
            and not all(
                _tolerated(taint, alternative.tolerations) for taint in candidate.device.taints
            )
        )

    def _selector_matches(
        self, owner: str, index: int, selector: DeviceSelector, candidate: Candidate
    ) -> bool:
        compiled = compile_selector(selector.cel.expression if selector.cel is not None else "")
        try:
            return self._evaluator.matches(compiled, candidate.id.driver, candidate.device)
        except CELError as err:
            kind = "compile" if compiled.error else "runtime"
            raise AllocationError(f"{owner}: selector #{index}: CEL {kind} error: {err}") from None

    def _device_fits(
        self, claim_index: int, alternative: _Alternative, candidate: Candidate, search: _Search
    ) -> bool:
        if not alternative.admin_access and (
            candidate.id in self._allocated or candidate.id in search.used
        ):
            return False
        return self._meets(claim_index, alternative, candidate)

    def _is_shared(self, candidate: Candidate) -> bool:
        """Whether the device gives shares of itself (DRAConsumableCapacity)."""
        return self.features.consumable_capacity and bool(
            candidate.device.allow_multiple_allocations
        )

    def _has_room(self, alternative: _Alternative, candidate: Candidate) -> bool:
        """Whether the device could give the request its capacity, ignoring what is in use."""
        if not self.features.consumable_capacity:
            return True
        return share(candidate.id.driver, candidate.device, alternative.capacity, {}) is not None

    def _share(
        self, alternative: _Alternative, candidate: Candidate, search: _Search
    ) -> dict[CapacityKey, int] | None:
        """The request's share of the device's capacities beside what other claims and this
        search take of it; None when it does not fit. Without the gate, an empty share."""
        if not self.features.consumable_capacity:
            return {}
        in_use = dict(self._capacity_in_use.get(candidate.id, {}))
        for key, amount in search.capacity_used.get(candidate.id, {}).items():
            in_use[key] = in_use.get(key, 0) + amount
        return share(candidate.id.driver, candidate.device, alternative.capacity, in_use)

    def _take(
        self, claim_index: int, alternative: _Alternative, candidate: Candidate, search: _Search
    ) -> _Taken | None:
        """Take the device if the claim's constraints, the shared counters and the device's
        capacity allow it (the record to give it back with), else None."""
        driver, device = candidate.id.driver, candidate.device
        constraints = self._constraints[claim_index]
        added: list[Constraint] = []
        for constraint in constraints:
            if not constraint.add(alternative.name, driver, device):
                break
            added.append(constraint)
        amounts: dict[CapacityKey, int] | None = {}
        if len(added) != len(constraints):
            amounts = None
        elif self.features.consumable_capacity:
            amounts = self._share(alternative, candidate, search)
        if amounts is None or (
            self.features.partitionable_devices and not self._counters_fit(candidate, search)
        ):
            for constraint in added:
                constraint.remove(alternative.name)
            return None
        shared = self._is_shared(candidate)
        taken = _Taken(
            claim_index,
            alternative.name,
            candidate,
            alternative.admin_access,
            amounts if shared else None,
        )
        search.taken.append(taken)
        if shared:
            used = search.capacity_used.setdefault(candidate.id, {})
            for key, amount in amounts.items():
                used[key] = used.get(key, 0) + amount
        elif not alternative.admin_access:
            search.used.add(candidate.id)
        return taken

    def _give_back(self, taken: _Taken, search: _Search) -> None:
        search.taken.pop()
        candidate = taken.candidate
        if taken.share is not None:
            used = search.capacity_used[candidate.id]
            for capacity, amount in taken.share.items():
                used[capacity] -= amount
        elif not taken.admin:
            search.used.discard(candidate.id)
        for constraint in self._constraints[taken.claim_index]:
            constraint.remove(taken.request)
        if self.features.partitionable_devices:
            for key, amount in _consumption(candidate):
                search.counters_used[key] -= amount

    def _counters_of_allocated(self) -> dict[tuple[str, str, str, str], int]:
        """What the devices already allocated consume of their pools' shared counters."""
        used: dict[tuple[str, str, str, str], int] = {}
        for (driver, pool), pool_slices in self._pools:
            for resource_slice in pool_slices:
                for device in resource_slice.spec.devices:
                    if DeviceID(driver, pool, device.name) not in self._allocated:
                        continue
                    candidate = Candidate(
                        DeviceID(driver, pool, device.name), device, resource_slice, False, None
                    )
                    for key, amount in _consumption(candidate):
                        used[key] = used.get(key, 0) + amount
        return used

    def _counters_fit(self, candidate: Candidate, search: _Search) -> bool:
        consumption = list(_consumption(candidate))
        if not consumption:
            return True
        totals = self._pool_counters(candidate.id.driver, candidate.id.pool)
        for key, amount in consumption:
            have = totals.get(key)
            used = self._counters_in_use.get(key, 0) + search.counters_used.get(key, 0)
            if have is None or used + amount > have:
                return False
        for key, amount in consumption:
            search.counters_used[key] = search.counters_used.get(key, 0) + amount
        return True

    def _pool_counters(self, driver: str, pool: str) -> dict[tuple[str, str, str, str], int]:
        totals: dict[tuple[str, str, str, str], int] = {}
        for (d, p), slices in self._pools:
            if (d, p) != (driver, pool):
                continue
            for resource_slice in slices:
                for counter_set in resource_slice.spec.shared_counters:
                    for name, amount in counter_set.counters.items():
                        key = (driver, pool, counter_set.name, name)
                        totals[key] = parse_quantity(amount.value, milli=True)
        return totals

    def results(self, node: Node, plan: Plan) -> list[AllocationResult]:
        """The allocation result of each claim for the devices `find` chose on the node."""
        chosen = plan.chosen
        results: list[AllocationResult] = []
        for claim_index, claim in enumerate(self.claims):
            taken = [t for t in plan.taken if t.claim_index == claim_index]
            bindings = self.features.binding_conditions
            devices = [_result(claim, ordinal, t, bindings) for ordinal, t in enumerate(taken)]
            config: list[DeviceAllocationConfiguration] = []
            for request_index, alternatives in enumerate(self._requests[claim_index]):
                name = chosen.get((claim_index, request_index))
                used = next((a for a in alternatives if a.name == name), None)
                if used is None:
                    continue
                config += [
                    DeviceAllocationConfiguration(
                        source=FROM_CLASS, requests=[used.name], opaque=c.opaque
                    )
                    for c in used.device_class.spec.config
                ]
            config += [
                DeviceAllocationConfiguration(
                    source=FROM_CLAIM, requests=list(c.requests), opaque=c.opaque
                )
                for c in claim.spec.devices.config
            ]
            results.append(
                AllocationResult(
                    devices=DeviceAllocationResult(results=devices, config=config),
                    node_selector=_node_selector(
                        node, [t.candidate for t in taken], binds_to_node=bindings
                    ),
                )
            )
        return results


class SliceCache:
    """Each slice's devices as candidates, built once per slice object (slices are
    immutable: a changed slice is a new object) and shared by the scheduling cycles."""

    def __init__(self, limit: int = 100_000) -> None:
        self._entries: dict[int, tuple[ResourceSlice, list[Candidate]]] = {}
        self._limit = limit

    def candidates(self, driver: str, pool: str, resource_slice: ResourceSlice) -> list[Candidate]:
        entry = self._entries.get(id(resource_slice))
        if entry is None or entry[0] is not resource_slice:
            if len(self._entries) >= self._limit:
                self._entries.clear()
            local = bool(resource_slice.spec.node_name)
            selector = None if local else resource_slice.spec.node_selector
            made = [
                Candidate(DeviceID(driver, pool, d.name), d, resource_slice, local, selector)
                for d in resource_slice.spec.devices
            ]
            entry = self._entries[id(resource_slice)] = (resource_slice, made)
        return entry[1]


def _per_device_candidates(
    driver: str, pool: str, resource_slice: ResourceSlice, node: Node
) -> list[Candidate]:
    """The devices of a slice that says per device which nodes reach it."""
    found = []
    for device in resource_slice.spec.devices:
        local = bool(device.node_name) and device.node_name == node.metadata.name
        selector = device.node_selector
        if (
            local
            or device.all_nodes
            or (selector is not None and node_selector_matches(selector, node))
        ):
            found.append(
                Candidate(
                    DeviceID(driver, pool, device.name),
                    device,
                    resource_slice,
                    local,
                    None if local else selector,
                )
            )
    return found


def _node_selector(
    node: Node, candidates: Sequence[Candidate], *, binds_to_node: bool = False
) -> NodeSelector | None:
    """Where the allocation can be used: the node itself when a device is local to it (or,
    with `binds_to_node`, says `bindsToNode`), else the first device's node selector, else
    anywhere (None)."""
    if any(c.node_local or (binds_to_node and c.device.binds_to_node) for c in candidates):
        return node_name_selector(node.metadata.name)
    for candidate in candidates:
        if candidate.node_selector is not None:
            return candidate.node_selector
    return None


def _result(
    claim: ResourceClaim, ordinal: int, taken: _Taken, bindings: bool
) -> DeviceRequestAllocationResult:
    """One device of a claim's allocation; a share of a shared device has a share ID (the
    same for the same claim, request, device and place, so runs repeat) and what it takes
    of the device's capacities; with `bindings` (DRADeviceBindingConditions), the device's
    binding conditions."""
    candidate = taken.candidate
    share_id: str | None = None
    consumed: dict[str, str] = {}
    if taken.share is not None:
        seed = f"{claim.metadata.uid}/{taken.request}/{candidate.id}/{ordinal}"
        share_id = str(uuid.uuid5(_SHARE_ID_NAMESPACE, seed))
        consumed = status_amounts(candidate.id.driver, candidate.device, taken.share)
    return DeviceRequestAllocationResult(
        request=taken.request,
        driver=candidate.id.driver,
        pool=candidate.id.pool,
        device=candidate.id.device,
        admin_access=True if taken.admin else None,
        consumed_capacity=consumed,
        share_id=share_id,
        binding_conditions=list(candidate.device.binding_conditions) if bindings else [],
        binding_failure_conditions=(
            list(candidate.device.binding_failure_conditions) if bindings else []
        ),
    )


def _tolerated(taint: DeviceTaint, tolerations: Sequence[DeviceToleration]) -> bool:
    if taint.effect not in _TAINT_EFFECTS_THAT_BLOCK:
        return True
    for toleration in tolerations:
        if toleration.effect and toleration.effect != taint.effect:
            continue
        if toleration.operator == "Exists":
            if not toleration.key or toleration.key == taint.key:
                return True
        elif toleration.key == taint.key and toleration.value == taint.value:
            return True
    return False


def _consumption(candidate: Candidate) -> Iterator[tuple[tuple[str, str, str, str], int]]:
    for consumed in candidate.device.consumes_counters:
        for name, amount in consumed.counters.items():
            key = (candidate.id.driver, candidate.id.pool, consumed.counter_set, name)
            yield key, parse_quantity(amount.value, milli=True)


def _newest_pools(
    slices: Sequence[ResourceSlice],
) -> list[tuple[tuple[str, str], list[ResourceSlice]]]:
    """The slices of each pool's newest generation, pools sorted by (driver, pool name)."""
    pools: dict[tuple[str, str], list[ResourceSlice]] = {}
    for resource_slice in slices:
        key = (resource_slice.spec.driver, resource_slice.spec.pool.name)
        pools.setdefault(key, []).append(resource_slice)
    newest: list[tuple[tuple[str, str], list[ResourceSlice]]] = []
    for key in sorted(pools):
        generation = max(s.spec.pool.generation for s in pools[key])
        newest.append((key, [s for s in pools[key] if s.spec.pool.generation == generation]))
    return newest


def _has_binding_conditions(pool_slices: Sequence[ResourceSlice]) -> bool:
    return any(d.binding_conditions for s in pool_slices for d in s.spec.devices)


def _pool_problem(pool_slices: Sequence[ResourceSlice]) -> str:
    """Why a pool's newest generation cannot tell "all" its devices: "being updated" when
    not all of its `resourceSliceCount` slices are there, "invalid" when a device name
    appears twice; "" when neither."""
    if len(pool_slices) != pool_slices[0].spec.pool.resource_slice_count:
        return "being updated"
    names: set[str] = set()
    for resource_slice in pool_slices:
        for device in resource_slice.spec.devices:
            if device.name in names:
                return "invalid"
            names.add(device.name)
    return ""


def allocated_devices(
    claims: Sequence[ResourceClaim], *, consumable_capacity: bool = False
) -> set[DeviceID]:
    """The devices the claims' allocations use (admin-access results do not use them up;
    with DRAConsumableCapacity, neither do shares of a shared device, with a `shareID`)."""
    used: set[DeviceID] = set()
    for claim in claims:
        allocation = claim.status.allocation
        if allocation is None:
            continue
        for result in allocation.devices.results:
            if result.admin_access or (consumable_capacity and result.share_id is not None):
                continue
            used.add(DeviceID(result.driver, result.pool, result.device))
    return used
