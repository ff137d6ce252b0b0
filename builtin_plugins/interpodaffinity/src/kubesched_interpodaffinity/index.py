"""ClusterIndex: the snapshot's pods summarised per node once per change, not walked once
per cycle.

Two sparse maps, kept current across cycles by re-reading only the table rows
whose NodeInfo generation moved:

- `terms`: each existing pod's own affinity terms, keyed by (kind, interned term),
  to {row: value}: how many pods on the row carry that required term, or the summed
  weight of that preferred term;
- `groups`: every pod, keyed by its (namespace, labels), to {row: pods}.

A cycle then asks each distinct term or group once whether it selects (or is
selected by) the incoming pod, instead of asking every pod.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from kubesched.api import Pod
from kubesched.framework import AffinityTerm, NodeInfo, NodeTable

REQUIRED_AFFINITY = 0
REQUIRED_ANTI_AFFINITY = 1
PREFERRED_AFFINITY = 2
PREFERRED_ANTI_AFFINITY = 3

TermKey = tuple[int, AffinityTerm]
"""(kind, term): one of the four kinds above and the (interned) term."""
GroupKey = tuple[str, frozenset[tuple[str, str]]]
"""(namespace, labels) of a pod: what a term's match depends on."""
DENSE_AFTER = 64
"""A RowMap with more rows than this keeps a dense copy too."""


class RowMap:
    """table row -> count or summed weight of one term or group (rows without any are
    left out); past DENSE_AFTER rows also as dense columns, so a cycle reads it without
    converting a large dict."""

    __slots__ = ("dense", "present", "size", "values")

    def __init__(self, size: int) -> None:
        self.size = size
        self.values: dict[int, int] = {}
        self.dense: NDArray[np.int64] | None = None
        self.present: NDArray[np.bool_] | None = None

    def __len__(self) -> int:
        return len(self.values)

    def set(self, row: int, value: int) -> None:
        self.values[row] = value
        if self.dense is not None and self.present is not None:
            self.dense[row] = value
            self.present[row] = True
        elif len(self.values) > DENSE_AFTER:
            rows = np.fromiter(self.values.keys(), dtype=np.intp, count=len(self.values))
            self.dense = np.zeros(self.size, dtype=np.int64)
            self.dense[rows] = np.fromiter(self.values.values(), np.int64, len(self.values))
            self.present = np.zeros(self.size, dtype=np.bool_)
            self.present[rows] = True

    def drop(self, row: int) -> None:
        del self.values[row]
        if self.dense is not None and self.present is not None:
            self.dense[row] = 0
            self.present[row] = False


GENERATION_COLUMN = "InterPodAffinity/generation"


def _generation(node_info: NodeInfo) -> int:
    return node_info.generation


def term_summary(node_info: NodeInfo) -> dict[TermKey, int]:
    """The node's pods' own terms: required ones counted, preferred ones' weights summed."""
    out: dict[TermKey, int] = {}
    if node_info.node is None:
        return out
    for pod_info in node_info.pods_with_affinity:
        terms = pod_info.affinity_terms
        for kind, required in (
            (REQUIRED_AFFINITY, terms.required_affinity),
            (REQUIRED_ANTI_AFFINITY, terms.required_anti_affinity),
        ):
            for term in required:
                key = (kind, term)
                out[key] = out.get(key, 0) + 1
        for kind, preferred in (
            (PREFERRED_AFFINITY, terms.preferred_affinity),
            (PREFERRED_ANTI_AFFINITY, terms.preferred_anti_affinity),
        ):
            for weighted in preferred:
                key = (kind, weighted.term)
                out[key] = out.get(key, 0) + weighted.weight
    return out


def group_summary(node_info: NodeInfo) -> tuple[dict[GroupKey, int], dict[GroupKey, Pod]]:
    """How many of the node's pods share each (namespace, labels), and one pod of each."""
    counts: dict[GroupKey, int] = {}
    members: dict[GroupKey, Pod] = {}
    if node_info.node is None:
        return counts, members
    for pod_info in node_info.pods:
        meta = pod_info.pod.metadata
        key = (meta.namespace, frozenset(meta.labels.items()))
        counts[key] = counts.get(key, 0) + 1
        members.setdefault(key, pod_info.pod)
    return counts, members


class ClusterIndex:
    """The terms and groups of the pods of one NodeTable, synced on demand."""

    __slots__ = (
        "_generations",
        "_row_groups",
        "_row_terms",
        "_table",
        "groups",
        "members",
        "terms",
    )

    def __init__(self) -> None:
        self._table: NodeTable | None = None
        self._generations: NDArray[np.int64] = np.empty(0, dtype=np.int64)
        self._row_terms: list[dict[TermKey, int]] = []
        self._row_groups: list[dict[GroupKey, int]] = []
        self.terms: dict[TermKey, RowMap] = {}
        self.groups: dict[GroupKey, RowMap] = {}
        self.members: dict[GroupKey, Pod] = {}

    def sync(self, table: NodeTable) -> None:
        """Bring the maps up to date with `table`: only rows whose generation moved are
        read again; a different table (nodes came or went) is read whole."""
        generations = table.column(GENERATION_COLUMN, _generation, np.int64)
        if table is not self._table or len(generations) != len(self._generations):
            self._reset(len(table))
            self._table, self._generations = table, generations.copy()
            changed: list[int] = list(range(len(table)))
        else:
            changed = np.flatnonzero(generations != self._generations).tolist()
            self._generations[changed] = generations[changed]
        infos = table.node_infos
        for row in changed:
            self._replace(row, infos[row])

    def _reset(self, size: int) -> None:
        self._row_terms = [{} for _ in range(size)]
        self._row_groups = [{} for _ in range(size)]
        self.terms = {}
        self.groups = {}
        self.members = {}

    def _replace(self, row: int, node_info: NodeInfo) -> None:
        for term_key in self._row_terms[row]:
            by_row = self.terms[term_key]
            by_row.drop(row)
            if not by_row:
                del self.terms[term_key]
        for group_key in self._row_groups[row]:
            by_row = self.groups[group_key]
            by_row.drop(row)
            if not by_row:
                del self.groups[group_key], self.members[group_key]
        size = len(self._row_terms)
        terms = term_summary(node_info)
        for term_key, value in terms.items():
            found = self.terms.get(term_key)
            if found is None:
                found = self.terms[term_key] = RowMap(size)
            found.set(row, value)
        groups, members = group_summary(node_info)
        for group_key, count in groups.items():
            found = self.groups.get(group_key)
            if found is None:
                found = self.groups[group_key] = RowMap(size)
                self.members[group_key] = members[group_key]
            found.set(row, count)
        self._row_terms[row] = terms
        self._row_groups[row] = groups

    def groups_matching(self, terms: Sequence[AffinityTerm]) -> list[RowMap]:
        """The rows of the pod groups that every one of `terms` selects (the terms'
        namespaceSelectors merged already)."""
        return [
            self.groups[key]
            for key, pod in self.members.items()
            if all(term.matches(pod) for term in terms)
        ]
