"""NodeTable: columnar node data for the batch forms of Filter and Score.

The snapshot keeps one table, rows in snapshot node order. A column is
derived from each row's NodeInfo by an `extract` function and cached; when
the snapshot updates nodes whose generation changed, only their rows are
recomputed. Built-in plugins and third-party ones declare their own columns
the same way (`table.column("tainttoleration/hard", fn, node_only=True)`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar, overload

import numpy as np
from numpy.typing import DTypeLike, NDArray

from kubesched.framework._types import NodeInfo

Extract = Callable[[NodeInfo], Any]
T = TypeVar("T")


class NodeTable:
    """Columns over a fixed list of NodeInfo rows."""

    __slots__ = ("_columns", "_extractors", "index", "names", "node_infos")

    def __init__(self, node_infos: Sequence[NodeInfo]) -> None:
        self.node_infos: list[NodeInfo] = list(node_infos)
        self.names: list[str] = [ni.name for ni in self.node_infos]
        self.index: dict[str, int] = {n: i for i, n in enumerate(self.names)}
        self._columns: dict[str, NDArray[Any]] = {}
        self._extractors: dict[str, Extract] = {}

    def __len__(self) -> int:
        return len(self.node_infos)

    def column(
        self, key: str, extract: Extract, dtype: DTypeLike = object, *, node_only: bool = False
    ) -> NDArray[Any]:
        """The column `key`, built with `extract` on first use and kept current after.

        `node_only` declares that `extract` reads only the Node object, never its pods: a
        what-if table (`WhatIfTable`) then takes the column from its base table as is
        instead of copying the nodes to work it out."""
        col = self._columns.get(key)
        if col is None:
            values = [extract(ni) for ni in self.node_infos]
            if np.dtype(dtype) == np.dtype(object):
                col = np.empty(len(values), dtype=object)
                col[:] = values
            else:
                col = np.array(values, dtype=dtype)
            self._keep(key, col, extract)
        return col

    def _keep(self, key: str, col: NDArray[Any], extract: Extract) -> None:
        """Cache column `key`, and how to recompute one of its rows."""
        self._columns[key] = col
        self._extractors[key] = extract

    def resource(self, kind: str, name: str) -> NDArray[np.int64]:
        """Integer column of `kind` ("allocatable", "requested", "non_zero_requested") for a
        resource; absent resources are 0."""

        def extract(ni: NodeInfo) -> int:
            return int(getattr(ni, kind).get(name, 0))

        key = f"{kind}:{name}"
        col = self._columns.get(key)
        if col is None:  # built without a call per row: the dry run's what-if tables are many
            amounts = [getattr(ni, kind).get(name, 0) for ni in self.node_infos]
            col = np.array(amounts, dtype=np.int64)
            self._keep(key, col, extract)
        return col

    def pod_count(self) -> NDArray[np.int64]:
        """Number of pods on each node."""
        return self.column("pod_count", lambda ni: len(ni.pods), np.int64)

    def replace_rows(self, rows: Iterable[tuple[int, NodeInfo]]) -> None:
        """Put new NodeInfos at these rows and recompute every column there."""
        for i, ni in rows:
            self.node_infos[i] = ni
            for key, extract in self._extractors.items():
                self._columns[key][i] = extract(ni)


class RowView(Sequence[T]):
    """The items of a per-row list (names, NodeInfos) at some table rows, looked up on
    access instead of copied: PreScore's `nodes`, NormalizeScore's `names`."""

    __slots__ = ("_items", "_rows")

    def __init__(self, items: Sequence[T], rows: NDArray[np.intp]) -> None:
        self._items = items
        self._rows = rows

    def __len__(self) -> int:
        return len(self._rows)

    @property
    def rows(self) -> NDArray[np.intp]:
        """The table rows viewed, in order (a batch form can index columns with them)."""
        return self._rows

    @overload
    def __getitem__(self, i: int) -> T: ...

    @overload
    def __getitem__(self, i: slice) -> RowView[T]: ...

    def __getitem__(self, i: int | slice) -> T | RowView[T]:
        if isinstance(i, slice):
            return RowView(self._items, self._rows[i])
        return self._items[int(self._rows[i])]
