"""What the watches have seen: every followed kind's objects, and the changes not yet taken.

Reflectors write here from the API-server thread; the scheduler reads the
objects and takes the changes from its own thread, between cycles. One lock
guards both, so a listing and the changes taken with it (`consistent`) never
disagree: what is in the listing is not handed over again as a change.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from kubesched.api import Pod
from kubesched.cluster.apiserver.kinds import PODS, Kind

Change = tuple[Any, Any]


class Stores:
    """The objects of each kind by key, with their resourceVersion; the pending changes."""

    def __init__(self, kinds: Iterable[Kind]) -> None:
        self._lock = threading.RLock()
        self._objects: dict[str, dict[str, tuple[str, Any]]] = {k.name: {} for k in kinds}
        self._pods_by_uid: dict[str, Pod] = {}
        self._changes: list[Change] = []
        self.changed = threading.Event()
        """Set when a change arrives; cleared when the changes are taken."""

    @contextmanager
    def consistent(self) -> Iterator[None]:
        """Hold the watches back: listings and `take_changes` inside agree with each other."""
        with self._lock:
            yield

    def _record(self, old: Any, new: Any) -> None:
        self._changes.append((old, new))
        self.changed.set()

    def _index(self, kind: Kind, old: Any, new: Any) -> None:
        if kind is not PODS:
            return
        if old is not None:
            self._pods_by_uid.pop(old.uid, None)
        if new is not None:
            self._pods_by_uid[new.uid] = new

    def apply(self, kind: Kind, key: str, version: str, obj: Any) -> None:
        """An object added or updated (`obj`), or deleted (`obj` None), as a watch saw it."""
        with self._lock:
            objects = self._objects[kind.name]
            previous = objects.get(key)
            old = previous[1] if previous is not None else None
            if obj is None:
                if previous is None:
                    return
                del objects[key]
            else:
                objects[key] = (version, obj)
            self._index(kind, old, obj)
            self._record(old, obj)

    def replace(self, kind: Kind, listed: dict[str, tuple[str, Any]]) -> None:
        """A fresh listing: what it lacks was deleted, what changed was updated."""
        with self._lock:
            objects = self._objects[kind.name]
            for key in [k for k in objects if k not in listed]:
                self.apply(kind, key, "", None)
            for key, (version, obj) in listed.items():
                previous = objects.get(key)
                if previous is None or previous[0] != version:
                    self.apply(kind, key, version, obj)

    def objects(self, kind: Kind) -> list[Any]:
        with self._lock:
            return [obj for _, obj in self._objects[kind.name].values()]

    def get(self, kind: Kind, key: str) -> Any:
        """The object of a followed kind at this key (`namespace/name` or `name`), or None."""
        with self._lock:
            found = self._objects.get(kind.name, {}).get(key)
            return found[1] if found is not None else None

    def get_versioned(self, kind: Kind, key: str) -> tuple[str, Any] | None:
        """(resourceVersion, object) of a followed kind at this key, or None."""
        with self._lock:
            return self._objects.get(kind.name, {}).get(key)

    def objects_versioned(self, kind: Kind) -> dict[str, tuple[str, Any]]:
        """Every object of a followed kind by key, with its resourceVersion."""
        with self._lock:
            return dict(self._objects.get(kind.name, {}))

    def get_pod(self, uid: str) -> Pod | None:
        with self._lock:
            return self._pods_by_uid.get(uid)

    def take_changes(self) -> list[Change]:
        with self._lock:
            changes, self._changes = self._changes, []
            self.changed.clear()
            return changes
