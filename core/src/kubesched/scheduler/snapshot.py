"""The snapshot: the cache frozen for one scheduling cycle, as plugins see it.

It holds copies of the cache's NodeInfos in upstream's zone-interleaved node
order, and one `NodeTable` over them for the batch plugin forms. Between
cycles the cache updates it in place: changed nodes are copied again and only
their table rows recomputed; the rows are rebuilt only when nodes come or go.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from kubesched.framework._node_table import NodeTable
from kubesched.framework._types import NodeInfo


class Snapshot:
    """Implements `SharedLister` over copies of the cache's nodes."""

    __slots__ = ("_infos", "_table")

    def __init__(self, node_infos: Iterable[NodeInfo] = ()) -> None:
        copies = [ni.snapshot() for ni in node_infos]
        self._infos: dict[str, NodeInfo] = {ni.name: ni for ni in copies}
        self._table = NodeTable(copies)

    def node_infos(self) -> Sequence[NodeInfo]:
        return self._table.node_infos

    def get(self, node_name: str) -> NodeInfo | None:
        return self._infos.get(node_name)

    @property
    def node_table(self) -> NodeTable:
        return self._table

    @property
    def num_nodes(self) -> int:
        return len(self._table)

    def apply_changes(self, changed: Iterable[str], live: Mapping[str, NodeInfo]) -> bool:
        """Copy the `live` NodeInfos whose generation moved, for nodes named in `changed`.

        Returns False, changing nothing, when a node was added or removed:
        then the caller must `rebuild`.
        """
        infos = self._infos
        if any((name in live) != (name in infos) for name in changed):
            return False
        rows = []
        index = self._table.index
        for name, ni in live.items():
            if infos[name].generation != ni.generation:
                copy = infos[name] = ni.snapshot()
                rows.append((index[name], copy))
        self._table.replace_rows(rows)
        return True

    def rebuild(self, ordered: Sequence[NodeInfo]) -> None:
        """Take exactly these nodes, in this order (copying those that changed)."""
        infos: dict[str, NodeInfo] = {}
        for ni in ordered:
            existing = self._infos.get(ni.name)
            infos[ni.name] = (
                existing
                if existing is not None and existing.generation == ni.generation
                else ni.snapshot()
            )
        self._infos = infos
        self._table = NodeTable(list(infos.values()))
