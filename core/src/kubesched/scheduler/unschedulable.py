"""The unschedulable pods of the scheduling queue, with the gated ones kept apart.

Upstream keeps pods rejected by a scheduling attempt and pods held by a
PreEnqueue plugin (gated) in one map, and every cluster event walks it; a gated
pod is only worth requeuing if the plugin gating it registered that event. With
many gated pods, walking them on every binding costs O(gated pods) per pod
scheduled. Here the gated pods are also indexed by (profile, gating plugin), so
an event no gating plugin registered walks only the rejected pods: the gated
ones would all have stayed, so the pods moved are the same.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from kubesched.scheduler.entry import QueueEntry

GatingKey = tuple[str, str]
"""A gated pod's profile (scheduler name) and the PreEnqueue plugin gating it."""


def gating_key(entry: QueueEntry) -> GatingKey:
    return entry.pod.spec.scheduler_name, entry.gating_plugin


class UnschedulablePods:
    """Every unschedulable pod by uid, in arrival order, with the rejected (not gated) ones
    and the gated ones per gating key beside."""

    def __init__(self) -> None:
        self._all: dict[str, QueueEntry] = {}
        self._rejected: dict[str, QueueEntry] = {}
        self._gated: dict[GatingKey, dict[str, QueueEntry]] = {}
        self._where: dict[str, GatingKey | None] = {}
        """Where each uid is indexed: its gating key, or None (with the rejected ones)."""

    def __len__(self) -> int:
        return len(self._all)

    def __contains__(self, uid: object) -> bool:
        return uid in self._all

    def __iter__(self) -> Iterator[QueueEntry]:
        return iter(self._all.values())

    def get(self, uid: str) -> QueueEntry | None:
        return self._all.get(uid)

    def gated_count(self) -> int:
        return len(self._all) - len(self._rejected)

    def gating_keys(self) -> list[GatingKey]:
        """The (profile, plugin) pairs gating at least one pod here."""
        return list(self._gated)

    def rejected(self) -> list[QueueEntry]:
        """The pods that are not gated, in arrival order."""
        return list(self._rejected.values())

    def walked_for(self, interested: Callable[[GatingKey], bool]) -> list[QueueEntry]:
        """The pods a cluster event looks at: every one if a plugin gating some registered
        the event (`interested`), else the rejected ones only (a gated pod whose gating
        plugin did not register the event stays where it is)."""
        if any(interested(key) for key in self._gated):
            return list(self._all.values())
        return list(self._rejected.values())

    def put(self, entry: QueueEntry) -> None:
        """Add the entry, or index it anew where its uid is (its gating may have changed)."""
        uid = entry.uid
        key = gating_key(entry) if entry.gated else None
        if uid in self._where and self._where[uid] != key:
            self._unindex(uid)
        self._all[uid] = entry
        self._where[uid] = key
        if key is None:
            self._rejected[uid] = entry
        else:
            self._gated.setdefault(key, {})[uid] = entry

    def put_if_absent(self, entry: QueueEntry) -> None:
        """Add the entry unless its uid is here (then index what is here anew)."""
        held = self._all.get(entry.uid)
        self.put(entry if held is None else held)

    def pop(self, uid: str) -> QueueEntry | None:
        self._unindex(uid)
        return self._all.pop(uid, None)

    def _unindex(self, uid: str) -> None:
        if uid not in self._where:
            return
        key = self._where.pop(uid)
        if key is None:
            del self._rejected[uid]
            return
        group = self._gated[key]
        del group[uid]
        if not group:
            del self._gated[key]
