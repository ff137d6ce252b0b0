"""`All` requests on pools that are being updated or invalid, and the per-node search
deadline (filterTimeout), from upstream's allocator and plugin test tables."""

from __future__ import annotations

from datetime import timedelta

import pytest
from attrs import evolve
from dra_testlib import (
    CLASS,
    DRIVER,
    claim,
    device,
    device_class,
    exact,
    node,
    node_slice,
    pod_with_claims,
)

from kubesched.api import DeviceConstraint, ResourceClaim, ResourceSlice
from kubesched.testing import simulate
from kubesched_dynamicresources.allocator import (
    AllocationError,
    AllocationTimeout,
    Allocator,
    Features,
)
from kubesched_dynamicresources.cel import SelectorEvaluator

N1 = node("node-1")
EVALUATOR = SelectorEvaluator()


def allocator(claims: list[ResourceClaim], slices: list[ResourceSlice]) -> Allocator:
    return Allocator(Features(), claims, set(), {CLASS: device_class()}, slices, EVALUATOR)


def of_pool(
    resource_slice: ResourceSlice, *, count: int, generation: int = 1, name: str = ""
) -> ResourceSlice:
    """The slice as one of `count` slices of its pool's generation."""
    spec = resource_slice.spec
    pool = evolve(spec.pool, resource_slice_count=count, generation=generation)
    meta = resource_slice.metadata
    return evolve(
        resource_slice,
        metadata=evolve(meta, name=name or meta.name),
        spec=evolve(spec, pool=pool),
    )


ALL = claim("my-claim", exact(mode="All"))
INCOMPLETE = "claim default/my-claim, request req-0: asks for all devices, but resource pool"


def test_all_devices_of_an_incomplete_pool_is_an_error() -> None:
    half = of_pool(node_slice("node-1", device("device-0")), count=2)
    with pytest.raises(AllocationError) as caught:
        allocator([ALL], [half]).allocate(N1)
    assert str(caught.value) == f"{INCOMPLETE} {DRIVER}/node-1 is currently being updated"


def test_exact_count_may_use_an_incomplete_pool() -> None:
    half = of_pool(node_slice("node-1", device("device-0")), count=2)
    results = allocator([claim()], [half]).allocate(N1)
    assert results is not None
    assert [r.device for r in results[0].devices.results] == ["device-0"]


def test_a_complete_pool_of_two_slices_gives_all_its_devices() -> None:
    first = of_pool(node_slice("node-1", device("device-0")), count=2, name="a")
    second = of_pool(node_slice("node-1", device("device-1")), count=2, name="b")
    results = allocator([ALL], [first, second]).allocate(N1)
    assert results is not None
    assert [r.device for r in results[0].devices.results] == ["device-0", "device-1"]


def test_a_new_generation_not_all_published_is_being_updated() -> None:
    """The old generation is complete, but only the newest counts, and it is not."""
    old_a = of_pool(node_slice("node-1", device("device-0")), count=2, name="a1")
    old_b = of_pool(node_slice("node-1", device("device-1")), count=2, name="b1")
    new_a = of_pool(node_slice("node-1", device("device-0")), count=2, generation=2, name="a2")
    with pytest.raises(AllocationError, match="is currently being updated"):
        allocator([ALL], [old_a, old_b, new_a]).allocate(N1)


def test_all_devices_of_an_invalid_pool_is_an_error() -> None:
    first = of_pool(node_slice("node-1", device("device-0")), count=2, name="a")
    twice = of_pool(node_slice("node-1", device("device-0")), count=2, name="b")
    with pytest.raises(AllocationError) as caught:
        allocator([ALL], [first, twice]).allocate(N1)
    assert str(caught.value) == f"{INCOMPLETE} {DRIVER}/node-1 is currently invalid"


