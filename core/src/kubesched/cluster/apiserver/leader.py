"""Lease-based leader election, as client-go's leaderelection runs it for kube-scheduler.

Candidates share one `coordination.k8s.io/v1` Lease. A candidate takes the
lease when it is free or its holder has not renewed it for `leaseDuration`
(measured from when this candidate last saw the record change, never by
comparing clocks); the holder renews it every `retryPeriod` and gives up
leading when it cannot renew within `renewDeadline`. Updates carry the
lease's resourceVersion, so of two candidates racing for it one gets 409
Conflict and stays a follower. A leader that stops on purpose releases the
lease (empty holder, 1 s duration) so a follower takes over at once.
"""

from __future__ import annotations

import asyncio
import logging
import random
import socket
import threading
import time
import uuid
from collections.abc import Callable
from datetime import datetime, timezone
from typing import Any

from kubesched.cluster.apiserver.session import ApiError, ApiSession, api_path

log = logging.getLogger("kubesched.run")

GROUP_VERSION = "coordination.k8s.io/v1"
JITTER = 1.2
HEALTH_TOLERANCE = 20.0
"""How long past its lease a leader that cannot renew still reports healthy (upstream's)."""


def default_identity() -> str:
    """`<hostname>_<uuid>`, as kube-scheduler names itself."""
    return f"{socket.gethostname()}_{uuid.uuid4()}"


def _micro_now() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


class LeaderElector:
    """One candidate for the lease `namespace/name`."""

    def __init__(
        self,
        session: ApiSession,
        *,
        namespace: str,
        name: str,
        lease_duration: float,
        renew_deadline: float,
        retry_period: float,
        identity: str | None = None,
        on_stopped_leading: Callable[[], object] | None = None,
    ) -> None:
        self.session = session
        self.client = session.client("leader", timeout=renew_deadline, max_connections=2)
        """A client of its own, its timeout the renew deadline (kube-scheduler's lock client):
        no backlog of binds or events delays a renewal."""
        self.on_stopped_leading = on_stopped_leading
        """Called (on the API-server thread) when this leader could not renew in time."""
        self.namespace, self.name = namespace, name
        self.lease_duration = lease_duration
        self.renew_deadline = renew_deadline
        self.retry_period = retry_period
        self.identity = identity or default_identity()
        self.leading = threading.Event()
        """Set while this candidate holds the lease."""
        self.lost = threading.Event()
        """Set when a leader could not renew in time."""
        self._task: asyncio.Task[Any] | None = None
        self._observed: dict[str, Any] | None = None
        self._observed_at = 0.0
        self._path = api_path(GROUP_VERSION, "leases", namespace, name)
        self._collection = api_path(GROUP_VERSION, "leases", namespace)

    async def run(self) -> None:
        """Acquire, then renew until renewing fails (sets `lost`) or the task is cancelled."""
        self._task = asyncio.current_task()
        while not await self._try():
            await asyncio.sleep(self.retry_period * (1.0 + random.random() * (JITTER - 1.0)))
        self.leading.set()
        log.info("became leader: %s holds lease %s/%s", self.identity, self.namespace, self.name)
        while True:
            await asyncio.sleep(self.retry_period)
            deadline = time.monotonic() + self.renew_deadline
            while not await self._try():
                if time.monotonic() + self.retry_period > deadline:
                    self.leading.clear()
                    self.lost.set()
                    log.error(
                        "leader election lost: could not renew %s/%s", self.namespace, self.name
                    )
                    if self.on_stopped_leading is not None:
                        self.on_stopped_leading()
                    return
                await asyncio.sleep(self.retry_period)

    def _record(self, old: dict[str, Any] | None) -> dict[str, Any]:
        now = _micro_now()
        record = {
            "holderIdentity": self.identity,
            "leaseDurationSeconds": max(1, round(self.lease_duration)),
            "acquireTime": now,
            "renewTime": now,
            "leaseTransitions": 0,
        }
        if old is not None:
            transitions = int(old.get("leaseTransitions") or 0)
            if old.get("holderIdentity") == self.identity:
                record["acquireTime"] = old.get("acquireTime") or now
                record["leaseTransitions"] = transitions
            else:
                record["leaseTransitions"] = transitions + 1
        return record

    async def _try(self) -> bool:
        """client-go's tryAcquireOrRenew: one attempt; True when this candidate holds the lease."""
        try:
            status, lease = await self.client.request("GET", GROUP_VERSION, self._path)
            if status == 404:
                return await self._write("POST", self._collection, self._lease(self._record(None)))
            if status >= 300:
                raise ApiError.from_status(status, lease)
            spec = lease.get("spec") or {}
            if spec != self._observed:
                self._observed, self._observed_at = spec, time.monotonic()
            holder = spec.get("holderIdentity") or ""
            duration = float(spec.get("leaseDurationSeconds") or self.lease_duration)
            if (
                holder
                and holder != self.identity
                and self._observed_at + duration > time.monotonic()
            ):
                return False
            body = self._lease(self._record(spec), lease.get("metadata", {}).get("resourceVersion"))
            return await self._write("PUT", self._path, body)
        except ApiError as exc:
            log.warning("leader election: %s", exc)
            return False

    def _lease(self, spec: dict[str, Any], version: str | None = None) -> dict[str, Any]:
        meta: dict[str, Any] = {"name": self.name, "namespace": self.namespace}
        if version:
            meta["resourceVersion"] = version
        return {"apiVersion": GROUP_VERSION, "kind": "Lease", "metadata": meta, "spec": spec}

    async def _write(self, method: str, path: tuple[str, str], body: dict[str, Any]) -> bool:
        status, answer = await self.client.request(method, GROUP_VERSION, path, body=body)
        if status == 409:
            return False
        if status >= 300:
            raise ApiError.from_status(status, answer)
        self._observed, self._observed_at = body["spec"], time.monotonic()
        return True

    async def release(self) -> None:
        """Stop campaigning, and give the lease up if this candidate holds it."""
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        if not self.leading.is_set() or self._observed is None:
            return
        self.leading.clear()
        now = _micro_now()
        spec = {
            "holderIdentity": "",
            "leaseDurationSeconds": 1,
            "acquireTime": now,
            "renewTime": now,
            "leaseTransitions": self._observed.get("leaseTransitions", 0),
        }
        try:
            status, lease = await self.client.request("GET", GROUP_VERSION, self._path)
            if status < 300 and (lease.get("spec") or {}).get("holderIdentity") == self.identity:
                version = lease.get("metadata", {}).get("resourceVersion")
                await self._write("PUT", self._path, self._lease(spec, version))
        except ApiError as exc:
            log.warning("could not release the lease: %s", exc)

    def healthy(self) -> bool:
        """False when this leader has gone too long without renewing (upstream's healthz check)."""
        if not self.leading.is_set():
            return True
        return time.monotonic() < self._observed_at + self.lease_duration + HEALTH_TOLERANCE
