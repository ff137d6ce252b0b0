"""The structured allocator, case by case from upstream's allocator_test.go table (re-expressed:
one node, its slices, the claims, what gets allocated)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from attrs import evolve
from dra_testlib import (
    CLASS,
    DRIVER,
    allocated,
    claim,
    cluster_slice,
    device,
    device_class,
    exact,
    first_available,
    node,
    node_slice,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from kubesched.api import (
    CounterSet,
    DeviceCapacity,
    DeviceClaimConfiguration,
    DeviceClass,
    DeviceClassConfiguration,
    DeviceConstraint,
    DeviceCounterConsumption,
    DeviceTaint,
    DeviceToleration,
    OpaqueDeviceConfiguration,
    ResourceClaim,
    ResourceSlice,
)
from kubesched_dynamicresources.allocator import (
    AllocationError,
    Allocator,
    Features,
    allocated_devices,
)
from kubesched_dynamicresources.cel import SelectorEvaluator

N1 = node("node-1")
DEFAULT_FEATURES = Features()
EVALUATOR = SelectorEvaluator()


def allocate(
    claims: Sequence[ResourceClaim],
    slices: Sequence[ResourceSlice],
    *,
    classes: Sequence[DeviceClass] = (device_class(),),
    allocated_claims: Sequence[ResourceClaim] = (),
    features: Features = DEFAULT_FEATURES,
) -> list[dict[str, list[str]]] | None:
    """{request: [device, ...]} per claim, or None when the node cannot satisfy them."""
    allocator = Allocator(
        features,
        claims,
        allocated_devices(allocated_claims),
        {c.metadata.name: c for c in classes},
        slices,
        EVALUATOR,
    )
    results = allocator.allocate(N1)
    if results is None:
        return None
    out = []
    for result in results:
        by_request: dict[str, list[str]] = {}
        for r in result.devices.results:
            by_request.setdefault(r.request, []).append(r.device)
        out.append(by_request)
    return out


TWO = node_slice("node-1", device("device-0"), device("device-1"))


@pytest.mark.parametrize(
    ("case", "claims", "slices", "want"),
    [
        ("empty", [], [TWO], []),
        ("simple", [claim()], [TWO], [{"req-0": ["device-0"]}]),
        ("other-node", [claim()], [node_slice("node-2", device("device-0"))], None),
        ("no-slices", [claim()], [], None),
        ("count-2", [claim("c", exact(count=2))], [TWO], [{"req-0": ["device-0", "device-1"]}]),
        ("not-enough", [claim("c", exact(count=3))], [TWO], None),
        (
            "two-claims",
            [claim("a"), claim("b")],
            [TWO],
            [{"req-0": ["device-0"]}, {"req-0": ["device-1"]}],
        ),
        (
            "two-claims-one-device",
            [claim("a"), claim("b")],
            [node_slice("node-1", device("d"))],
            None,
        ),
        (
            "all-devices",
            [claim("c", exact(mode="All"))],
            [TWO],
            [{"req-0": ["device-0", "device-1"]}],
        ),
        ("all-devices-none", [claim("c", exact(mode="All"))], [node_slice("node-1")], None),
        (
            "two-requests",
            [claim("c", exact("a"), exact("b"))],
            [TWO],
            [{"a": ["device-0"], "b": ["device-1"]}],
        ),
        (
            "old-generation-ignored",
            [claim()],
            [
                node_slice("node-1", device("stale"), generation=1, name="old"),
                node_slice("node-1", device("fresh"), generation=2, name="new"),
            ],
            [{"req-0": ["fresh"]}],
        ),
        ("network-attached", [claim()], [cluster_slice(device("nic-0"))], [{"req-0": ["nic-0"]}]),
        (
            "pools-in-driver-order",
            [claim()],
            [
                node_slice("node-1", device("z"), driver="z.example.com"),
                node_slice("node-1", device("a"), driver=DRIVER),
            ],
            [{"req-0": ["a"]}],
        ),
    ],
)
def test_allocation(
    case: str,
    claims: list[ResourceClaim],
    slices: list[ResourceSlice],
    want: list[dict[str, list[str]]] | None,
) -> None:
    assert allocate(claims, slices) == want, case


def test_allocated_devices_are_not_allocated_again() -> None:
    other = allocated(claim("other"), "node-1", "device-0")
    assert allocate([claim()], [TWO], allocated_claims=[other]) == [{"req-0": ["device-1"]}]
    both = allocated(claim("other"), "node-1", "device-0", "device-1")
    assert allocate([claim()], [TWO], allocated_claims=[both]) is None


def test_all_mode_fails_when_a_matching_device_is_allocated() -> None:
    other = allocated(claim("other"), "node-1", "device-0")
    assert allocate([claim("c", exact(mode="All"))], [TWO], allocated_claims=[other]) is None


def test_admin_access_takes_allocated_devices_and_only_with_its_gate() -> None:
    other = allocated(claim("other"), "node-1", "device-0", "device-1")
    admin = claim("admin", exact(admin=True, count=2))
    assert allocate([admin], [TWO], allocated_claims=[other]) == [
        {"req-0": ["device-0", "device-1"]}
    ]
    off = Features(admin_access=False)
    assert allocate([admin], [TWO], allocated_claims=[other], features=off) is None


def test_admin_access_results_do_not_use_devices_up() -> None:
    allocator = Allocator(
        Features(),
        [claim("admin", exact(admin=True))],
        set(),
        {CLASS: device_class()},
        [TWO],
        EVALUATOR,
    )
    (result,) = allocator.allocate(N1) or []
    assert result.devices.results[0].admin_access is True
    assert (
        allocated_devices([evolve(claim(), status=evolve(claim().status, allocation=result))])
        == set()
    )


GPUS = node_slice(
    "node-1",
    device("gpu-0", {"model": "t4"}, {"memory": "16Gi"}),
    device("gpu-1", {"model": "a100"}, {"memory": "80Gi"}),
    device("gpu-2", {"model": "a100"}, {"memory": "40Gi"}),
)


def test_request_selector_compares_quantities() -> None:
    big = 'device.capacity["driver.example.com"].memory.compareTo(quantity("40Gi")) >= 0'
    assert allocate([claim("c", exact(expressions=[big]))], [GPUS]) == [{"req-0": ["gpu-1"]}]
    huge = 'device.capacity["driver.example.com"].memory.isGreaterThan(quantity("80Gi"))'
    assert allocate([claim("c", exact(expressions=[huge]))], [GPUS]) is None


def test_class_selectors_apply_to_every_request_of_the_class() -> None:
    a100 = device_class(CLASS, 'device.attributes["driver.example.com"].model == "a100"')
    got = allocate([claim("c", exact(count=2))], [GPUS], classes=[a100])
    assert got == [{"req-0": ["gpu-1", "gpu-2"]}]


def test_match_attribute_backtracks_to_a_matching_pair() -> None:
    same_model = DeviceConstraint(match_attribute=f"{DRIVER}/model")
    c = claim("c", exact(count=2), constraints=[same_model])
    assert allocate([c], [GPUS]) == [{"req-0": ["gpu-1", "gpu-2"]}]


def test_match_attribute_across_requests_and_unsatisfiable() -> None:
    same_model = DeviceConstraint(requests=["a", "b"], match_attribute=f"{DRIVER}/model")
    c = claim("c", exact("a"), exact("b"), constraints=[same_model])
    assert allocate([c], [GPUS]) == [{"a": ["gpu-1"], "b": ["gpu-2"]}]
    three = claim(
        "c", exact(count=3), constraints=[DeviceConstraint(match_attribute=f"{DRIVER}/model")]
    )
    assert allocate([three], [GPUS]) is None


def test_match_attribute_missing_on_a_device_fails() -> None:
    c = claim("c", constraints=[DeviceConstraint(match_attribute=f"{DRIVER}/numa")])
    assert allocate([c], [GPUS]) is None


def test_first_available_takes_the_first_subrequest_that_fits() -> None:
    request = first_available("req-0", ("four", CLASS, 4), ("two", CLASS, 2))
    assert allocate([claim("c", request)], [GPUS]) == [{"req-0/two": ["gpu-0", "gpu-1"]}]
    off = Features(prioritized_list=False)
    assert allocate([claim("c", request)], [GPUS], features=off) is None


def test_config_from_class_then_claim() -> None:
    cls = evolve(
        device_class(),
        spec=evolve(
            device_class().spec,
            config=[DeviceClassConfiguration(OpaqueDeviceConfiguration(DRIVER, {"a": 1}))],
        ),
    )
    c = claim()
    c = evolve(
        c,
        spec=evolve(
            c.spec,
            devices=evolve(
                c.spec.devices,
                config=[
                    DeviceClaimConfiguration(["req-0"], OpaqueDeviceConfiguration(DRIVER, {"b": 2}))
                ],
            ),
        ),
    )
    allocator = Allocator(Features(), [c], set(), {CLASS: cls}, [TWO], EVALUATOR)
    (result,) = allocator.allocate(N1) or []
    assert [
        (x.source, x.requests, x.opaque.parameters if x.opaque else None)
        for x in result.devices.config
    ] == [
        ("FromClass", ["req-0"], {"a": 1}),
        ("FromClaim", ["req-0"], {"b": 2}),
    ]
    assert result.node_selector is not None
    assert result.node_selector.node_selector_terms[0].match_fields[0].values == ["node-1"]


def test_network_attached_devices_have_no_node_selector() -> None:
    allocator = Allocator(
        Features(),
        [claim()],
        set(),
        {CLASS: device_class()},
        [cluster_slice(device("nic"))],
        EVALUATOR,
    )
    (result,) = allocator.allocate(N1) or []
    assert result.node_selector is None


def test_missing_class_is_an_error() -> None:
    with pytest.raises(AllocationError, match="could not retrieve device class nope"):
        Allocator(
            Features(), [claim("c", exact(device_class_name="nope"))], set(), {}, [], EVALUATOR
        )


def test_a_class_selector_that_does_not_compile_names_the_class_and_selector() -> None:
    broken = device_class(CLASS, "device.driver ==")
    with pytest.raises(
        AllocationError, match=r"^class gpu-class: selector #0: CEL compile error: "
    ):
        allocate([claim()], [TWO], classes=[broken])


def test_a_claim_selector_failing_at_runtime_names_the_claim_and_selector() -> None:
    c = claim("c", exact(expressions=['device.attributes["driver.example.com"].model == "t4"']))
    with pytest.raises(
        AllocationError, match=r"^claim default/c: selector #0: CEL runtime error: .*model"
    ):
        allocate([c], [TWO])


def test_an_unknown_domain_is_an_empty_map_as_upstream() -> None:
    c = claim("c", exact(expressions=['!("model" in device.attributes["other.example.com"])']))
    assert allocate([c], [TWO]) == [{"req-0": ["device-0"]}]


def test_a_selector_must_give_a_boolean() -> None:
    c = claim("c", exact(expressions=["device.driver"]))
    with pytest.raises(AllocationError, match=r"CEL runtime error: .*instead of bool"):
        allocate([c], [TWO])


def test_device_taints_need_a_toleration_with_the_gate_on() -> None:
    tainted = node_slice(
        "node-1",
        evolve(device("device-0"), taints=[DeviceTaint(key="broken", effect="NoSchedule")]),
    )
    on = Features(device_taints=True)
    assert allocate([claim()], [tainted], features=on) is None
    assert allocate([claim()], [tainted]) == [{"req-0": ["device-0"]}]  # gate off: ignored
    tolerant = claim()
    request = tolerant.spec.devices.requests[0]
    assert request.exactly is not None
    tolerating = evolve(
        request,
        exactly=evolve(
            request.exactly, tolerations=[DeviceToleration(key="broken", operator="Exists")]
        ),
    )
    tolerant = evolve(
        tolerant,
        spec=evolve(tolerant.spec, devices=evolve(tolerant.spec.devices, requests=[tolerating])),
    )
    assert allocate([tolerant], [tainted], features=on) == [{"req-0": ["device-0"]}]


def test_partitionable_devices_share_counters_with_the_gate_on() -> None:
    def partition(name: str, memory: str) -> object:
        return evolve(
            device(name),
            consumes_counters=[
                DeviceCounterConsumption("gpu-0", {"memory": DeviceCapacity(memory)})
            ],
        )

    shared = evolve(
        TWO,
        spec=evolve(
            TWO.spec,
            devices=[
                partition("whole", "40Gi"),
                partition("half-a", "20Gi"),
                partition("half-b", "20Gi"),
            ],
            shared_counters=[CounterSet("gpu-0", {"memory": DeviceCapacity("40Gi")})],
        ),
    )
    on = Features(partitionable_devices=True)
    assert allocate([claim("c", exact(count=2))], [shared], features=on) == [
        {"req-0": ["half-a", "half-b"]}
    ]
    assert allocate([claim("c", exact(count=3))], [shared], features=on) is None
    assert allocate([claim("c", exact(count=3))], [shared]) is not None  # gate off: ignored
    # A partition another claim holds uses its counters up too.
    taken = allocated(claim("other"), "node-1", "half-a")
    assert allocate([claim("c")], [shared], features=on, allocated_claims=[taken]) == [
        {"req-0": ["half-b"]}
    ]


@settings(max_examples=60, deadline=None)
@given(
    devices=st.integers(min_value=0, max_value=6),
    counts=st.lists(st.integers(min_value=1, max_value=3), min_size=1, max_size=3),
    taken=st.integers(min_value=0, max_value=6),
)
def test_allocations_are_distinct_free_devices_of_the_asked_count(
    devices: int, counts: list[int], taken: int
) -> None:
    names = [f"d{i}" for i in range(devices)]
    resource_slice = node_slice("node-1", *(device(n) for n in names))
    other = [allocated(claim("other"), "node-1", *names[: min(taken, devices)])] if taken else []
    claims = [claim(f"c{i}", exact(count=k)) for i, k in enumerate(counts)]
    got = allocate(claims, [resource_slice], allocated_claims=other)
    free = devices - min(taken, devices)
    if sum(counts) > free:
        assert got is None
        return
    assert got is not None
    chosen = [d for result in got for ds in result.values() for d in ds]
    assert len(chosen) == len(set(chosen)) == sum(counts)
    assert not set(chosen) & set(names[: min(taken, devices)])
    assert [len(r["req-0"]) for r in got] == counts
