"""Device binding conditions (DRADeviceBindingConditions): which devices the allocator may
take, in which order, what the results carry, and when PreBind lets the pod bind, after
upstream's allocator and DynamicResources tests."""

from __future__ import annotations

import pytest
from attrs import evolve
from dra_testlib import (
    CLASS,
    allocated,
    claim,
    cluster_slice,
    device,
    device_class,
    node,
    node_slice,
    pod_with_claims,
)

from kubesched.api import (
    AllocatedDeviceStatus,
    AllocationResult,
    Condition,
    Device,
    ResourceClaim,
    ResourceSlice,
)
from kubesched.testing import simulate
from kubesched_dynamicresources.allocator import Allocator, Features
from kubesched_dynamicresources.binding import BindingFailed, ready_for_binding
from kubesched_dynamicresources.cel import SelectorEvaluator

N1 = node("node-1")
EVALUATOR = SelectorEvaluator()
ON = Features(binding_conditions=True)
GATE = "DRADeviceBindingConditions=true"


def attached(name: str, *, binds_to_node: bool | None = None) -> Device:
    return evolve(
        device(name),
        binding_conditions=["Attached"],
        binding_failure_conditions=["AttachFailed"],
        binds_to_node=binds_to_node,
    )


def allocate(slices: list[ResourceSlice], features: Features = ON) -> list[AllocationResult] | None:
    allocator = Allocator(features, [claim()], set(), {CLASS: device_class()}, slices, EVALUATOR)
    return allocator.allocate(N1)


def test_gate_off_devices_with_binding_conditions_are_never_taken() -> None:
    waiting = node_slice("node-1", attached("device-0"))
    assert allocate([waiting], Features()) is None
    both = node_slice("node-1", attached("device-0"), device("device-1"))
    results = allocate([both], Features())
    assert results is not None
    assert [r.device for r in results[0].devices.results] == ["device-1"]


def test_gate_on_the_result_carries_the_binding_conditions() -> None:
    results = allocate([node_slice("node-1", attached("device-0"))])
    assert results is not None
    result = results[0].devices.results[0]
    assert (result.binding_conditions, result.binding_failure_conditions) == (
        ["Attached"],
        ["AttachFailed"],
    )


def test_pools_with_binding_conditions_are_tried_last() -> None:
    waiting = node_slice("node-1", attached("device-0"), pool="a-pool", name="a")
    plain = node_slice("node-1", device("device-0"), pool="b-pool", name="b")
    results = allocate([waiting, plain])
    assert results is not None
    assert results[0].devices.results[0].pool == "b-pool"


def test_binds_to_node_pins_a_cluster_wide_device_to_the_node() -> None:
    results = allocate([cluster_slice(attached("fabric-0", binds_to_node=True))])
    assert results is not None
    selector = results[0].node_selector
    assert selector is not None
    assert selector.node_selector_terms[0].match_fields[0].values == ["node-1"]
    unpinned = allocate([cluster_slice(attached("fabric-0"))])
    assert unpinned is not None and unpinned[0].node_selector is None


def reporting(c: ResourceClaim, **conditions: str) -> ResourceClaim:
    """The claim with the driver's conditions (type -> status) on its first device."""
    allocation = c.status.allocation
    assert allocation is not None
    first = allocation.devices.results[0]
    status = AllocatedDeviceStatus(
        driver=first.driver,
        pool=first.pool,
        device=first.device,
        conditions=[
            Condition(type=t, status=v, reason=f"{t}Reason", message=f"{t} says {v}")
            for t, v in conditions.items()
        ],
    )
    return evolve(c, status=evolve(c.status, devices=[status]))


def waiting_claim() -> ResourceClaim:
    c = allocated(claim(), "node-1", "device-0")
    allocation = c.status.allocation
    assert allocation is not None
    results = [
        evolve(r, binding_conditions=["Attached"], binding_failure_conditions=["AttachFailed"])
        for r in allocation.devices.results
    ]
    devices = evolve(allocation.devices, results=results)
    return evolve(c, status=evolve(c.status, allocation=evolve(allocation, devices=devices)))


def test_ready_only_when_every_binding_condition_is_true() -> None:
    assert ready_for_binding(allocated(claim(), "node-1", "device-0"))
    assert not ready_for_binding(claim())
    assert not ready_for_binding(waiting_claim())
    assert not ready_for_binding(reporting(waiting_claim(), Attached="False"))
    assert ready_for_binding(reporting(waiting_claim(), Attached="True"))


def test_a_true_failure_condition_is_upstreams_error() -> None:
    with pytest.raises(BindingFailed) as caught:
        ready_for_binding(reporting(waiting_claim(), AttachFailed="True"))
    assert str(caught.value) == (
        'claim my-claim binding failed: reason=AttachFailedReason, message="AttachFailed says True"'
    )


SLICE = node_slice("node-1", attached("device-0"))


def test_through_the_scheduler_a_ready_device_binds() -> None:
    ready = reporting(waiting_claim(), Attached="True")
    run = simulate(
        [N1],
        [pod_with_claims("p", "my-claim")],
        resources=[device_class(), SLICE, ready],
        feature_gates=GATE,
    )
    assert run.placements == {"default/p": "node-1"}


def test_through_the_scheduler_a_device_not_ready_times_out() -> None:
    run = simulate(
        [N1],
        [pod_with_claims("p", "my-claim")],
        resources=[device_class(), SLICE, claim()],
        feature_gates=GATE,
    )
    outcome = run.outcome("default/p")
    assert outcome.node is None
    assert "device binding timeout" in outcome.message
    written = run.cluster.get_resource_claim("default", "my-claim")
    assert written is not None and written.status.allocation is not None
    assert written.status.allocation.devices.results[0].binding_conditions == ["Attached"]


def test_through_the_scheduler_a_failed_device_is_deallocated_and_allocated_again() -> None:
    """Filter finds the allocated claim unavailable, PostFilter deallocates it (dropping the
    driver's failure report), and the next attempts allocate it afresh and wait again."""
    failed = reporting(waiting_claim(), AttachFailed="True")
    run = simulate(
        [N1],
        [pod_with_claims("p", "my-claim")],
        resources=[device_class(), SLICE, failed],
        feature_gates=GATE,
    )
    outcome = run.outcome("default/p")
    assert (outcome.status, outcome.node) == ("Error", None)
    assert outcome.message.endswith("device binding timeout")
    written = run.cluster.get_resource_claim("default", "my-claim")
    assert written is not None and written.status.allocation is not None
    assert written.status.devices == []


def test_through_the_scheduler_gate_off_the_device_is_not_used() -> None:
    run = simulate(
        [N1], [pod_with_claims("p", "my-claim")], resources=[device_class(), SLICE, claim()]
    )
    assert "cannot allocate all claims" in run.outcome("default/p").message
