"""Consumable capacity (DRAConsumableCapacity): shared devices, capacity requests and their
rounding by the device's request policy, capacity taken across claims, share IDs and
`distinctAttribute`, after upstream's allocator tests."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from attrs import evolve
from dra_testlib import CLASS, DRIVER, claim, device, device_class, exact, node, node_slice
from hypothesis import given, settings
from hypothesis import strategies as st

from kubesched.api import (
    AllocationResult,
    CapacityRequestPolicy,
    CapacityRequestPolicyRange,
    CapacityRequirements,
    Device,
    DeviceCapacity,
    DeviceConstraint,
    ResourceClaim,
    ResourceClaimStatus,
    ResourceSlice,
)
from kubesched_dynamicresources.allocator import (
    AllocationError,
    Allocator,
    Features,
    allocated_devices,
)
from kubesched_dynamicresources.capacity import capacity_in_use, consumed, violates
from kubesched_dynamicresources.cel import SelectorEvaluator

N1 = node("node-1")
EVALUATOR = SelectorEvaluator()
ON = Features(consumable_capacity=True)


def shared(
    name: str, bandwidth: str = "10Gi", policy: CapacityRequestPolicy | None = None
) -> Device:
    return evolve(
        device(name, {"nic": name}),
        capacity={"bandwidth": DeviceCapacity(bandwidth, policy)},
        allow_multiple_allocations=True,
    )


def wanting(name: str, amount: str | None = None, *, count: int | None = None) -> ResourceClaim:
    request = exact(count=count)
    if amount is not None:
        assert request.exactly is not None
        needs = CapacityRequirements({"bandwidth": amount})
        request = evolve(request, exactly=evolve(request.exactly, capacity=needs))
    return claim(name, request)


def allocate(
    claims: Sequence[ResourceClaim],
    slices: Sequence[ResourceSlice],
    *,
    before: Sequence[ResourceClaim] = (),
    features: Features = ON,
) -> list[AllocationResult] | None:
    allocator = Allocator(
        features,
        claims,
        allocated_devices(before, consumable_capacity=features.consumable_capacity),
        {CLASS: device_class()},
        slices,
        EVALUATOR,
        capacity_in_use=capacity_in_use(before),
    )
    return allocator.allocate(N1)


def with_allocation(c: ResourceClaim, result: AllocationResult) -> ResourceClaim:
    return evolve(c, status=ResourceClaimStatus(allocation=result))


def test_two_claims_share_a_device_each_with_its_capacity() -> None:
    nic = node_slice("node-1", shared("nic-0"))
    results = allocate([wanting("a", "4Gi"), wanting("b", "6Gi")], [nic])
    assert results is not None
    first, second = (r.devices.results[0] for r in results)
    assert (first.device, second.device) == ("nic-0", "nic-0")
    assert (first.consumed_capacity, second.consumed_capacity) == (
        {"bandwidth": "4Gi"},
        {"bandwidth": "6Gi"},
    )
    assert first.share_id and second.share_id and first.share_id != second.share_id


def test_shares_past_the_capacity_go_to_the_next_device() -> None:
    nics = node_slice("node-1", shared("nic-0"), shared("nic-1"))
    results = allocate([wanting("a", "6Gi"), wanting("b", "6Gi")], [nics])
    assert results is not None
    assert [r.devices.results[0].device for r in results] == ["nic-0", "nic-1"]


def test_capacity_taken_by_earlier_claims_counts() -> None:
    nic = node_slice("node-1", shared("nic-0"))
    earlier = allocate([wanting("a", "8Gi")], [nic])
    assert earlier is not None
    before = [with_allocation(wanting("a", "8Gi"), earlier[0])]
    assert allocate([wanting("b", "4Gi")], [nic], before=before) is None
    later = allocate([wanting("b", "2Gi")], [nic], before=before)
    assert later is not None
    assert later[0].devices.results[0].consumed_capacity == {"bandwidth": "2Gi"}


def test_no_capacity_request_takes_the_whole_capacity() -> None:
    nic = node_slice("node-1", shared("nic-0"))
    results = allocate([wanting("a")], [nic])
    assert results is not None
    assert results[0].devices.results[0].consumed_capacity == {"bandwidth": "10Gi"}
    assert allocate([wanting("a"), wanting("b", "1Gi")], [nic]) is None


def test_policy_default_is_taken_when_nothing_is_requested() -> None:
    policy = CapacityRequestPolicy(default="1Gi")
    nic = node_slice("node-1", shared("nic-0", policy=policy))
    results = allocate([wanting("a"), wanting("b")], [nic])
    assert results is not None
    assert [r.devices.results[0].consumed_capacity for r in results] == [
        {"bandwidth": "1Gi"},
        {"bandwidth": "1Gi"},
    ]


def test_valid_range_rounds_up_in_steps_from_min() -> None:
    policy = CapacityRequestPolicy(
        default="1Gi", valid_range=CapacityRequestPolicyRange(min="1Gi", step="2Gi")
    )
    nic = node_slice("node-1", shared("nic-0", policy=policy))
    results = allocate([wanting("a", "2Gi"), wanting("b", "100Mi")], [nic])
    assert results is not None
    assert [r.devices.results[0].consumed_capacity for r in results] == [
        {"bandwidth": "3Gi"},
        {"bandwidth": "1Gi"},
    ]


def test_valid_range_max_refuses_a_bigger_request() -> None:
    policy = CapacityRequestPolicy(valid_range=CapacityRequestPolicyRange(min="1Gi", max="4Gi"))
    nic = node_slice("node-1", shared("nic-0", policy=policy))
    assert allocate([wanting("a", "5Gi")], [nic]) is None
    assert allocate([wanting("a", "4Gi")], [nic]) is not None


def test_valid_values_round_up_to_the_next_value() -> None:
    policy = CapacityRequestPolicy(valid_values=["1Gi", "4Gi", "8Gi"])
    nic = node_slice("node-1", shared("nic-0", policy=policy))
    results = allocate([wanting("a", "3Gi")], [nic])
    assert results is not None
    assert results[0].devices.results[0].consumed_capacity == {"bandwidth": "4Gi"}
    assert allocate([wanting("a", "9Gi")], [nic]) is None


def test_a_device_without_the_requested_capacity_does_not_fit() -> None:
    plain = evolve(shared("nic-0"), capacity={})
    assert allocate([wanting("a", "1Gi")], [node_slice("node-1", plain)]) is None


def test_a_device_not_shared_is_used_once_but_checks_the_request() -> None:
    whole = evolve(shared("nic-0"), allow_multiple_allocations=None)
    nic = node_slice("node-1", whole)
    results = allocate([wanting("a", "4Gi")], [nic])
    assert results is not None
    only = results[0].devices.results[0]
    assert (only.share_id, only.consumed_capacity) == (None, {})
    assert allocate([wanting("a", "4Gi"), wanting("b", "4Gi")], [nic]) is None
    assert allocate([wanting("a", "11Gi")], [nic]) is None


def test_one_request_may_take_two_shares_of_one_device() -> None:
    nic = node_slice("node-1", shared("nic-0"))
    results = allocate([wanting("a", "4Gi", count=2)], [nic])
    assert results is not None
    assert [r.device for r in results[0].devices.results] == ["nic-0", "nic-0"]


def test_distinct_attribute_spreads_the_shares() -> None:
    nics = node_slice("node-1", shared("nic-0"), shared("nic-1"))
    base = wanting("a", "1Gi", count=2)
    spread = evolve(
        base,
        spec=evolve(
            base.spec,
            devices=evolve(
                base.spec.devices,
                constraints=[DeviceConstraint(distinct_attribute=f"{DRIVER}/nic")],
            ),
        ),
    )
    results = allocate([spread], [nics])
    assert results is not None
    assert [r.device for r in results[0].devices.results] == ["nic-0", "nic-1"]


def test_gate_off_a_capacity_request_is_an_error_and_devices_are_not_shared() -> None:
    nic = node_slice("node-1", shared("nic-0"))
    with pytest.raises(AllocationError) as caught:
        allocate([wanting("a", "1Gi")], [nic], features=Features())
    assert str(caught.value) == (
        "claim default/a, request req-0: has capacity requests, but the DRAConsumableCapacity "
        "feature is disabled"
    )
    assert allocate([wanting("a"), wanting("b")], [nic], features=Features()) is None


def test_share_ids_repeat_from_run_to_run() -> None:
    nic = node_slice("node-1", shared("nic-0"))
    first = allocate([wanting("a", "1Gi")], [nic])
    again = allocate([wanting("a", "1Gi")], [nic])
    assert first is not None and again is not None
    assert first[0].devices.results[0].share_id == again[0].devices.results[0].share_id


@settings(max_examples=60, deadline=None)
@given(
    low=st.integers(1, 8),
    step=st.integers(1, 8),
    amount=st.integers(0, 100),
)
def test_a_rounded_request_keeps_its_policy_and_is_not_smaller(
    low: int, step: int, amount: int
) -> None:
    policy = CapacityRequestPolicy(
        valid_range=CapacityRequestPolicyRange(min=str(low), step=str(step))
    )
    taken = consumed(amount * 1000, DeviceCapacity("1000", policy))
    assert taken >= amount * 1000
    assert not violates(taken, policy)
    assert taken - step * 1000 < max(amount * 1000, low * 1000)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(1, 6), min_size=1, max_size=6))
def test_shares_of_one_device_never_exceed_its_capacity(amounts: list[int]) -> None:
    nic = node_slice("node-1", shared("nic-0", bandwidth="10"))
    claims = [wanting(f"c{i}", str(a)) for i, a in enumerate(amounts)]
    results = allocate(claims, [nic])
    fits = sum(amounts) <= 10  # integers: exact
    assert (results is not None) == fits
    if results is not None:
        total = 0
        for r in results:
            total += int(r.devices.results[0].consumed_capacity["bandwidth"])
        assert total == sum(amounts)


def test_through_the_scheduler_pods_share_a_device_until_its_capacity_is_spent() -> None:
    from dra_testlib import pod_with_claims

    from kubesched.testing import simulate

    nic = node_slice("node-1", shared("nic-0"))
    claims = [wanting(f"c{i}", "4Gi") for i in range(3)]
    pods = [pod_with_claims(f"p{i}", f"c{i}") for i in range(3)]
    resources = [device_class(), nic, *claims]
    run = simulate([N1], pods, resources=resources, feature_gates="DRAConsumableCapacity=true")
    assert run.placements == {"default/p0": "node-1", "default/p1": "node-1", "default/p2": None}
    written = run.cluster.get_resource_claim("default", "c1")
    assert written is not None and written.status.allocation is not None
    result = written.status.allocation.devices.results[0]
    assert (result.device, result.consumed_capacity) == ("nic-0", {"bandwidth": "4Gi"})
    assert result.share_id is not None
    assert "cannot allocate all claims" in run.outcome("default/p2").message
    off = simulate([N1], pods, resources=resources)
    assert "has capacity requests, but the DRAConsumableCapacity feature is disabled" in (
        off.outcome("default/p0").message
    )
