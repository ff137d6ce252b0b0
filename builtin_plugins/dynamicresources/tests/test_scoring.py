"""Scoring by the prioritized list (upstream's DynamicResources Score and NormalizeScore,
DRAPrioritizedList): cases after upstream's computeScore and Score tests, re-expressed."""

from __future__ import annotations

import numpy as np
import pytest
from attrs import evolve
from dra_testlib import (
    claim,
    device,
    device_class,
    exact,
    first_available,
    node,
    node_slice,
    pod_with_claims,
)
from hypothesis import given
from hypothesis import strategies as st

from kubesched.api import (
    AllocationResult,
    DeviceAllocationResult,
    DeviceRequestAllocationResult,
    ResourceClaim,
)
from kubesched.framework import default_normalize_score
from kubesched.testing import simulate
from kubesched_dynamicresources.scoring import FIRST_AVAILABLE_MAX_SIZE, claim_score, pod_score

LARGE = device_class("large", 'device.attributes["driver.example.com"].size == "large"')
SMALL = device_class("small", 'device.attributes["driver.example.com"].size == "small"')


def prioritized(name: str = "c", subs: int = 2) -> ResourceClaim:
    alternatives = [(f"sub-{i}", "large" if i == 0 else "small", 1) for i in range(subs)]
    return claim(name, first_available("req-0", *alternatives))


def with_allocation(c: ResourceClaim, *requests: str) -> ResourceClaim:
    results = [
        DeviceRequestAllocationResult(request=r, driver="driver.example.com", pool="p", device=r)
        for r in requests
    ]
    allocation = AllocationResult(devices=DeviceAllocationResult(results=results))
    return evolve(c, status=evolve(c.status, allocation=allocation))


@pytest.mark.parametrize(
    ("requests", "expected"),
    [
        pytest.param(["req-0/sub-0"], 8, id="first subrequest"),
        pytest.param(["req-0/sub-1"], 7, id="second subrequest"),
        pytest.param(["req-0"], 0, id="not a subrequest"),
        pytest.param([], 0, id="nothing allocated"),
        pytest.param(["req-0/sub-1", "req-0/sub-1"], 7, id="two devices of one subrequest"),
    ],
)
def test_claim_score(requests: list[str], expected: int) -> None:
    assert claim_score(prioritized(), requests) == expected


def test_exact_requests_score_nothing() -> None:
    assert claim_score(claim("c", exact()), ["req-0"]) == 0


def test_every_prioritized_request_of_every_claim_adds_up() -> None:
    two = claim(
        "two",
        first_available("a", ("x", "large", 1), ("y", "small", 1)),
        first_available("b", ("x", "large", 1), ("y", "small", 1), ("z", "small", 1)),
    )
    assert claim_score(two, ["a/x", "b/z"]) == 8 + 6
    # An allocated claim counts with its recorded allocation, the others take the node's.
    done = with_allocation(prioritized("done"), "req-0/sub-1")
    assert pod_score([done, two], [["a/y", "b/y"]]) == 7 + 7 + 7


def test_fewer_allocations_than_claims_to_allocate_is_an_error() -> None:
    with pytest.raises(ValueError, match="number of allocations 0 is smaller"):
        pod_score([prioritized()], [])


@given(st.integers(1, FIRST_AVAILABLE_MAX_SIZE), st.data())
def test_an_earlier_alternative_always_scores_higher(subs: int, data: st.DataObject) -> None:
    c = prioritized(subs=subs)
    first = data.draw(st.integers(0, subs - 1))
    later = data.draw(st.integers(first, subs - 1))
    assert claim_score(c, [f"req-0/sub-{first}"]) >= claim_score(c, [f"req-0/sub-{later}"])
    assert 1 <= claim_score(c, [f"req-0/sub-{later}"]) <= FIRST_AVAILABLE_MAX_SIZE


def test_normalized_the_best_node_gets_100() -> None:
    scores = np.array([8, 7, 0], dtype=np.int64)
    default_normalize_score(100, False, scores)
    assert scores.tolist() == [100, 87, 0]


def sized_slice(node_name: str, size: str):  # type: ignore[no-untyped-def]
    return node_slice(node_name, device(f"{size}-gpu", {"size": size}))


@pytest.mark.parametrize("large_on", ["node-1", "node-2"])
def test_the_pod_goes_where_its_first_alternative_fits(large_on: str) -> None:
    small_on = "node-2" if large_on == "node-1" else "node-1"
    resources = [LARGE, SMALL, sized_slice(large_on, "large"), sized_slice(small_on, "small")]
    run = simulate(
        [node("node-1"), node("node-2")],
        [pod_with_claims("p", "c")],
        resources=[*resources, prioritized()],
        explain=True,
    )
    outcome = run.outcome("default/p")
    assert outcome.node == large_on
    assert outcome.devices == {"default/c": [f"driver.example.com/{large_on}/large-gpu"]}
    assert outcome.nodes is not None
    assert outcome.nodes[large_on].scores["DynamicResources"] == (100, 100)
    assert outcome.nodes[small_on].scores["DynamicResources"] == (87, 87)


def test_exact_requests_and_the_gate_off_score_nothing() -> None:
    c = claim("c", exact("req-0", device_class_name="small"))
    slices = [sized_slice("node-1", "small"), sized_slice("node-2", "small")]
    for gates in ("DRAPrioritizedList=true", "DRAPrioritizedList=false"):
        run = simulate(
            [node("node-1"), node("node-2")],
            [pod_with_claims("p", "c")],
            resources=[SMALL, *slices, c],
            explain=True,
            feature_gates=gates,
        )
        outcome = run.outcome("default/p")
        assert outcome.node is not None
        assert outcome.nodes is not None
        assert {n: e.scores["DynamicResources"] for n, e in outcome.nodes.items()} == {
            "node-1": (0, 0),
            "node-2": (0, 0),
        }


def test_a_pod_without_claims_scores_zero_everywhere() -> None:
    from kubesched.testing import make_pod

    run = simulate(
        [node("node-1"), node("node-2")], [make_pod("p").container("app").obj()], explain=True
    )
    outcome = run.outcome("default/p")
    assert outcome.nodes is not None
    assert {n: e.scores["DynamicResources"] for n, e in outcome.nodes.items()} == {
        "node-1": (0, 0),
        "node-2": (0, 0),
    }
