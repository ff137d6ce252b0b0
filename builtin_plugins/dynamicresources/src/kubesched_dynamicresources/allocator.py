"""Upstream's structured-parameters allocator (k8s.io/dynamic-resource-allocation/structured):
for one node, find devices for every request of a pod's unallocated claims, or say there
are none.

The devices are those of the ResourceSlices the node can reach, pool by pool (driver,
then pool name), newest generation only, in slice order. Each request (or, for a
`firstAvailable` request, its first subrequest that works out) takes `count` devices
(ExactCount) or every matching device (All) that is free, meets its class's and its
own CEL selectors and keeps the claim's `matchAttribute` constraints; a failed choice
is undone and the next device tried (backtracking, as upstream). Admin access may take
devices already allocated and does not use them up. Device taints and partitionable
devices' shared counters are honoured when their feature gates are on.

`Allocator.allocate` returns one AllocationResult per claim, or None when the node cannot
satisfy them; it raises AllocationError when a claim or class is broken (a selector that
does not compile or fails while it runs) or when an `All` request meets a pool the node
reaches that is incomplete (not all of its newest generation's slices published) or
invalid (a device name twice), which upstream reports as an error. Given a deadline, the
search raises AllocationTimeout once it passes (upstream's filterTimeout).
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping, Sequence

from attrs import define, field, frozen

from kubesched.api import (
    ALLOCATION_MODE_ALL,
    AllocationResult,
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
    parse_quantity,
)
from kubesched_dynamicresources.cel import (
    CELError,
    SelectorEvaluator,
    compile_selector,
    qualified,
)
from kubesched_dynamicresources.nodeselector import node_matches, node_name_selector

FROM_CLASS, FROM_CLAIM = "FromClass", "FromClaim"
_TAINT_EFFECTS_THAT_BLOCK = ("NoSchedule", "NoExecute")


class AllocationError(Exception):
    """A claim or class that cannot be evaluated (upstream's allocator error)."""


class AllocationTimeout(Exception):
    """The search on one node went past its deadline (upstream's filterTimeout)."""


_DEADLINE_CHECK_EVERY = 64
"""Device tries between two looks at the clock."""


@frozen
class Features:
    """The DRA feature gates the allocator honours."""

    admin_access: bool = True
    prioritized_list: bool = True
    partitionable_devices: bool = False
    device_taints: bool = False


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


@define
class _Constraint:
    """A matchAttribute constraint of a claim, with the value fixed by its first device."""

    requests: frozenset[str]
    domain: str
    ident: str
    value: object = None
    fixed_by: int = 0

    def applies(self, request: str) -> bool:
        if not self.requests:
            return True
        return request in self.requests or request.split("/", 1)[0] in self.requests


@frozen
class Plan:
    """What `Allocator.find` chose on a node: (claim index, request name, device, admin
    access) in allocation order, and the alternative chosen for each request."""

    taken: tuple[tuple[int, str, Candidate, bool], ...]
    chosen: dict[tuple[int, int], str]


@define
class _Search:
    """The state of one node's search: devices taken so far, constraints, counters."""

    taken: list[tuple[int, str, Candidate, bool]] = field(factory=list)
    """(claim index, request name, device, admin access) in allocation order."""
    used: set[DeviceID] = field(factory=set)
    counters_used: dict[tuple[str, str, str, str], int] = field(factory=dict)


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
    ) -> None:
        self.features = features
        self.claims = list(claims)
        self._allocated = allocated
        self._classes = classes
        self._evaluator = evaluator
        self._pools = _newest_pools(slices)
        self._pool_problem = {key: _pool_problem(pool_slices) for key, pool_slices in self._pools}
        """(driver, pool) -> why an `All` request may not use it ("" when it may)."""
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
        self._requests = [self._claim_requests(claim) for claim in self.claims]
        self._meets_cache: dict[tuple[int, int], bool] = {}
        self._constraints = [self._claim_constraints(claim) for claim in self.claims]

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
    ) -> _Alternative | None:
        device_class = self._classes.get(class_name)
        if device_class is None:
            return None
        return _Alternative(
            name=name,
            device_class=device_class,
            selectors=tuple(selectors),
            all_devices=mode == ALLOCATION_MODE_ALL,
            count=count or 1,
            admin_access=admin_access and self.features.admin_access,
            tolerations=tuple(tolerations),
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
                    )
                    if alt is None:
                        raise AllocationError(
                            f"{_class_name(claim, f'{request.name}/{sub.name}')}: could not "
                            f"retrieve device class {sub.device_class_name}"
                        )
                    alternatives.append(alt)
            requests.append(alternatives)
        return requests

    @staticmethod
    def _claim_constraints(claim: ResourceClaim) -> list[_Constraint]:
        constraints = []
        for constraint in claim.spec.devices.constraints:
            if constraint.match_attribute is None:
                continue
            domain, _, ident = constraint.match_attribute.rpartition("/")
            constraints.append(_Constraint(frozenset(constraint.requests), domain, ident))
        return constraints

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
                    or (spec.node_selector is not None and node_matches(spec.node_selector, node))
                )
                if reaches:
                    found += self._slice_cache.candidates(driver, pool, resource_slice)
            if reaches and (not pools or pools[-1] != (driver, pool)):
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
        self._check_pools_for_all(pools)
        plan = [(c, r) for c in range(len(self.claims)) for r in range(len(self._requests[c]))]
        search = _Search()
        for constraints in self._constraints:
            for constraint in constraints:
                constraint.value, constraint.fixed_by = None, 0
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
                every = [c for c in candidates if self._meets(claim_index, alternative, c)]
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
            undo = self._take(claim_index, alternative, candidate, search)
            if undo is None:
                continue
            if self._devices(
                plan,
                step,
                claim_index,
                alternative,
                need - 1,
                position + 1,
                candidates,
                search,
                chosen,
            ):
                return True
            self._give_back(candidate, alternative, search, undo)
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

    def _take(
        self, claim_index: int, alternative: _Alternative, candidate: Candidate, search: _Search
    ) -> list[_Constraint] | None:
        """Add the device if the claim's constraints and the shared counters allow it; the
        constraints it fixed (to undo), or None."""
        fixed: list[_Constraint] = []
        for constraint in self._constraints[claim_index]:
            if not constraint.applies(alternative.name):
                continue
            value = _attribute(candidate, constraint.domain, constraint.ident)
            if value is None or (constraint.value is not None and constraint.value != value):
                for undo in fixed:
                    undo.value = None
                return None
            if constraint.value is None:
                constraint.value = value
                fixed.append(constraint)
        if self.features.partitionable_devices and not self._counters_fit(candidate, search):
            for undo in fixed:
                undo.value = None
            return None
        search.taken.append((claim_index, alternative.name, candidate, alternative.admin_access))
        if not alternative.admin_access:
            search.used.add(candidate.id)
        return fixed

    def _give_back(
        self,
        candidate: Candidate,
        alternative: _Alternative,
        search: _Search,
        fixed: list[_Constraint],
    ) -> None:
        search.taken.pop()
        if not alternative.admin_access:
            search.used.discard(candidate.id)
        for constraint in fixed:
            constraint.value = None
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
            taken = [t for t in plan.taken if t[0] == claim_index]
            devices = [
                DeviceRequestAllocationResult(
                    request=request,
                    driver=candidate.id.driver,
                    pool=candidate.id.pool,
                    device=candidate.id.device,
                    admin_access=True if admin else None,
                )
                for _, request, candidate, admin in taken
            ]
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
                    node_selector=_node_selector(node, [t[2] for t in taken]),
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
        if local or device.all_nodes or (selector is not None and node_matches(selector, node)):
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


def _node_selector(node: Node, candidates: Sequence[Candidate]) -> NodeSelector | None:
    """Where the allocation can be used: the node itself when a device is local to it, else
    the first device's node selector, else anywhere (None)."""
    if any(c.node_local for c in candidates):
        return node_name_selector(node.metadata.name)
    for candidate in candidates:
        if candidate.node_selector is not None:
            return candidate.node_selector
    return None


def _attribute(candidate: Candidate, domain: str, ident: str) -> object:
    driver = candidate.id.driver
    for name, attribute in candidate.device.attributes.items():
        if qualified(driver, name) == (domain, ident):
            value = attribute.value
            return ("version", value) if attribute.version is not None else value
    return None


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


def allocated_devices(claims: Sequence[ResourceClaim]) -> set[DeviceID]:
    """The devices the claims' allocations use (admin-access results do not use them up)."""
    used: set[DeviceID] = set()
    for claim in claims:
        allocation = claim.status.allocation
        if allocation is None:
            continue
        for result in allocation.devices.results:
            if not result.admin_access:
                used.add(DeviceID(result.driver, result.pool, result.device))
    return used
