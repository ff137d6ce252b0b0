"""Kubernetes events through `events.k8s.io/v1`, as client-go's events broadcaster writes them.

An event is named `<object>.<hex nanoseconds>` in the object's namespace,
reported by the scheduler's profile name (`reportingController`) and
`<controller>-<hostname>` (`reportingInstance`). A repeat of an event with
the same type, reason, action, reporter and object within 6 minutes makes it
a series: the second occurrence patches `series.count` to 2 at once, later
ones only count, and the counts are written every 30 minutes and when a
series ends (6 minutes without a repeat). Writes never block scheduling:
they run on the API-server thread, at most 1000 waiting (more are dropped).
"""

from __future__ import annotations

import asyncio
import logging
import socket
import threading
import time
from collections.abc import Callable
from datetime import datetime, timezone
from typing import Any

from attrs import define

from kubesched.api import Node, Pod
from kubesched.cluster.apiserver.session import (
    STRATEGIC_MERGE_PATCH,
    ApiError,
    ApiSession,
    api_path,
)

log = logging.getLogger("kubesched.run")

FINISH_TIME = 6 * 60.0
REFRESH_TIME = 30 * 60.0
MAX_QUEUED = 1000
GROUP_VERSION = "events.k8s.io/v1"


def micro_time(when: float) -> str:
    """A metav1.MicroTime: RFC 3339 with microseconds."""
    return datetime.fromtimestamp(when, timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def reference(obj: Any) -> dict[str, str]:
    """The ObjectReference of a pod or a node."""
    if isinstance(obj, Pod):
        meta = obj.metadata
        return {
            "apiVersion": "v1",
            "kind": "Pod",
            "namespace": meta.namespace,
            "name": meta.name,
            "uid": meta.uid,
        }
    if isinstance(obj, Node):
        return {"apiVersion": "v1", "kind": "Node", "name": obj.name, "uid": obj.metadata.uid}
    return {"kind": type(obj).__name__}


@define
class _Recorded:
    """An event as written, and its series."""

    namespace: str
    name: str
    event_time: float
    count: int = 1
    last_observed: float = 0.0


class ApiEventRecorder:
    """The scheduler's EventRecorder, writing events to the API server."""

    def __init__(
        self, session: ApiSession, controller_of: Callable[[Any], str], hostname: str = ""
    ) -> None:
        self.session = session
        self.controller_of = controller_of
        self.hostname = hostname or socket.gethostname()
        self._cache: dict[tuple[str, ...], _Recorded] = {}
        self._slots = threading.BoundedSemaphore(MAX_QUEUED)
        self.written = 0
        """Events created or patched so far (for tests and logs)."""

    def event(self, obj: Any, event_type: str, reason: str, action: str, message: str) -> None:
        if not self._slots.acquire(blocking=False):
            log.warning("dropped event %s %s: too many events waiting", reason, message)
            return
        self.session.spawn(self._record(obj, event_type, reason, action, message, time.time()))

    async def _record(
        self, obj: Any, event_type: str, reason: str, action: str, note: str, now: float
    ) -> None:
        try:
            await self._write(obj, event_type, reason, action, note, now)
        except ApiError as exc:
            log.warning("could not write event %s about %s: %s", reason, reference(obj), exc)
        finally:
            self._slots.release()

    async def _write(
        self, obj: Any, event_type: str, reason: str, action: str, note: str, now: float
    ) -> None:
        controller = self.controller_of(obj)
        regarding = reference(obj)
        key = (
            event_type,
            action,
            reason,
            controller,
            *(f"{k}={v}" for k, v in sorted(regarding.items())),
        )
        known = self._cache.get(key)
        if known is not None:
            known.count += 1
            known.last_observed = now
            if known.count == 2:
                await self._patch_series(known)
            return
        namespace = regarding.get("namespace") or "default"
        name = f"{regarding.get('name', 'unknown')}.{time.time_ns():x}"
        body = {
            "apiVersion": GROUP_VERSION,
            "kind": "Event",
            "metadata": {"name": name, "namespace": namespace},
            "eventTime": micro_time(now),
            "reportingController": controller,
            "reportingInstance": f"{controller}-{self.hostname}",
            "action": action,
            "reason": reason,
            "regarding": regarding,
            "note": note,
            "type": event_type,
        }
        self._cache[key] = _Recorded(namespace, name, now, last_observed=now)
        await self.session.checked(
            "POST", GROUP_VERSION, api_path(GROUP_VERSION, "events", namespace), body=body
        )
        self.written += 1

    async def _patch_series(self, recorded: _Recorded) -> None:
        series = {"count": recorded.count, "lastObservedTime": micro_time(recorded.last_observed)}
        path = api_path(GROUP_VERSION, "events", recorded.namespace, recorded.name)
        await self.session.checked(
            "PATCH",
            GROUP_VERSION,
            path,
            body={"series": series},
            content_type=STRATEGIC_MERGE_PATCH,
        )
        self.written += 1

    async def maintain(self, finish_time: float = FINISH_TIME) -> None:
        """End quiet series every `finish_time`, write running counts every 30 minutes."""
        since_refresh = 0.0
        while True:
            await asyncio.sleep(finish_time)
            since_refresh += finish_time
            now = time.time()
            for key, recorded in list(self._cache.items()):
                quiet = now - recorded.last_observed > finish_time
                series = recorded.count > 1
                try:
                    if series and (quiet or since_refresh >= REFRESH_TIME):
                        await self._patch_series(recorded)
                except ApiError as exc:
                    log.warning("could not update an event series: %s", exc)
                if quiet:
                    del self._cache[key]
            if since_refresh >= REFRESH_TIME:
                since_refresh = 0.0
