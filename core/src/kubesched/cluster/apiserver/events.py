"""Kubernetes events through `events.k8s.io/v1`, as client-go's events broadcaster writes them.

An event is named `<object>.<hex nanoseconds>` in the object's namespace,
reported by the scheduler's profile name (`reportingController`) and
`<controller>-<hostname>` (`reportingInstance`). A repeat of an event with
the same type, reason, action, reporter and object within 6 minutes makes it
a series: the second occurrence patches `series.count` to 2 at once, later
ones only count, and the counts are written every 30 minutes and when a
series ends (6 minutes without a repeat).

Writes never block scheduling, and never crowd out anything else: an event
goes into a bounded queue (1000, client-go's broadcaster queue; when it is
full, events are dropped with one warning until it drains), and a few writer
tasks empty it through a client of their own (`events`, with its own rate
limiter). Before it is queued, an event passes the correlator
(`EventCorrelator`, as client-go's): more than 10 events of one object,
reason and type with different messages within 10 minutes are aggregated
into one "(combined from similar events): ..." series, and a spam filter (a
token bucket per object, reason and type: 25 at once, then one every 5
minutes) drops the rest.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import threading
import time
from collections import deque
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
"""Events waiting to be written at most (client-go's maxQueuedEvents)."""
WRITERS = 4
"""Writer tasks emptying the queue."""
GROUP_VERSION = "events.k8s.io/v1"
AGGREGATE_MAX_EVENTS = 10
AGGREGATE_INTERVAL = 600.0
SPAM_BURST = 25
SPAM_REFILL_SECONDS = 300.0
AGGREGATED_PREFIX = "(combined from similar events): "


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
    created: asyncio.Event | None = None
    """Set once the event exists on the server (a series patch waits for it)."""


class EventCorrelator:
    """client-go's EventCorrelator, before an event is queued: aggregation of similar events
    and the spam filter. `correlate` answers the note to write, or None to drop the event."""

    def __init__(
        self,
        *,
        max_events: int = AGGREGATE_MAX_EVENTS,
        interval: float = AGGREGATE_INTERVAL,
        burst: int = SPAM_BURST,
        refill_seconds: float = SPAM_REFILL_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.max_events, self.interval = max_events, interval
        self.burst, self.refill_seconds = burst, refill_seconds
        self.clock = clock
        self._similar: dict[tuple[str, ...], tuple[float, set[str]]] = {}
        self._buckets: dict[tuple[str, ...], tuple[float, float]] = {}
        self.dropped = 0
        """Events the spam filter dropped."""

    def correlate(self, key: tuple[str, ...], note: str) -> str | None:
        """`key`: the object, type, reason and reporter of the event (not its message)."""
        now = self.clock()
        if not self._allow(key, now):
            self.dropped += 1
            return None
        first, messages = self._similar.get(key, (now, set()))
        if now - first > self.interval:
            first, messages = now, set()
        messages.add(note)
        self._similar[key] = (first, messages)
        if len(messages) >= self.max_events:
            return AGGREGATED_PREFIX + note
        return note

    def _allow(self, key: tuple[str, ...], now: float) -> bool:
        tokens, last = self._buckets.get(key, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - last) / self.refill_seconds)
        if tokens < 1.0:
            self._buckets[key] = (tokens, now)
            return False
        self._buckets[key] = (tokens - 1.0, now)
        return True


@define
class _Queued:
    obj: Any
    event_type: str
    reason: str
    action: str
    note: str
    when: float
    key: tuple[str, ...]


class ApiEventRecorder:
    """The scheduler's EventRecorder, writing events to the API server."""

    def __init__(
        self,
        session: ApiSession,
        controller_of: Callable[[Any], str],
        hostname: str = "",
        *,
        max_queued: int = MAX_QUEUED,
        writers: int = WRITERS,
        correlator: EventCorrelator | None = None,
    ) -> None:
        self.session = session
        self.client = session.client("events", max_connections=writers, lean=True)
        """A client of its own: events never wait behind binds, nor binds behind events."""
        self.controller_of = controller_of
        self.hostname = hostname or socket.gethostname()
        self.correlator = correlator or EventCorrelator()
        self.max_queued = max_queued
        self.writers = writers
        self._cache: dict[tuple[str, ...], _Recorded] = {}
        self._queue: deque[_Queued] = deque()
        self._lock = threading.Lock()
        self._ready: asyncio.Event | None = None
        self._dropping = False
        self.written = 0
        """Events created or patched so far (for tests and logs)."""
        self.dropped = 0
        """Events dropped because the queue was full."""

    @property
    def pending(self) -> int:
        """Events waiting to be written."""
        return len(self._queue)

    def event(self, obj: Any, event_type: str, reason: str, action: str, message: str) -> None:
        controller = self.controller_of(obj)
        regarding = reference(obj)
        similar = (
            event_type,
            action,
            reason,
            controller,
            *(f"{k}={v}" for k, v in sorted(regarding.items())),
        )
        with self._lock:
            note = self.correlator.correlate(similar, message)
            if note is None:
                return
            if len(self._queue) >= self.max_queued:
                self.dropped += 1
                if not self._dropping:
                    self._dropping = True
                    log.warning(
                        "dropping events: %d are waiting to be written (the API server is slow "
                        "or the events rate limit is reached)",
                        len(self._queue),
                    )
                return
            self._queue.append(_Queued(obj, event_type, reason, action, note, time.time(), similar))
        if self._ready is not None:
            self.session.loop.call_soon_threadsafe(self._ready.set)

    async def run(self) -> None:
        """Write queued events until cancelled (the writer tasks), and keep the series."""
        self._ready = asyncio.Event()
        tasks = [asyncio.create_task(self._writer()) for _ in range(self.writers)]
        tasks.append(asyncio.create_task(self.maintain()))
        self._ready.set()
        try:
            await asyncio.gather(*tasks)
        finally:
            for task in tasks:
                task.cancel()

    async def _writer(self) -> None:
        assert self._ready is not None
        while True:
            with self._lock:
                item = self._queue.popleft() if self._queue else None
                if item is None:
                    self._dropping = False
                    self._ready.clear()
            if item is None:
                await self._ready.wait()
                continue
            try:
                await self._write(item)
            except ApiError as exc:
                log.warning(
                    "could not write event %s about %s: %s", item.reason, reference(item.obj), exc
                )

    async def drain(self, timeout: float) -> None:
        """Wait (up to `timeout`) until every queued event is written."""
        deadline = time.monotonic() + timeout
        while self._queue and time.monotonic() < deadline:
            await asyncio.sleep(0.02)

    async def _write(self, item: _Queued) -> None:
        controller = self.controller_of(item.obj)
        regarding = reference(item.obj)
        known = self._cache.get(item.key)
        now = item.when
        if known is not None:
            known.count += 1
            known.last_observed = now
            if known.count == 2:
                if known.created is not None:
                    await known.created.wait()
                await self._patch_series(known, 2, now)
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
            "action": item.action,
            "reason": item.reason,
            "regarding": regarding,
            "note": item.note,
            "type": item.event_type,
        }
        created = asyncio.Event()
        self._cache[item.key] = _Recorded(namespace, name, now, last_observed=now, created=created)
        try:
            await self.client.checked(
                "POST", GROUP_VERSION, api_path(GROUP_VERSION, "events", namespace), body=body
            )
        finally:
            created.set()
        self.written += 1

    async def _patch_series(
        self, recorded: _Recorded, count: int | None = None, observed: float | None = None
    ) -> None:
        count = recorded.count if count is None else count
        observed = recorded.last_observed if observed is None else observed
        series = {"count": count, "lastObservedTime": micro_time(observed)}
        path = api_path(GROUP_VERSION, "events", recorded.namespace, recorded.name)
        await self.client.checked(
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
