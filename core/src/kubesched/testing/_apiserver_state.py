"""The state of the fake API server: objects by resource, one resourceVersion counter,
and the log of changes its watches replay.

Every write bumps the counter and appends an event; a watch from version N
replays the events after N that it selects. `compact` forgets the log up to
now, so a watch from an older version is answered 410 Gone, as etcd's
compaction makes a real API server answer.
"""

from __future__ import annotations

import bisect
import copy
import json
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Mapping
from datetime import datetime, timezone
from typing import Any

from attrs import frozen

Resource = tuple[str, str]
"""(group/version, plural): ("v1", "pods"), ("coordination.k8s.io/v1", "leases")."""


class StatusError(Exception):
    """A request the server refuses: an HTTP code, a reason and a message (a `Status`)."""

    def __init__(self, code: int, reason: str, message: str) -> None:
        super().__init__(message)
        self.code, self.reason, self.message = code, reason, message

    def status(self) -> dict[str, Any]:
        return {
            "kind": "Status",
            "apiVersion": "v1",
            "metadata": {},
            "status": "Failure",
            "message": self.message,
            "reason": self.reason,
            "code": self.code,
        }


@frozen
class Event:
    """One change: its version, resource, the object before and after (None: absent)."""

    version: int
    resource: Resource
    old: dict[str, Any] | None
    new: dict[str, Any] | None


def field_value(obj: Mapping[str, Any], path: str) -> str:
    value: Any = obj
    for part in path.split("."):
        value = value.get(part) if isinstance(value, Mapping) else None
    return "" if value is None else str(value)


def selects(selector: str, obj: Mapping[str, Any] | None) -> bool:
    """Does a field selector (`status.phase!=Failed,spec.nodeName=`) select the object?"""
    if obj is None:
        return False
    for term in filter(None, selector.split(",")):
        if "!=" in term:
            path, value = term.split("!=", 1)
            if field_value(obj, path) == value:
                return False
        else:
            path, value = term.split("==", 1) if "==" in term else term.split("=", 1)
            if field_value(obj, path) != value:
                return False
    return True


def merge_patch(target: dict[str, Any], patch: Mapping[str, Any], strategic: bool) -> None:
    """Apply a JSON merge patch, or a strategic one (lists of conditions merge by type)."""
    for key, value in patch.items():
        if key.startswith("$"):
            continue
        if value is None:
            target.pop(key, None)
        elif strategic and key == "conditions" and isinstance(value, list):
            merged = {c.get("type"): c for c in target.get(key) or []}
            for condition in value:
                merged[condition.get("type")] = {
                    **merged.get(condition.get("type"), {}),
                    **condition,
                }
            target[key] = list(merged.values())
        elif isinstance(value, Mapping) and isinstance(target.get(key), dict):
            merge_patch(target[key], value, strategic)
        else:
            target[key] = copy.deepcopy(value)


def _now() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


