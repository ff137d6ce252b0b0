"""Batch forms over the NodeTable: one domain-code column per topology key
(`domains.codes`), looked up in the cycle's count and score maps (the same checks as
Filter and Score, node by node)."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from kubesched.framework import NodeTable
from kubesched_interpodaffinity import domains
from kubesched_interpodaffinity.counts import TopologyCounts, matches_all
from kubesched_interpodaffinity.filtering import PreFilterState
from kubesched_interpodaffinity.scoring import PreScoreState


def _positive_codes(counts: TopologyCounts) -> dict[str, list[int]]:
    """Per topology key, the codes of the domains with a positive count."""
    out: dict[str, list[int]] = {}
    for (key, domain), count in counts.items():
        if count > 0:
            code = domains.code_of(key, domain)
            if code >= 0:
                out.setdefault(key, []).append(code)
    return out


def _in_domains(table: NodeTable, key: str, hit: NDArray[np.bool_]) -> NDArray[np.bool_]:
    """True where the node's domain of `key` is flagged in `hit` (one flag per code)."""
    return domains.lookup(hit, domains.codes(table, key))


def _positive(state: PreFilterState, name: str) -> dict[str, NDArray[np.bool_]]:
    """The flags per domain code of the count `name`, from PreFilter's or from the counts."""
    if state.positive is not None:
        return state.positive[name]
    counts: TopologyCounts = getattr(state, name)
    out = {}
    for key, codes in _positive_codes(counts).items():
        hit = np.zeros(domains.size(key) + 1, dtype=np.bool_)
        hit[codes] = True
        out[key] = hit
    return out


def _none(key: str) -> NDArray[np.bool_]:
    return np.zeros(domains.size(key) + 1, dtype=np.bool_)


def filter_mask(table: NodeTable, state: PreFilterState) -> NDArray[np.bool_]:
    """True where Filter passes the node."""
    mask = np.ones(len(table), dtype=np.bool_)
    if state.affinity_terms:
        positive = _positive(state, "affinity")
        present = np.ones(len(table), dtype=np.bool_)
        exist = np.ones(len(table), dtype=np.bool_)
        for term in state.affinity_terms:
            key = term.topology_key
            present &= domains.codes(table, key) >= 0
            exist &= _in_domains(table, key, positive.get(key, _none(key)))
        first = not state.affinity and matches_all(state.affinity_terms, state.pod)
        mask &= present & (exist | first)
    if state.anti_affinity:
        positive = _positive(state, "anti_affinity")
        for key in {term.topology_key for term in state.anti_affinity_terms}:
            mask &= ~_in_domains(table, key, positive.get(key, _none(key)))
    if state.existing_anti_affinity:
        for key, hit in _positive(state, "existing_anti_affinity").items():
            mask &= ~_in_domains(table, key, hit)
    return mask


def scores(table: NodeTable, rows: NDArray[np.intp], state: PreScoreState) -> NDArray[np.int64]:
    """Raw scores of `rows`."""
    total = np.zeros(len(rows), dtype=np.int64)
    for key, sums in state.totals.items():
        total += domains.lookup(sums, domains.codes(table, key)[rows])
    return total
