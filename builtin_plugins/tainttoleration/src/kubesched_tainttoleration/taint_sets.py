"""Distinct taint sets as small integer ids, for the batch forms.

Most clusters carry only a handful of distinct taint sets (none, the
control-plane taint, a GPU taint...). A `TaintSetIndex` gives each distinct
set of the taints it selects an id, which goes into a `NodeTable` column; a
pod's outcome is then computed once per distinct set and spread over every
row with one numpy indexing operation. Nodes without such taints have id 0.

The index is process-wide (ids stored in a table's column must mean the same
set for every plugin instance that reads that column) and only grows; the
ids never change.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from numpy.typing import DTypeLike, NDArray

from kubesched.api import Taint, Toleration
from kubesched.framework import NodeInfo

NO_NODE = -1
"""The id of a row whose NodeInfo has no node; it maps to the index's `missing` value."""

_CACHE_LIMIT = 4096

TaintKey = tuple[tuple[str, str, str], ...]


class TaintSetIndex:
    """Ids for the distinct sets `select` picks from node taints, and per-set outcomes.

    `evaluate(taints, tolerations)` is the outcome for one set; `outcome` gives
    it for one node, `values_for` for every known set, indexed by id, with
    `missing` last (so id -1 reads it). Both forms of a hook use the one index.
    """

    def __init__(
        self,
        select: Callable[[Sequence[Taint]], tuple[Taint, ...]],
        evaluate: Callable[[tuple[Taint, ...], Sequence[Toleration], bool], Any],
        dtype: DTypeLike,
        missing: Any,
    ) -> None:
        self._select = select
        self._evaluate = evaluate
        self._dtype = np.dtype(dtype)
        self._missing = missing
        self._ids: dict[TaintKey, int] = {(): 0}
        self._sets: list[tuple[Taint, ...]] = [()]
        self._lock = threading.Lock()
        self._values: dict[tuple[bool, tuple[Toleration, ...]], NDArray[Any]] = {}

    def id_of(self, node_info: NodeInfo) -> int:
        """The id of the node's selected taints (a `NodeTable` column extractor)."""
        node = node_info.node
        if node is None:
            return NO_NODE
        taints = self._select(node.spec.taints)
        if not taints:
            return 0
        key = tuple((t.key, t.value, t.effect) for t in taints)
        found = self._ids.get(key)
        if found is not None:
            return found
        with self._lock:
            found = self._ids.get(key)
            if found is None:
                self._sets.append(taints)
                found = self._ids[key] = len(self._sets) - 1
            return found

    def outcome(
        self, taints: Sequence[Taint], tolerations: Sequence[Toleration], comparison: bool = False
    ) -> Any:
        """The outcome for one node's taints: what `values_for` holds at that node's id
        (the per-node hooks' answer). `comparison` is passed on to `evaluate` (the
        TaintTolerationComparisonOperators gate)."""
        return self._evaluate(self._select(taints), tolerations, comparison)

    def values_for(
        self, tolerations: tuple[Toleration, ...], comparison: bool = False
    ) -> NDArray[Any]:
        """The outcome for every known set, by id, then `missing`; cached per tolerations
        (and gate). Read the table column first, so every id in it is known here.
        """
        known = len(self._sets)
        key = (comparison, tolerations)
        values = self._values.get(key)
        if values is not None and len(values) == known + 1:
            return values
        values = np.empty(known + 1, dtype=self._dtype)
        values[:known] = [self._evaluate(s, tolerations, comparison) for s in self._sets[:known]]
        values[known] = self._missing
        values.flags.writeable = False
        if len(self._values) >= _CACHE_LIMIT:
            self._values.clear()
        self._values[key] = values
        return values
