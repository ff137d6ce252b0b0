"""What the scheduler writes to pods: bindings, status patches, deletions.

- Binding: a POST to the pod's `binding` subresource (DefaultBinder's call).
- Status: upstream's PatchPodStatus, a strategic merge patch of the status
  against the pod as the watch last saw it (conditions merge by type), skipped
  when nothing changes, retried on 409/500/503 with client-go's DefaultBackoff
  (10 ms, times 5, four tries). `lastTransitionTime` moves only when a condition's
  status does (upstream's UpdatePodCondition).
- Deletion: a plain DELETE (preemption's victims); a pod already gone is not an error.

Binds and status patches each go through a client of their own (`binding`,
`status`), so that neither waits behind the other's rate limit. Each call
blocks the calling thread (the scheduler's, or a binding worker's) until the
server answers (PodScheduled conditions and nominations do not when
`asynchronous_status` is on, as in `kubesched run`: upstream's asynchronous API
calls), and raises
ApiError with the server's message when it refuses.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import functools
import logging
import random
from typing import Any

from attrs import evolve

from kubesched.api import Pod, PodCondition, PodStatus, Time, structure, unstructure
from kubesched.cluster.apiserver.session import (
    STRATEGIC_MERGE_PATCH,
    ApiError,
    ApiSession,
    api_path,
)
from kubesched.cluster.apiserver.store import Stores

log = logging.getLogger("kubesched.run")

NANOS_PER_SECOND = 1_000_000_000
RETRIABLE = frozenset({409, 500, 503})
"""Upstream's Retriable: conflict, internal error, service unavailable (and refused connections)."""
RETRY_STEPS = 4
RETRY_FIRST = 0.010
RETRY_FACTOR = 5.0
RETRY_JITTER = 0.1


def now_utc() -> Time:
    """Now, in whole seconds: what upstream's metav1.Now() reads as once marshalled."""
    return Time.now().truncate(NANOS_PER_SECOND)


def updated_status(
    status: PodStatus, condition: PodCondition | None, nominated_node_name: str | None
) -> PodStatus:
    """The status with `condition` in place of the one of its type, and the nomination."""
    if condition is not None:
        old = next((c for c in status.conditions if c.type == condition.type), None)
        same = old is not None and (old.status, old.reason, old.message) == (
            condition.status,
            condition.reason,
            condition.message,
        )
        if not same:
            moved = old is None or old.status != condition.status
            when = now_utc() if moved or old is None else old.last_transition_time
            condition = evolve(condition, last_transition_time=when)
            others = [c for c in status.conditions if c.type != condition.type]
            status = evolve(status, conditions=[*others, condition])
    if nominated_node_name is not None:
        status = evolve(status, nominated_node_name=nominated_node_name)
    return status


def status_patch(old: PodStatus, new: PodStatus) -> dict[str, Any]:
    """The strategic merge patch from `old` to `new` (empty when they are equal)."""
    patch: dict[str, Any] = {}
    old_conditions = {c.type: c for c in old.conditions}
    changed = [c for c in new.conditions if old_conditions.get(c.type) != c]
    if changed:
        patch["$setElementOrder/conditions"] = [{"type": c.type} for c in new.conditions]
        patch["conditions"] = [unstructure(c) for c in changed]
    if new.nominated_node_name != old.nominated_node_name:
        patch["nominatedNodeName"] = new.nominated_node_name or None
    return {"status": patch} if patch else {}


