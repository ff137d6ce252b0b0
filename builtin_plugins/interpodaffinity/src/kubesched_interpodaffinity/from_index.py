"""PreFilter and PreScore states computed from the ClusterIndex: each distinct term and
pod group of the cluster is matched once, the matching rows summed per topology
domain with numpy. The results equal those of upstream's walks over every pod, which
the tests keep as the reference (`tests/ipa_reference.py`) and hold equal to these on
random clusters.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from kubesched.api import Namespace, Pod
from kubesched.framework import NodeTable, PodAffinityTerms
from kubesched_interpodaffinity import domains
from kubesched_interpodaffinity.args import InterPodAffinityArgs
from kubesched_interpodaffinity.counts import TopologyCounts
from kubesched_interpodaffinity.filtering import PositiveDomains, PreFilterState
from kubesched_interpodaffinity.index import (
    PREFERRED_AFFINITY,
    REQUIRED_AFFINITY,
    REQUIRED_ANTI_AFFINITY,
    ClusterIndex,
    RowMap,
)
from kubesched_interpodaffinity.namespaces import merge_preferred, merge_required, namespace_labels
from kubesched_interpodaffinity.rows import (
    any_pods_scoring_others,
    any_required_anti_affinity_pods,
)
from kubesched_interpodaffinity.scoring import PreScoreState

Parts = dict[str, list[tuple[RowMap, int]]]
"""topology key -> (rows with values, factor) to sum in that key's domains."""


def _count(
    table: NodeTable, parts: Parts, into: TopologyCounts, positive: dict[str, NDArray[np.bool_]]
) -> None:
    """Sum `parts` per topology pair into `into` (positive sums only), and flag the
    domain codes with a positive sum per key in `positive`."""
    for key, found in parts.items():
        row_codes = domains.codes(table, key)
        weights, rows = domains.row_weights(len(table), found)
        totals = domains.per_domain(key, row_codes, weights, rows)
        into.update(domains.nonzero_domains(key, totals))
        positive[key] = totals > 0


def pre_filter_state(
    pod: Pod,
    terms: PodAffinityTerms,
    table: NodeTable,
    index: ClusterIndex,
    namespaces: Sequence[Namespace],
) -> PreFilterState | None:
    """What `filtering.pre_filter_state` computes, from `index` (synced to `table` here
    unless neither the pod nor any existing pod has required terms that matter)."""
    own = terms.required_affinity or terms.required_anti_affinity
    if not own and not any_required_anti_affinity_pods(table):
        return None
    index.sync(table)
    anti = [(t, rows) for (kind, t), rows in index.terms.items() if kind == REQUIRED_ANTI_AFFINITY]
    if not (anti or terms.required_affinity or terms.required_anti_affinity):
        return None
    labels = namespace_labels(namespaces, pod.metadata.namespace)
    state = PreFilterState(
        pod,
        merge_required(terms.required_affinity, namespaces),
        merge_required(terms.required_anti_affinity, namespaces),
        labels,
        TopologyCounts(),
        TopologyCounts(),
        TopologyCounts(),
    )
    existing: Parts = {}
    for term, rows in anti:
        if term.matches(pod, labels):
            existing.setdefault(term.topology_key, []).append((rows, 1))
    positive: PositiveDomains = {"existing_anti_affinity": {}, "affinity": {}, "anti_affinity": {}}
    _count(table, existing, state.existing_anti_affinity, positive["existing_anti_affinity"])
    if state.affinity_terms:
        matching = index.groups_matching(state.affinity_terms)
        affinity: Parts = {}
        for term in state.affinity_terms:
            affinity.setdefault(term.topology_key, []).extend((rows, 1) for rows in matching)
        _count(table, affinity, state.affinity, positive["affinity"])
    anti_affinity: Parts = {}
    for term in state.anti_affinity_terms:
        found = [(rows, 1) for rows in index.groups_matching((term,))]
        anti_affinity.setdefault(term.topology_key, []).extend(found)
    _count(table, anti_affinity, state.anti_affinity, positive["anti_affinity"])
    state.positive = positive
    return state


def pre_score_state(
    pod: Pod,
    terms: PodAffinityTerms,
    table: NodeTable,
    index: ClusterIndex,
    namespaces: Sequence[Namespace],
    args: InterPodAffinityArgs,
) -> PreScoreState | None:
    """What `scoring.pre_score_state` computes, from `index` (synced to `table` here
    unless nothing can score)."""
    has_preferred = bool(terms.preferred_affinity or terms.preferred_anti_affinity)
    if args.ignore_preferred_terms_of_existing_pods and not has_preferred:
        return None
    if not (has_preferred or any_pods_scoring_others(table)):
        return None
    index.sync(table)
    labels = namespace_labels(namespaces, pod.metadata.namespace)
    hard = args.hard_pod_affinity_weight
    parts: Parts = {}
    for (kind, term), rows in index.terms.items():
        if kind == REQUIRED_ANTI_AFFINITY or (kind == REQUIRED_AFFINITY and hard <= 0):
            continue
        if term.matches(pod, labels):
            factor = hard if kind == REQUIRED_AFFINITY else 1 if kind == PREFERRED_AFFINITY else -1
            parts.setdefault(term.topology_key, []).append((rows, factor))
    if has_preferred:
        for weighted, sign in (
            (merge_preferred(terms.preferred_affinity, namespaces), 1),
            (merge_preferred(terms.preferred_anti_affinity, namespaces), -1),
        ):
            for w in weighted:
                found = [(rows, sign * w.weight) for rows in index.groups_matching((w.term,))]
                parts.setdefault(w.term.topology_key, []).extend(found)
    totals = {}
    for key, found in parts.items():
        row_codes = domains.codes(table, key)
        weights, touched = domains.row_weights(len(table), found)
        if not (row_codes[touched] >= 0).any():
            continue
        totals[key] = domains.per_domain(key, row_codes, weights, touched)
    return PreScoreState(totals) if totals else None
