"""What the scheduler writes to ResourceClaims, and the claims it has written but not yet seen
come back through the watch.

DynamicResources hands over a claim as it wants it (`ClaimWriter.write`): the
allocation it made and the consumers the claim is reserved for, plus the
`resource.kubernetes.io/delete-protection` finalizer that goes with an
allocation. Written as upstream's PreBind writes it: the finalizer by an update
of the claim itself, the allocation and `reservedFor` by an update of its
`status` subresource (the verbs upstream's system:kube-scheduler role grants:
get and update on `resourceclaims` and `resourceclaims/status`). Each update
starts from the claim as the API server has it now (a GET), so fields kubesched
does not model (`status.devices`, say) are kept, applies only what the scheduler
changed (its allocation, the consumers it added or removed: another's concurrent
reservation stays), and carries the resourceVersion read, so a change made in
between is refused (409) rather than lost.

The claim the API server answers with is assumed (upstream's assume cache)
until the watch delivers that version or a newer one: the next pod's PreFilter
must see the devices this one got, even before the watch catches up.
"""

from __future__ import annotations

import threading
from typing import Any

from kubesched.api import ResourceClaim, structure, unstructure
from kubesched.cluster.apiserver.kinds import RESOURCE_CLAIMS
from kubesched.cluster.apiserver.session import ApiError, ApiSession, api_path


def _version(raw: Any) -> int:
    try:
        return int(((raw or {}).get("metadata") or {}).get("resourceVersion") or 0)
    except (TypeError, ValueError):
        return 0


def status_body(
    live: dict[str, Any], base: ResourceClaim | None, claim: ResourceClaim
) -> dict[str, Any]:
    """`live` (the raw claim now) with the changes from `base` (the claim the scheduler read)
    to `claim` (what it wants) applied: its allocation when it changed it, the consumers it
    added and removed (others' concurrent reservations are kept)."""
    status = dict(live.get("status") or {})
    before = base.status if base is not None else None
    if before is None or before.allocation != claim.status.allocation:
        if claim.status.allocation is not None:
            status["allocation"] = unstructure(claim.status.allocation)
        else:
            status.pop("allocation", None)
    had = {r.uid for r in before.reserved_for} if before is not None else set()
    wanted = {r.uid for r in claim.status.reserved_for}
    kept = [r for r in status.get("reservedFor") or [] if r.get("uid") not in had - wanted]
    present = {r.get("uid") for r in kept}
    added = [unstructure(r) for r in claim.status.reserved_for if r.uid not in present | had]
    if kept or added:
        status["reservedFor"] = [*kept, *added]
    else:
        status.pop("reservedFor", None)
    return {**live, "status": status}


class ClaimWriter:
    """Writes claims through the API server and remembers them until the watch has them."""

    def __init__(self, session: ApiSession) -> None:
        self.session = session
        self.client = session.client("resourceclaims")
        """Claim writes have a client (and a rate limiter) of their own, as binds do."""
        self._lock = threading.Lock()
        self._assumed: dict[str, tuple[int, ResourceClaim]] = {}
        """`namespace/name` -> (resourceVersion, the claim) as the API server answered."""

    def _path(self, claim: ResourceClaim, *rest: str) -> tuple[str, str]:
        meta = claim.metadata
        return api_path(
            RESOURCE_CLAIMS.group_version, "resourceclaims", meta.namespace, meta.name, *rest
        )

    async def _write(self, base: ResourceClaim | None, claim: ResourceClaim) -> Any:
        gv = RESOURCE_CLAIMS.group_version
        live = await self.client.checked("GET", gv, self._path(claim))
        meta = live.get("metadata") or {}
        if claim.metadata.uid and meta.get("uid") != claim.metadata.uid:
            raise ApiError(
                409,
                "Conflict",
                f'resourceclaims "{claim.metadata.name}" was replaced in the meantime',
            )
        reserved = {r.get("uid") for r in (live.get("status") or {}).get("reservedFor") or []}
        reserving = any(r.uid not in reserved for r in claim.status.reserved_for)
        if meta.get("deletionTimestamp") and reserving:
            raise ApiError(409, "Conflict", f"claim {claim.key} got deleted in the meantime")
        finalizers = list(meta.get("finalizers") or [])
        missing = [f for f in claim.metadata.finalizers if f not in finalizers]
        if missing:
            body = {**live, "metadata": {**meta, "finalizers": [*finalizers, *missing]}}
            live = await self.client.checked("PUT", gv, self._path(claim), body=body)
        return await self.client.checked(
            "PUT", gv, self._path(claim, "status"), body=status_body(live, base, claim)
        )

    def write(self, base: ResourceClaim | None, claim: ResourceClaim) -> ResourceClaim:
        """Write the claim's finalizers (when some are missing) and the changes of its status
        from `base` (the claim as the scheduler read it); the claim as the API server has it
        now. Raises ApiError when the server refuses."""
        raw = self.session.call(self._write(base, claim), self.session.request_timeout * 3)
        written: ResourceClaim = structure(raw, ResourceClaim)
        with self._lock:
            self._assumed[claim.key] = (_version(raw), written)
        return written

    def current(self, key: str, watched: tuple[str, Any] | None) -> ResourceClaim | None:
        """The claim at `key`: the one written here while the watch (`watched`: its
        resourceVersion and claim, None when gone) has not delivered that version yet,
        else the watched one."""
        with self._lock:
            found = self._assumed.get(key)
            if found is None:
                return watched[1] if watched is not None else None
            if (
                watched is None
                or _version({"metadata": {"resourceVersion": watched[0]}}) >= found[0]
            ):
                del self._assumed[key]
                return watched[1] if watched is not None else None
            return found[1]

    def pending(self) -> bool:
        """Are some written claims not watched yet?"""
        with self._lock:
            return bool(self._assumed)
