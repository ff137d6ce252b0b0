"""A pod's dynamic resource claims: `spec.resourceClaims` and `status.resourceClaimStatuses`."""

from __future__ import annotations

from attrs import frozen


@frozen
class PodResourceClaim:
    """One entry of `spec.resourceClaims`: a name the containers use, and either an existing
    ResourceClaim (`resourceClaimName`) or a ResourceClaimTemplate to stamp one from."""

    name: str = ""
    resource_claim_name: str | None = None
    resource_claim_template_name: str | None = None


@frozen
class PodResourceClaimStatus:
    """One entry of `status.resourceClaimStatuses`: the claim generated for a template entry
    (None when none was needed)."""

    name: str = ""
    resource_claim_name: str | None = None
