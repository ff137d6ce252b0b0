"""What `kubesched run` writes into a claim's status: only the scheduler's own changes, on top
of the claim as the API server has it now."""

from __future__ import annotations

from typing import Any

from attrs import evolve

from kubesched.api import (
    AllocationResult,
    DeviceAllocationResult,
    DeviceRequestAllocationResult,
    ObjectMeta,
    ResourceClaim,
    ResourceClaimConsumerReference,
    ResourceClaimStatus,
)
from kubesched.cluster.apiserver.claims import status_body

ALLOCATION = AllocationResult(
    devices=DeviceAllocationResult(
        results=[DeviceRequestAllocationResult(request="gpu", driver="d", pool="n1", device="g0")]
    )
)


def consumer(name: str) -> ResourceClaimConsumerReference:
    return ResourceClaimConsumerReference(resource="pods", name=name, uid=f"uid-{name}")


def claim(*consumers: str, allocation: AllocationResult | None = ALLOCATION) -> ResourceClaim:
    status = ResourceClaimStatus(allocation, [consumer(c) for c in consumers])
    return ResourceClaim(ObjectMeta(name="c", namespace="default", uid="uid-c"), status=status)


def raw(*consumers: str, allocated: bool = True) -> dict[str, Any]:
    status: dict[str, Any] = {"devices": [{"driver": "d", "pool": "n1", "device": "g0"}]}
    if allocated:
        status["allocation"] = {"devices": {"results": [{"request": "gpu"}]}}
    if consumers:
        status["reservedFor"] = [
            {"resource": "pods", "name": c, "uid": f"uid-{c}"} for c in consumers
        ]
    return {"metadata": {"name": "c", "resourceVersion": "7"}, "status": status}


def uids(body: dict[str, Any]) -> list[str]:
    return [r["uid"] for r in body["status"].get("reservedFor", [])]


def test_an_allocation_and_a_reservation_are_written_unmodelled_fields_kept() -> None:
    base = claim(allocation=None)
    body = status_body(raw(allocated=False), base, claim("p"))
    assert body["status"]["allocation"]["devices"]["results"][0]["device"] == "g0"
    assert uids(body) == ["uid-p"]
    assert body["status"]["devices"] == [{"driver": "d", "pool": "n1", "device": "g0"}]
    assert body["metadata"]["resourceVersion"] == "7"


def test_a_reservation_made_in_between_by_someone_else_is_kept() -> None:
    body = status_body(raw("other"), claim(), claim("p"))
    assert uids(body) == ["uid-other", "uid-p"]
    assert body["status"]["allocation"] == {"devices": {"results": [{"request": "gpu"}]}}


def test_unreserve_removes_only_the_pod() -> None:
    body = status_body(raw("p", "other"), claim("p"), claim())
    assert uids(body) == ["uid-other"]


def test_deallocation_clears_allocation_and_reservations() -> None:
    body = status_body(raw("p"), claim("p"), evolve(claim(), status=ResourceClaimStatus()))
    assert "allocation" not in body["status"] and "reservedFor" not in body["status"]
