"""WhatIfTable: rows of a node table as they would be with some pods removed and others
added, without copying the nodes (preemption's dry run, Filter with nominated pods).

Resource columns and pod counts are the base table's rows plus the changed pods'
requests, summed with integer arithmetic; columns declared `node_only` are the base's
rows as they are. Any other column, and `node_infos`, come from copies of the nodes with
the changes applied (pods removed, then pods added, in order), each made when its row
is first read. The base may itself be a what-if table (the dry run's reprieve steps
over its emptied nodes). The table is read-only: nothing recomputes its rows.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from itertools import chain
from operator import attrgetter, methodcaller
from typing import Any, overload

import numpy as np
from numpy.typing import DTypeLike, NDArray

from kubesched.framework._node_table import Extract, NodeTable
from kubesched.framework._types import NodeInfo, PodInfo

Change = tuple[Sequence[PodInfo], Sequence[PodInfo]]
"""One row's change: the pods removed from its node, then the pods added to it."""

_POD_AMOUNTS = {"requested": "requests", "non_zero_requested": "non_zero_requests"}
"""How a NodeInfo resource kind is summed from its pods: the PodInfo field."""


class WhatIfTable(NodeTable):
    """Rows `rows` of `base`, each changed by its `Change`. `copy_of(i)`, when given, makes
    row i's NodeInfo instead (a caller that keeps copies of its own in step)."""

    __slots__ = ("_base", "_changes", "_copies", "_flat", "_index", "_names", "_rows")

    def __init__(
        self,
        base: NodeTable,
        rows: Sequence[int] | NDArray[np.intp],
        changes: Sequence[Change],
        *,
        copy_of: Callable[[int], NodeInfo] | None = None,
    ) -> None:
        self._base = base
        self._rows = np.asarray(rows, dtype=np.intp)
        self._changes = list(changes)
        self._copies = _RowCopies(len(self._rows), copy_of or self._changed_row)
        self._flat: tuple[_Flat, _Flat] | None = None
        self._names: list[str] | None = None
        self._index: dict[str, int] | None = None
        self._columns: dict[str, NDArray[Any]] = {}
        self._extractors: dict[str, Extract] = {}

    def __len__(self) -> int:
        return len(self._rows)

    @property
    def names(self) -> list[str]:  # type: ignore[override]
        """The rows' node names (worked out on first use: few readers need them)."""
        if self._names is None:
            base_names = self._base.names
            self._names = [base_names[r] for r in self._rows.tolist()]
        return self._names

    @property
    def index(self) -> dict[str, int]:  # type: ignore[override]
        if self._index is None:
            self._index = {n: i for i, n in enumerate(self.names)}
        return self._index

    @property
    def node_infos(self) -> Sequence[NodeInfo]:  # type: ignore[override]
        """The rows' nodes with their changes applied: each a copy made when first read
        (a row without changes is the base's NodeInfo itself)."""
        return self._copies

    def _changed_row(self, i: int) -> NodeInfo:
        node_info = self._base.node_infos[int(self._rows[i])]
        removed, added = self._changes[i]
        if not removed and not added:
            return node_info
        copy = node_info.snapshot()
        for pi in removed:
            copy.remove_pod(pi.pod)
        for pi in added:
            copy.add_pod_info(pi)
        return copy

    def column(
        self, key: str, extract: Extract, dtype: DTypeLike = object, *, node_only: bool = False
    ) -> NDArray[Any]:
        col = self._columns.get(key)
        if col is None:
            if node_only:
                col = self._base.column(key, extract, dtype, node_only=True)[self._rows]
                self._columns[key] = col
            else:
                col = super().column(key, extract, dtype)
        return col

    def resource(self, kind: str, name: str) -> NDArray[np.int64]:
        field = _POD_AMOUNTS.get(kind)
        if field is None and kind != "allocatable":
            return super().resource(kind, name)
        key = f"{kind}:{name}"
        col = self._columns.get(key)
        if col is None:
            col = self._base.resource(kind, name)[self._rows]
            if field is not None:
                col = col + self._delta(field, name)
            self._columns[key] = col
        return col

    def pod_count(self) -> NDArray[np.int64]:
        col = self._columns.get("pod_count")
        if col is None:
            removed, added = self._flats()
            col = self._base.pod_count()[self._rows] + added.counts() - removed.counts()
            self._columns["pod_count"] = col
        return col

    def _delta(self, field: str, name: str) -> NDArray[np.int64]:
        """Per row: the pods added's `field` amounts of `name` minus the pods removed's."""
        removed, added = self._flats()
        return added.sums(field, name) - removed.sums(field, name)

    def _flats(self) -> tuple[_Flat, _Flat]:
        """The pods removed and the pods added, each as one flat list."""
        if self._flat is None:
            self._flat = (
                _Flat([c[0] for c in self._changes]),
                _Flat([c[1] for c in self._changes]),
            )
        return self._flat

    def replace_rows(self, rows: Iterable[tuple[int, NodeInfo]]) -> None:
        raise TypeError("a WhatIfTable is read-only")


class _Flat:
    """Pod lists, one per row, as one list and where each row's pods start in it."""

    __slots__ = ("bounds", "pods")

    def __init__(self, lists: Sequence[Sequence[PodInfo]]) -> None:
        self.pods: list[PodInfo] = list(chain.from_iterable(lists))
        self.bounds = np.zeros(len(lists) + 1, dtype=np.intp)
        if self.pods:
            np.cumsum(np.fromiter(map(len, lists), np.intp, len(lists)), out=self.bounds[1:])

    def counts(self) -> NDArray[np.int64]:
        """Per row: how many pods it has."""
        return np.diff(self.bounds).astype(np.int64, copy=False)

    def sums(self, field: str, name: str) -> NDArray[np.int64]:
        """Per row: the sum of its pods' `field` amounts of `name`."""
        if not self.pods:
            return np.zeros(len(self.bounds) - 1, dtype=np.int64)
        amounts = map(methodcaller("get", name, 0), map(attrgetter(field), self.pods))
        running = np.zeros(len(self.pods) + 1, dtype=np.int64)
        np.cumsum(np.fromiter(amounts, dtype=np.int64, count=len(self.pods)), out=running[1:])
        return running[self.bounds[1:]] - running[self.bounds[:-1]]


class _RowCopies(Sequence[NodeInfo]):
    """A what-if table's NodeInfos, each made by `make(row)` when first read."""

    __slots__ = ("_made", "_make")

    def __init__(self, rows: int, make: Callable[[int], NodeInfo]) -> None:
        self._made: list[NodeInfo | None] = [None] * rows
        self._make = make

    def __len__(self) -> int:
        return len(self._made)

    @overload
    def __getitem__(self, i: int) -> NodeInfo: ...

    @overload
    def __getitem__(self, i: slice) -> list[NodeInfo]: ...

    def __getitem__(self, i: int | slice) -> NodeInfo | list[NodeInfo]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self._made)))]
        made = self._made[i]
        if made is None:
            made = self._made[i] = self._make(range(len(self._made))[i])
        return made
