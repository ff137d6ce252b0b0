"""A pod's ResourceClaims: which claim each `spec.resourceClaims` entry means (upstream's
resourceclaim.Name and IsForPod), and the reservation helpers."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Protocol, runtime_checkable

from kubesched.api import (
    RESOURCE_CLAIM_RESERVED_FOR_MAX_SIZE,
    DeviceClass,
    Pod,
    ResourceClaim,
    ResourceClaimConsumerReference,
    ResourceSlice,
)


@runtime_checkable
class ResourceReader(Protocol):
    """A cluster that serves the resource.k8s.io/v1 kinds (the in-memory cluster does)."""

    def get_device_class(self, name: str) -> DeviceClass | None: ...

    def device_classes(self) -> Sequence[DeviceClass]: ...

    def get_resource_claim(self, namespace: str, name: str) -> ResourceClaim | None: ...

    def resource_claims(self) -> Sequence[ResourceClaim]: ...

    def resource_slices(self) -> Sequence[ResourceSlice]: ...

    def update_resource_claim_status(self, claim: ResourceClaim) -> ResourceClaim: ...


class ClaimError(Exception):
    """Why the pod's claims are not usable yet (the pod waits: upstream's errors)."""


def claim_name(pod: Pod, index: int) -> tuple[str | None, bool]:
    """The claim the pod's `spec.resourceClaims[index]` means, and whether it must be
    checked to belong to the pod (it was generated from a template). None: no claim was
    needed for that entry."""
    entry = pod.spec.resource_claims[index]
    if entry.resource_claim_name is not None:
        return entry.resource_claim_name, False
    if entry.resource_claim_template_name is not None:
        for status in pod.status.resource_claim_statuses:
            if status.name == entry.name:
                return status.resource_claim_name, True
        raise ClaimError(f'pod "{pod.key}": ResourceClaim not created yet')
    raise ClaimError(
        f'pod "{pod.key}", spec.resourceClaim "{entry.name}": none of the supported fields are set'
    )


def is_for_pod(pod: Pod, claim: ResourceClaim) -> bool:
    """Whether the pod is the claim's controlling owner."""
    return any(o.controller and o.uid == pod.uid for o in claim.metadata.owner_references)


def pod_claims(
    pod: Pod, get: Callable[[str, str], ResourceClaim | None]
) -> Iterator[tuple[str, ResourceClaim]]:
    """Each (entry name, claim) of the pod, in `spec.resourceClaims` order; raises
    ClaimError for a claim that is missing, being deleted or not the pod's."""
    namespace = pod.metadata.namespace
    for index, entry in enumerate(pod.spec.resource_claims):
        name, must_check_owner = claim_name(pod, index)
        if name is None:
            continue
        claim = get(namespace, name)
        if claim is None:
            raise ClaimError(f'resourceclaim.resource.k8s.io "{name}" not found')
        if claim.metadata.deletion_timestamp is not None:
            raise ClaimError(f'resourceclaim "{name}" is being deleted')
        if must_check_owner and not is_for_pod(pod, claim):
            raise ClaimError(
                f"ResourceClaim {claim.key} was not created for pod {pod.key} (pod is not owner)"
            )
        yield entry.name, claim


def is_reserved_for(pod: Pod, claim: ResourceClaim) -> bool:
    return any(r.uid == pod.uid for r in claim.status.reserved_for)


def can_be_reserved(claim: ResourceClaim) -> bool:
    return len(claim.status.reserved_for) < RESOURCE_CLAIM_RESERVED_FOR_MAX_SIZE


def pod_reference(pod: Pod) -> ResourceClaimConsumerReference:
    """How a claim's `reservedFor` names a pod."""
    return ResourceClaimConsumerReference(
        api_group="", resource="pods", name=pod.metadata.name, uid=pod.uid
    )