class PodWriter:
    """Bind, patch the status of and delete pods through the API server."""

    def __init__(
        self, session: ApiSession, stores: Stores, *, asynchronous_status: bool = False
    ) -> None:
        self.session = session
        self.stores = stores
        self.asynchronous_status = asynchronous_status
        """Status patches are sent without waiting for the answer (upstream's asynchronous
        API calls): the scheduling loop goes on at once, a refusal is logged."""
        self._sent: dict[str, concurrent.futures.Future[Any]] = {}
        """Pod uid -> its status patch in flight: a bind or deletion of that pod waits for it,
        so that a late `PodScheduled=False` never lands on a bound pod."""
        self.binding = session.client("binding", lean=True)
        """Binds have a client (and a rate limiter) of their own, as status patches do."""
        self.status = session.client("status", lean=True)

    def _path(self, pod: Pod, *rest: str) -> tuple[str, str]:
        return api_path("v1", "pods", pod.metadata.namespace, pod.metadata.name, *rest)

    def _forget_sent(self, uid: str, done: concurrent.futures.Future[Any]) -> None:
        if self._sent.get(uid) is done:
            del self._sent[uid]

    def _after_status_patch(self, pod: Pod) -> None:
        sent = self._sent.pop(pod.uid, None)
        if sent is not None:
            with contextlib.suppress(Exception):
                sent.result(self.session.request_timeout * (RETRY_STEPS + 1))

    def bind(self, pod: Pod, node_name: str) -> None:
        self._after_status_patch(pod)
        binding = {
            "apiVersion": "v1",
            "kind": "Binding",
            "metadata": {
                "name": pod.metadata.name,
                "namespace": pod.metadata.namespace,
                "uid": pod.uid,
            },
            "target": {"apiVersion": "v1", "kind": "Node", "name": node_name},
        }
        coro = self.binding.checked("POST", "v1", self._path(pod, "binding"), body=binding)
        self.session.call(coro, self.session.request_timeout * 2)

    def delete_pod(self, pod: Pod, reason: str = "") -> None:
        self._after_status_patch(pod)

        async def delete() -> None:
            status, body = await self.session.request("DELETE", "v1", self._path(pod))
            if status >= 300 and status != 404:
                raise ApiError.from_status(status, body)

        self.session.call(delete(), self.session.request_timeout * 2)

    def update_pod_status(
        self,
        pod: Pod,
        *,
        condition: PodCondition | None = None,
        nominated_node_name: str | None = None,
    ) -> Pod:
        live = self.stores.get_pod(pod.uid) or pod
        new = updated_status(live.status, condition, nominated_node_name)
        patch = status_patch(live.status, new)
        if not patch:
            return live
        # Only the scheduler's own PodScheduled condition and nomination go without waiting: a
        # victim's DisruptionTarget must be in place before the victim is deleted.
        if self.asynchronous_status and (condition is None or condition.type == "PodScheduled"):
            sent = self._sent[pod.uid] = self.session.spawn(self._patch_logged(live, patch))
            sent.add_done_callback(functools.partial(self._forget_sent, pod.uid))
            return evolve(live, status=new)
        timeout = self.session.request_timeout * (RETRY_STEPS + 1)
        body = self.session.call(self._patch_with_retries(live, patch), timeout)
        try:
            return structure(body, Pod) if body else evolve(live, status=new)
        except Exception:  # an answer that does not load: what we asked for stands
            return evolve(live, status=new)

    async def _patch_logged(self, pod: Pod, patch: dict[str, Any]) -> None:
        try:
            await self._patch_with_retries(pod, patch)
        except ApiError as exc:
            log.warning("could not update the status of pod %s: %s", pod.key, exc)

    async def _patch_with_retries(self, pod: Pod, patch: dict[str, Any]) -> Any:
        delay = RETRY_FIRST
        for step in range(RETRY_STEPS):
            try:
                return await self.status.checked(
                    "PATCH",
                    "v1",
                    self._path(pod, "status"),
                    body=patch,
                    content_type=STRATEGIC_MERGE_PATCH,
                )
            except ApiError as exc:
                retriable = exc.code in RETRIABLE or exc.reason == "ConnectionRefused"
                if not retriable or step == RETRY_STEPS - 1:
                    raise
            await asyncio.sleep(delay * (1.0 + random.random() * RETRY_JITTER))
            delay *= RETRY_FACTOR
        raise AssertionError("unreachable")
