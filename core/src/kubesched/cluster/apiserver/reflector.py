"""List and watch one kind, as client-go's reflector does.

A reflector lists the kind (in chunks of 500), replaces the store's objects
with the listing, then watches from the listing's resourceVersion with
bookmarks on. When a watch ends (the server's timeout, a dropped connection)
it resumes from the last resourceVersion it saw, so nothing is missed and
nothing is listed again; when the server answers 410 Gone (that version is
too old) it lists afresh, and the store turns the difference into updates and
deletions. Failures wait out an exponential backoff (0.8 s doubling to 30 s,
with jitter, reset after 2 minutes of health: upstream's figures).
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import threading
import time
from typing import Any

import msgspec

from kubesched.api import structure
from kubesched.cluster.apiserver.kinds import Kind
from kubesched.cluster.apiserver.session import ApiError, ApiSession, api_path
from kubesched.cluster.apiserver.store import Stores
from kubesched.errors import InputError

log = logging.getLogger("kubesched.run")

LIST_CHUNK = 500
MIN_WATCH_TIMEOUT = 300.0
"""A watch asks the server to end it after 5 to 10 minutes (upstream's minWatchTimeout)."""


class _Gone(Exception):
    """The resourceVersion is too old: list again."""


class Backoff:
    """Exponential backoff with jitter that resets after a quiet while."""

    def __init__(
        self,
        initial: float = 0.8,
        cap: float = 30.0,
        factor: float = 2.0,
        jitter: float = 1.0,
        reset_after: float = 120.0,
    ) -> None:
        self.initial, self.cap, self.factor = initial, cap, factor
        self.jitter, self.reset_after = jitter, reset_after
        self._current = 0.0
        self._last = 0.0

    def next(self) -> float:
        """The next delay."""
        now = time.monotonic()
        if self._current == 0.0 or now - self._last > self.reset_after:
            self._current = self.initial
        else:
            self._current = min(self.cap, self._current * self.factor)
        self._last = now
        return self._current * (1.0 + random.random() * self.jitter)

    def reset(self) -> None:
        self._current = 0.0


def convert(kind: Kind, raw: Any) -> Any | None:
    """The `kubesched.api` object of a raw one, or None (with a warning) when it does not load."""
    try:
        return structure(raw, kind.model)
    except InputError as exc:
        meta = raw.get("metadata") or {} if isinstance(raw, dict) else {}
        log.warning("skipped %s %s: %s", kind.name, kind.key({"metadata": meta}), exc)
        return None


def _version(raw: Any) -> str:
    return str(((raw or {}).get("metadata") or {}).get("resourceVersion") or "")


class Reflector:
    """Keeps the store's objects of one kind up to date; `run` until cancelled."""

    def __init__(
        self,
        session: ApiSession,
        kind: Kind,
        stores: Stores,
        *,
        backoff: Backoff | None = None,
        watch_timeout: float = MIN_WATCH_TIMEOUT,
    ) -> None:
        self.session, self.kind, self.stores = session, kind, stores
        self.backoff = backoff or Backoff()
        self.watch_timeout = watch_timeout
        self.resource_version = ""
        self.synced = threading.Event()
        """Set once the first listing is in the store."""
        self.lists = 0
        self.watches = 0
        self._path = api_path(kind.group_version, kind.plural)

    def _params(self) -> dict[str, str]:
        return {"fieldSelector": self.kind.field_selector} if self.kind.field_selector else {}

    async def run(self) -> None:
        while True:
            try:
                await self._list()
            except (ApiError, OSError, _Gone, ValueError) as exc:
                await self._pause(f"listing {self.kind.plural} failed: {exc}")
                continue
            except Exception as exc:  # the transport's errors (httpx), whatever their type
                await self._pause(f"listing {self.kind.plural} failed: {exc!r}")
                continue
            self.synced.set()
            await self._watch()

    async def _pause(self, why: str) -> None:
        delay = self.backoff.next()
        log.warning("%s; retrying in %.1fs", why, delay)
        await asyncio.sleep(delay)

    async def _list(self) -> None:
        listed: dict[str, tuple[str, Any]] = {}
        params = {**self._params(), "limit": str(LIST_CHUNK)}
        self.lists += 1
        while True:
            status, body = await self.session.request(
                "GET", self.kind.group_version, self._path, params=params, timeout=60.0
            )
            if status == 410:
                raise _Gone()
            if status >= 300:
                raise ApiError.from_status(status, body)
            for raw in body.get("items") or []:
                obj = convert(self.kind, raw)
                if obj is not None:
                    listed[self.kind.key(raw)] = (_version(raw), obj)
            meta = body.get("metadata") or {}
            if not meta.get("continue"):
                break
            params["continue"] = str(meta["continue"])
        self.stores.replace(self.kind, listed)
        self.resource_version = str(meta.get("resourceVersion") or "")

    async def _watch(self) -> None:
        """Watch and resume until the server says Gone; then return (to list again)."""
        while True:
            started, seen = time.monotonic(), 0
            try:
                seen = await self._watch_once()
            except _Gone:
                log.info(
                    "%s: resourceVersion %s is gone; listing again",
                    self.kind.plural,
                    self.resource_version,
                )
                return
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # a dropped stream, a refused connection, a bad answer
                await self._pause(f"watching {self.kind.plural} failed: {exc!r}")
                continue
            if seen == 0 and time.monotonic() - started < 1.0:
                await self._pause(f"the watch of {self.kind.plural} ended at once")
            elif seen:
                self.backoff.reset()

    async def _watch_once(self) -> int:
        timeout = self.watch_timeout * (1.0 + random.random())
        params = {
            **self._params(),
            "watch": "true",
            "resourceVersion": self.resource_version,
            "allowWatchBookmarks": "true",
            "timeoutSeconds": str(int(timeout)),
        }
        self.watches += 1
        seen = 0
        async with self.session.stream(
            self.kind.group_version, self._path, params, read_timeout=timeout + 30.0
        ) as (status, lines):
            if status == 410:
                raise _Gone()
            if status >= 300:
                text = "".join([line async for line in lines])
                raise ApiError.from_status(status, json.loads(text) if text else None)
            async for line in lines:
                if line.strip():
                    self._event(msgspec.json.decode(line))
                    seen += 1
        return seen

    def _event(self, event: dict[str, Any]) -> None:
        kind, raw = event.get("type"), event.get("object") or {}
        if kind == "ERROR":
            if raw.get("code") == 410:
                raise _Gone()
            raise ApiError.from_status(int(raw.get("code") or 500), raw)
        version = _version(raw)
        if kind in ("ADDED", "MODIFIED"):
            obj = convert(self.kind, raw)
            if obj is not None:
                self.stores.apply(self.kind, self.kind.key(raw), version, obj)
        elif kind == "DELETED":
            self.stores.apply(self.kind, self.kind.key(raw), version, None)
        elif kind != "BOOKMARK":
            raise ApiError(500, "BadEvent", f"unknown watch event type {kind!r}")
        if version:
            self.resource_version = version
