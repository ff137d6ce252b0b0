"""Invariants of DynamicResources through the scheduler, on random clusters: no device is
allocated to two claims, every scheduled pod's claim is allocated on its node and reserved
for it, and a pod is left pending only when too few devices were free."""

from __future__ import annotations

from dra_testlib import claim, device, device_class, node, node_slice, pod_with_claims
from hypothesis import given, settings
from hypothesis import strategies as st

from kubesched.testing import simulate


@settings(max_examples=25, deadline=None)
@given(
    devices_per_node=st.lists(st.integers(min_value=0, max_value=3), min_size=1, max_size=4),
    counts=st.lists(st.integers(min_value=1, max_value=2), min_size=1, max_size=6),
)
def test_devices_are_never_shared_and_claims_follow_their_pods(
    devices_per_node: list[int], counts: list[int]
) -> None:
    from dra_testlib import exact

    nodes = [node(f"node-{i}") for i in range(len(devices_per_node))]
    slices = [
        node_slice(f"node-{i}", *(device(f"d{j}") for j in range(n)))
        for i, n in enumerate(devices_per_node)
    ]
    claims = [claim(f"c{i}", exact(count=k)) for i, k in enumerate(counts)]
    pods = [pod_with_claims(f"p{i}", f"c{i}") for i in range(len(counts))]
    run = simulate(nodes, pods, resources=[device_class(), *slices, *claims])
    used: list[str] = []
    for i, count in enumerate(counts):
        outcome = run.outcome(f"default/p{i}")
        written = run.cluster.get_resource_claim("default", f"c{i}")
        assert written is not None
        if outcome.node is None:
            assert written.status.allocation is None
            # Pending only when no node had `count` free devices at its turn.
            continue
        allocation = written.status.allocation
        assert allocation is not None
        assert {r.pool for r in allocation.devices.results} == {outcome.node}
        assert len(allocation.devices.results) == count
        assert [r.uid for r in written.status.reserved_for] == [f"uid-p{i}"]
        used += [f"{r.pool}/{r.device}" for r in allocation.devices.results]
    assert len(used) == len(set(used))
    free = {f"node-{i}": n for i, n in enumerate(devices_per_node)}
    for device_id in used:
        free[device_id.split("/")[0]] -= 1
    for i, count in enumerate(counts):
        if run.outcome(f"default/p{i}").node is None:
            assert all(n < count for n in free.values())
