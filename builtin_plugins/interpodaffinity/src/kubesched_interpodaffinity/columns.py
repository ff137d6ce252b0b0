"""Batch forms over the NodeTable: one label column per topology key, looked up in the
cycle's count and score maps (the same checks as Filter and Score, node by node)."""

from __future__ import annotations

from functools import partial
from itertools import repeat
from typing import Any

import numpy as np
from numpy.typing import NDArray

from kubesched.framework import NodeInfo, NodeTable
from kubesched_interpodaffinity.counts import TopologyCounts, matches_all
from kubesched_interpodaffinity.filtering import PreFilterState
from kubesched_interpodaffinity.scoring import PreScoreState


def _label(key: str, node_info: NodeInfo) -> str | None:
    node = node_info.node
    return None if node is None else node.metadata.labels.get(key)


def label_column(table: NodeTable, key: str) -> NDArray[Any]:
    """Each node's value of label `key`, None where it has none."""
    return table.column(f"InterPodAffinity/label:{key}", partial(_label, key))


def _lookup(column: NDArray[Any], values: dict[str, int]) -> NDArray[np.int64]:
    """`values[label]` for each row; 0 where the label is missing or has no entry."""
    return np.fromiter(map(values.get, column, repeat(0)), dtype=np.int64, count=len(column))


def _counts(table: NodeTable, key: str, counts: TopologyCounts) -> NDArray[np.int64]:
    """Each node's count for its domain of `key`; 0 without the label."""
    by_domain = {domain: count for (k, domain), count in counts.items() if k == key}
    return _lookup(label_column(table, key), by_domain)


def _is_set(value: str | None) -> bool:
    return value is not None


def _present(table: NodeTable, key: str) -> NDArray[np.bool_]:
    column = label_column(table, key)
    return np.fromiter(map(_is_set, column), dtype=np.bool_, count=len(column))


def filter_mask(table: NodeTable, state: PreFilterState) -> NDArray[np.bool_]:
    """True where Filter passes the node."""
    mask = np.ones(len(table), dtype=np.bool_)
    if state.affinity_terms:
        present = np.ones(len(table), dtype=np.bool_)
        exist = np.ones(len(table), dtype=np.bool_)
        for term in state.affinity_terms:
            present &= _present(table, term.topology_key)
            exist &= _counts(table, term.topology_key, state.affinity) > 0
        first = not state.affinity and matches_all(state.affinity_terms, state.pod)
        mask &= present & (exist | first)
    blocked: dict[str, set[str]] = {}
    if state.anti_affinity:
        for term in state.anti_affinity_terms:
            blocked.setdefault(term.topology_key, set())
        _positive_domains(state.anti_affinity, blocked, only_known=True)
    _positive_domains(state.existing_anti_affinity, blocked, only_known=False)
    for key, domains in blocked.items():
        if domains:
            column = label_column(table, key)
            hit = np.fromiter(map(domains.__contains__, column), dtype=np.bool_, count=len(column))
            mask &= ~hit
    return mask


def _positive_domains(
    counts: TopologyCounts, into: dict[str, set[str]], *, only_known: bool
) -> None:
    """Add each topology pair with a positive count to `into` (key -> domains); with
    `only_known`, only for keys `into` has already."""
    for (key, domain), count in counts.items():
        if count > 0 and (not only_known or key in into):
            into.setdefault(key, set()).add(domain)


def scores(table: NodeTable, rows: NDArray[np.intp], state: PreScoreState) -> NDArray[np.int64]:
    """Raw scores of `rows`."""
    total = np.zeros(len(rows), dtype=np.int64)
    for key, domains in state.topology_score.items():
        total += _lookup(label_column(table, key)[rows], domains)
    return total
