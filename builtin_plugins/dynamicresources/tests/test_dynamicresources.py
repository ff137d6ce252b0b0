"""The DynamicResources plugin through the scheduler, cases from upstream's
dynamicresources_test.go table (re-expressed: the cluster, the pod, what happens)."""

from __future__ import annotations

from datetime import datetime, timezone

from attrs import evolve
from dra_testlib import (
    CLASS,
    allocated,
    claim,
    device,
    device_class,
    exact,
    node,
    node_slice,
    owned_by,
    pod_with_claims,
    pod_with_template,
    template,
)

from kubesched.api import RESOURCE_CLAIM_FINALIZER, ResourceClaim
from kubesched.framework import ActionType, EventResource, QueueingHint
from kubesched.testing import SimulationRun, make_pod, simulate
from kubesched_dynamicresources import IMPLEMENTED_GATES, DynamicResources

N1, N2 = node("node-1"), node("node-2")
GPU_CLASS = device_class()
SLICE_1 = node_slice("node-1", device("device-0"))


def live_claim(run: SimulationRun, name: str = "my-claim") -> ResourceClaim:
    found = run.cluster.get_resource_claim("default", name)
    assert found is not None
    return found


def test_a_pod_without_claims_is_not_the_plugins_business() -> None:
    run = simulate([N1], [make_pod("p").container("app").obj()], resources=[GPU_CLASS])
    assert run.placements == {"default/p": "node-1"}


def test_structured_with_resources_allocates_reserves_and_reports_the_device() -> None:
    run = simulate(
        [N1], [pod_with_claims("p", "my-claim")], resources=[GPU_CLASS, SLICE_1, claim()]
    )
    outcome = run.outcome("default/p")
    assert (outcome.status, outcome.node) == ("Scheduled", "node-1")
    assert outcome.devices == {"default/my-claim": ["driver.example.com/node-1/device-0"]}
    written = live_claim(run)
    assert written.status.allocation is not None
    assert [r.device for r in written.status.allocation.devices.results] == ["device-0"]
    assert [r.uid for r in written.status.reserved_for] == ["uid-p"]
    assert RESOURCE_CLAIM_FINALIZER in written.metadata.finalizers


def test_structured_no_resources_cannot_allocate_all_claims() -> None:
    run = simulate([N1], [pod_with_claims("p", "my-claim")], resources=[GPU_CLASS, claim()])
    outcome = run.outcome("default/p")
    assert outcome.status == "Unschedulable"
    assert outcome.message.startswith(
        "0/1 nodes are available: 1 cannot allocate all claims. still not schedulable"
    )


def test_exhausted_resources_leave_the_last_pod_pending() -> None:
    pods = [pod_with_claims(f"p{i}", f"c{i}") for i in range(3)]
    claims = [claim(f"c{i}") for i in range(3)]
    slices = [node_slice("node-1", device("device-0"), device("device-1"))]
    run = simulate([N1], pods, resources=[GPU_CLASS, *slices, *claims])
    assert run.placements == {"default/p0": "node-1", "default/p1": "node-1", "default/p2": None}
    devices = {run.outcome(f"default/p{i}").devices[f"default/c{i}"][0] for i in range(2)}
    assert devices == {"driver.example.com/node-1/device-0", "driver.example.com/node-1/device-1"}


def test_missing_class_is_unschedulable_naming_the_request() -> None:
    run = simulate([N1], [pod_with_claims("p", "my-claim")], resources=[SLICE_1, claim()])
    message = run.outcome("default/p").message
    assert "request req-0: device class gpu-class does not exist" in message
    assert "no new claims to deallocate" in message


def test_missing_claim_keeps_the_pod_out_of_the_queue() -> None:
    run = simulate([N1], [pod_with_claims("p", "nope")], resources=[GPU_CLASS, SLICE_1])
    outcome = run.outcome("default/p")
    assert (outcome.status, outcome.message) == (
        "Gated",
        'resourceclaim.resource.k8s.io "nope" not found',
    )