class State:
    """Objects, the version counter, the change log, and a condition watches wait on."""

    def __init__(self) -> None:
        self.cond = threading.Condition()
        self.version = 1
        self.compacted = 0
        self.objects: dict[Resource, dict[str, dict[str, Any]]] = {}
        self.log: list[Event] = []

    def _key(self, namespace: str, name: str) -> str:
        return f"{namespace}/{name}"

    def _record(self, resource: Resource, old: Any, new: Any) -> None:
        self.log.append(Event(self.version, resource, copy.deepcopy(old), copy.deepcopy(new)))
        self.cond.notify_all()

    def _stamp(self, obj: dict[str, Any]) -> None:
        self.version += 1
        obj.setdefault("metadata", {})["resourceVersion"] = str(self.version)

    def list(self, resource: Resource, namespace: str) -> tuple[list[dict[str, Any]], int]:
        with self.cond:
            items = [
                copy.deepcopy(o)
                for o in self.objects.get(resource, {}).values()
                if not namespace or o["metadata"].get("namespace") == namespace
            ]
            return items, self.version

    def get(self, resource: Resource, namespace: str, name: str) -> dict[str, Any]:
        with self.cond:
            obj = self.objects.get(resource, {}).get(self._key(namespace, name))
            if obj is None:
                raise StatusError(404, "NotFound", f'{resource[1]} "{name}" not found')
            return copy.deepcopy(obj)

    def create(self, resource: Resource, namespace: str, obj: dict[str, Any]) -> dict[str, Any]:
        with self.cond:
            obj = copy.deepcopy(obj)
            meta = obj.setdefault("metadata", {})
            if namespace:
                meta["namespace"] = namespace
            name = meta.get("name", "")
            store = self.objects.setdefault(resource, {})
            if self._key(namespace, name) in store:
                raise StatusError(409, "AlreadyExists", f'{resource[1]} "{name}" already exists')
            meta.setdefault("uid", str(uuid.uuid4()))
            meta.setdefault("creationTimestamp", _now())
            meta.pop("resourceVersion", None)
            self._stamp(obj)
            store[self._key(namespace, name)] = obj
            self._record(resource, None, obj)
            return copy.deepcopy(obj)

    def update(
        self, resource: Resource, namespace: str, name: str, obj: dict[str, Any], check: bool
    ) -> dict[str, Any]:
        """Replace an object; with `check`, only if its resourceVersion is current (else 409)."""
        with self.cond:
            old = self.get(resource, namespace, name)
            wanted = (obj.get("metadata") or {}).get("resourceVersion")
            if check and wanted and wanted != old["metadata"]["resourceVersion"]:
                raise StatusError(
                    409,
                    "Conflict",
                    f'Operation cannot be fulfilled on {resource[1]} "{name}": the object has '
                    "been modified; please apply your changes to the latest version and try again",
                )
            new = copy.deepcopy(obj)
            new["metadata"] = {**old["metadata"], **(new.get("metadata") or {})}
            self._stamp(new)
            self.objects[resource][self._key(namespace, name)] = new
            self._record(resource, old, new)
            return copy.deepcopy(new)

    def patch(
        self,
        resource: Resource,
        namespace: str,
        name: str,
        patch: Mapping[str, Any],
        strategic: bool,
    ) -> dict[str, Any]:
        with self.cond:
            new = self.get(resource, namespace, name)
            merge_patch(new, patch, strategic)
            return self.update(resource, namespace, name, new, check=False)

    def delete(self, resource: Resource, namespace: str, name: str) -> dict[str, Any]:
        with self.cond:
            old = self.get(resource, namespace, name)
            del self.objects[resource][self._key(namespace, name)]
            self.version += 1
            self._record(resource, old, None)
            return old

    def compact(self) -> None:
        """Forget every change so far: watches from older versions get 410 Gone."""
        with self.cond:
            self.compacted = self.version
            self.log.clear()

    def watch(
        self,
        resource: Resource,
        namespace: str,
        selector: str,
        since: int,
        timeout: float,
        bookmarks: bool,
        cut: Callable[[], Callable[[], bool]],
    ) -> Iterator[dict[str, Any] | None]:
        """The watch events after version `since` until `timeout` (a bookmark last when
        asked for); None when the stream is cut. A compacted `since` gets 410 Gone."""
        is_cut = cut()
        deadline = time.monotonic() + timeout
        with self.cond:
            if since and since < self.compacted:
                gone = StatusError(
                    410, "Expired", f"too old resource version: {since} ({self.compacted})"
                )
                yield {"type": "ERROR", "object": gone.status()}
                return
        while True:
            with self.cond:
                pending = _after(self.log, resource, since)
                while not pending and not is_cut():
                    left = deadline - time.monotonic()
                    if left <= 0:
                        break
                    self.cond.wait(min(left, 0.5))
                    pending = _after(self.log, resource, since)
                if is_cut():
                    yield None
                    return
                if not pending:
                    if bookmarks:
                        meta = {"resourceVersion": str(self.version)}
                        yield {"type": "BOOKMARK", "object": {"kind": "Bookmark", "metadata": meta}}
                    return
            for event in pending:
                since = event.version
                change = watch_event(event, namespace, selector)
                if change is not None:
                    yield change


def _after(log: list[Event], resource: Resource, since: int) -> list[Event]:
    """The events of `resource` after version `since` (the log is in version order)."""
    start = bisect.bisect_right(log, since, key=lambda e: e.version)
    return [e for e in log[start:] if e.resource == resource]


def watch_event(event: Event, namespace: str, selector: str) -> dict[str, Any] | None:
    """The watch event a change makes for a watcher of `namespace` and `selector`: an object
    that starts to match is ADDED, one that stops matching is DELETED."""

    def seen(obj: dict[str, Any] | None) -> bool:
        if obj is None or (namespace and obj["metadata"].get("namespace") != namespace):
            return False
        return selects(selector, obj)

    before, after = seen(event.old), seen(event.new)
    if after:
        return {"type": "MODIFIED" if before else "ADDED", "object": event.new}
    if before:
        gone = json.loads(json.dumps(event.old))
        gone["metadata"]["resourceVersion"] = str(event.version)
        return {"type": "DELETED", "object": gone}
    return None
