"""Scoring by the prioritized list (upstream's computeScore, DRAPrioritizedList): a node where
a `firstAvailable` request is satisfied by an earlier alternative scores higher.

Each subrequest allocated on the node adds `8 - i` (8 is the most alternatives a request may
list, `i` the subrequest's index), summed over the pod's claims: the allocation found on the
node for the claims the scheduler allocates, the recorded one for the claims already
allocated. A node where every prioritized request gets its first alternative scores highest.
NormalizeScore then scales the scores to 0..100 as upstream's DefaultNormalizeScore.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from kubesched.api import ResourceClaim

FIRST_AVAILABLE_MAX_SIZE = 8
"""Upstream's FirstAvailableDeviceRequestMaxSize: the most subrequests a request may list."""


def claim_score(claim: ResourceClaim, allocated_requests: Iterable[str]) -> int:
    """The score of one claim whose devices were allocated for `allocated_requests` (the
    request names of its allocation results: `<request>/<subrequest>` for a subrequest)."""
    allocated = {name for name in allocated_requests if "/" in name}
    score = 0
    for request in claim.spec.devices.requests:
        if request.exactly is not None:
            continue
        for index, sub in enumerate(request.first_available):
            if f"{request.name}/{sub.name}" in allocated:
                score += FIRST_AVAILABLE_MAX_SIZE - index
    return score


def pod_score(claims: Sequence[ResourceClaim], new_allocations: Sequence[Sequence[str]]) -> int:
    """The node's score for the pod's `claims`: the claims not yet allocated take, in order,
    the request names of `new_allocations` (one entry per such claim); a shorter list is an
    error (ValueError), as upstream's."""
    score = 0
    pending = iter(new_allocations)
    for claim in claims:
        allocation = claim.status.allocation
        if allocation is not None:
            names: Iterable[str] = [r.request for r in allocation.devices.results]
        else:
            found = next(pending, None)
            if found is None:
                raise ValueError(
                    f"number of allocations {len(new_allocations)} is smaller than number of "
                    "claims needing allocation"
                )
            names = found
        score += claim_score(claim, names)
    return score