def test_template_claim_not_created_yet() -> None:
    run = simulate([N1], [pod_with_template("my-pod", "absent")], resources=[GPU_CLASS, SLICE_1])
    outcome = run.outcome("default/my-pod")
    assert (outcome.status, outcome.message) == (
        "Gated",
        'pod "default/my-pod": ResourceClaim not created yet',
    )


def test_wrong_claim_is_not_the_pods() -> None:
    pod = pod_with_template("my-pod", "t", generated="my-pod-my-resource")
    stranger = owned_by(claim("my-pod-my-resource"), make_pod("x").uid("someone").obj())
    run = simulate([N1], [pod], resources=[GPU_CLASS, SLICE_1, template("t"), stranger])
    assert run.outcome("default/my-pod").message == (
        "ResourceClaim default/my-pod-my-resource was not created for pod default/my-pod "
        "(pod is not owner)"
    )


def test_deleted_claim_is_being_deleted() -> None:
    doomed = claim()
    doomed = evolve(
        doomed,
        metadata=evolve(
            doomed.metadata, deletion_timestamp=datetime(2026, 1, 1, tzinfo=timezone.utc)
        ),
    )
    run = simulate([N1], [pod_with_claims("p", "my-claim")], resources=[GPU_CLASS, SLICE_1, doomed])
    assert run.outcome("default/p").message == 'resourceclaim "my-claim" is being deleted'


def test_the_claim_controller_makes_template_claims_and_deletes_them_with_the_pod() -> None:
    run = simulate(
        [N1], [pod_with_template("my-pod", "one")], resources=[GPU_CLASS, SLICE_1, template("one")]
    )
    outcome = run.outcome("default/my-pod")
    assert outcome.status == "Scheduled"
    (name,) = outcome.devices
    generated = name.split("/")[1]
    assert generated.startswith("my-pod-gpu-") and len(generated) == len("my-pod-gpu-") + 5
    made = live_claim(run, generated)
    assert [o.uid for o in made.metadata.owner_references] == ["uid-my-pod"]
    pod = next(p for p in run.cluster.pods() if p.metadata.name == "my-pod")
    assert [(s.name, s.resource_claim_name) for s in pod.status.resource_claim_statuses] == [
        ("gpu", generated)
    ]
    run.cluster.delete_pod(pod)
    assert run.cluster.get_resource_claim("default", generated) is None


def test_generated_names_are_the_same_every_run() -> None:
    names = []
    for _ in range(2):
        run = simulate(
            [N1],
            [pod_with_template("my-pod", "one")],
            resources=[GPU_CLASS, SLICE_1, template("one")],
        )
        names.append(list(run.outcome("default/my-pod").devices))
    assert names[0] == names[1]


def test_an_allocated_claim_pins_the_pod_to_its_node() -> None:
    on_node_2 = allocated(claim(), "node-2", "device-0")
    slices = [SLICE_1, node_slice("node-2", device("device-0"))]
    run = simulate(
        [N1, N2], [pod_with_claims("p", "my-claim")], resources=[GPU_CLASS, *slices, on_node_2]
    )
    assert run.placements == {"default/p": "node-2"}
    assert [r.uid for r in live_claim(run).status.reserved_for] == ["uid-p"]


def test_a_shared_claim_is_reserved_for_every_pod_using_it() -> None:
    pods = [pod_with_claims("a", "my-claim"), pod_with_claims("b", "my-claim")]
    run = simulate([N1], pods, resources=[GPU_CLASS, SLICE_1, claim()])
    assert run.placements == {"default/a": "node-1", "default/b": "node-1"}
    assert sorted(r.uid for r in live_claim(run).status.reserved_for) == ["uid-a", "uid-b"]