def test_an_incomplete_pool_the_node_does_not_reach_does_not_matter() -> None:
    mine = node_slice("node-1", device("device-0"))
    elsewhere = of_pool(node_slice("node-2", device("device-0")), count=2)
    results = allocator([ALL], [mine, elsewhere]).allocate(N1)
    assert results is not None
    assert [r.pool for r in results[0].devices.results] == ["node-1"]


def test_an_incomplete_pool_is_an_error_in_filter_naming_the_claim() -> None:
    half = of_pool(node_slice("node-1", device("device-0")), count=2)
    run = simulate([N1], [pod_with_claims("p", "my-claim")], resources=[device_class(), half, ALL])
    outcome = run.outcome("default/p")
    assert outcome.status == "Error"
    assert "asks for all devices, but resource pool" in outcome.message


# -- the search deadline ---------------------------------------------------------------


def pathological(devices: int) -> tuple[ResourceClaim, ResourceSlice]:
    """Five devices that share a NUMA node with one `odd` device, among `devices` that all
    share NUMA node 0 but the odd one: every choice of five is tried before giving up."""
    slice_ = node_slice(
        "node-1",
        *(device(f"device-{i}", {"numa": 0, "odd": False}) for i in range(devices)),
        device("odd", {"numa": 1, "odd": True}),
    )
    c = claim(
        "my-claim",
        exact("five", count=5),
        exact("odd", expressions=['device.attributes["driver.example.com"].odd == true']),
        constraints=[DeviceConstraint(match_attribute="driver.example.com/numa")],
    )
    return c, slice_


def test_without_a_deadline_the_search_is_exhaustive() -> None:
    c, slice_ = pathological(10)
    assert allocator([c], [slice_]).allocate(N1) is None


def test_a_deadline_stops_a_long_search() -> None:
    c, slice_ = pathological(60)  # C(60, 5) = 5.4 million choices
    with pytest.raises(AllocationTimeout, match="timed out trying to allocate devices"):
        allocator([c], [slice_]).allocate(N1, timeout=0.05)


def test_a_deadline_does_not_change_a_quick_answer() -> None:
    c, slice_ = pathological(10)
    assert allocator([c], [slice_]).allocate(N1, timeout=30) is None
    results = allocator([claim()], [slice_]).allocate(N1, timeout=30)
    assert results is not None


def dra_config(timeout: str) -> dict[str, object]:
    return {
        "profiles": [
            {
                "schedulerName": "default-scheduler",
                "pluginConfig": [{"name": "DynamicResources", "args": {"filterTimeout": timeout}}],
            }
        ]
    }


def test_filter_timeout_rejects_the_node_as_upstream() -> None:
    c, slice_ = pathological(60)
    run = simulate(
        [N1],
        [pod_with_claims("p", "my-claim")],
        resources=[device_class(), slice_, c],
        config=dra_config("10ms"),
    )
    outcome = run.outcome("default/p")
    assert outcome.status == "Unschedulable"
    assert outcome.message.startswith(
        "0/1 nodes are available: 1 timed out trying to allocate devices."
    )


def test_filter_timeout_zero_disables_it() -> None:
    c, slice_ = pathological(12)
    run = simulate(
        [N1],
        [pod_with_claims("p", "my-claim")],
        resources=[device_class(), slice_, c],
        config=dra_config("0s"),
    )
    assert run.outcome("default/p").message.startswith(
        "0/1 nodes are available: 1 cannot allocate all claims."
    )


def test_filter_timeout_off_with_its_gate() -> None:
    from kubesched.features import parse_feature_gates
    from kubesched_dynamicresources import DynamicResources, DynamicResourcesArgs

    class _Handle:
        feature_gates = parse_feature_gates("DRASchedulerFilterTimeout=false")
        client = None

    args = DynamicResourcesArgs(filter_timeout=timedelta(milliseconds=10))
    assert DynamicResources(args, _Handle()).filter_timeout is None  # type: ignore[arg-type]
    assert DynamicResources(args).filter_timeout == pytest.approx(0.01)