def test_post_filter_deallocates_an_unused_claim_that_kept_the_pod_off_nodes() -> None:
    # Allocated on node-1, which cannot take the pod: PostFilter frees the claim, and the
    # next attempt allocates it again on node-2.
    full = evolve(N1, status=evolve(N1.status, allocatable={**N1.status.allocatable, "pods": 0}))
    on_node_1 = allocated(claim(), "node-1", "device-0")
    slices = [SLICE_1, node_slice("node-2", device("device-0"))]
    run = simulate(
        [full, N2], [pod_with_claims("p", "my-claim")], resources=[GPU_CLASS, *slices, on_node_1]
    )
    outcome = run.outcome("default/p")
    assert (outcome.node, outcome.attempts) == ("node-2", 2)
    assert outcome.devices == {"default/my-claim": ["driver.example.com/node-2/device-0"]}


def test_a_claim_reserved_for_another_pod_is_not_deallocated() -> None:
    other = make_pod("other").uid("uid-other").node("node-1").container("app").obj()
    full = evolve(N1, status=evolve(N1.status, allocatable={**N1.status.allocatable, "pods": 1}))
    on_node_1 = allocated(claim(), "node-1", "device-0", reserved_for=[other])
    run = simulate(
        [full, N2],
        [other, pod_with_claims("p", "my-claim")],
        resources=[GPU_CLASS, SLICE_1, on_node_1],
    )
    outcome = run.outcome("default/p")
    assert outcome.node is None
    assert "still not schedulable" in outcome.message
    assert "resourceclaim not available on the node" in outcome.message


def test_a_malformed_selector_fails_only_the_pods_that_need_it() -> None:
    broken = device_class("broken", "device.driver ==")
    bad_claim = claim("bad", exact(device_class_name="broken"))
    pods = [pod_with_claims("bad", "bad"), pod_with_claims("good", "my-claim")]
    two = node_slice("node-1", device("device-0"), device("device-1"))
    run = simulate(
        [N1], pods, resources=[GPU_CLASS, broken, two, bad_claim, claim()], max_pod_attempts=3
    )
    bad = run.outcome("default/bad")
    assert bad.status == "Error"
    assert "class broken: selector #0: CEL compile error: compilation failed" in bad.message
    assert run.placements["default/good"] == "node-1"


def test_the_claim_hint_queues_only_for_the_pods_claims_or_deallocations() -> None:
    plugin = DynamicResources()
    pod = pod_with_claims("p", "my-claim")
    events = {e.event.resource: e for e in plugin.events_to_register()}
    assert set(events) == {
        EventResource.NODE,
        EventResource.RESOURCE_CLAIM,
        EventResource.POD,
        EventResource.DEVICE_CLASS,
        EventResource.RESOURCE_SLICE,
    }
    assert (
        events[EventResource.POD].event.action_type
        == ActionType.UPDATE_POD_GENERATED_RESOURCE_CLAIM
    )
    # Without a cluster no claim is found: the pod is not schedulable after any claim change.
    hint = events[EventResource.RESOURCE_CLAIM].hint
    assert hint is not None
    assert hint(pod, None, claim()) == QueueingHint.QUEUE_SKIP


def test_every_dra_gate_is_listed_as_implemented_or_not() -> None:
    assert IMPLEMENTED_GATES == {
        "DRAAdminAccess": True,
        "DRAPrioritizedList": True,
        "DRAPartitionableDevices": True,
        "DRADeviceTaints": True,
        "DRAConsumableCapacity": True,
        "DRAExtendedResource": False,
        "DRASchedulerFilterTimeout": True,
        "DRADeviceBindingConditions": True,
    }


def test_prioritized_list_off_makes_subrequests_unschedulable() -> None:
    from dra_testlib import first_available

    c = claim("c", first_available("req-0", ("one", CLASS, 1)))
    pod = pod_with_claims("p", "c")
    on = simulate([N1], [pod], resources=[GPU_CLASS, SLICE_1, c])
    assert on.placements == {"default/p": "node-1"}
    assert on.outcome("default/p").devices == {"default/c": ["driver.example.com/node-1/device-0"]}
    off = simulate(
        [N1], [pod], resources=[GPU_CLASS, SLICE_1, c], feature_gates="DRAPrioritizedList=false"
    )
    assert (
        "has subrequests, but the DRAPrioritizedList feature is disabled"
        in off.outcome("default/p").message
    )
