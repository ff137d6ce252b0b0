"""PreFilter state and Filter checks: the incoming pod's required terms and existing
pods' required anti-affinity, counted per topology pair once per cycle.

Filter then looks a node's few topology labels up in three count maps,
whatever the number of pods in the cluster (upstream's filtering.go).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
from attrs import define
from numpy.typing import NDArray

from kubesched.api import Namespace, Node, Pod
from kubesched.framework import AffinityTerm, NodeTable, PodAffinityTerms, PodInfo
from kubesched_interpodaffinity.counts import (
    NO_LABELS,
    TopologyCounts,
    matches_all,
    matches_per_domain,
)
from kubesched_interpodaffinity.namespaces import merge_required, namespace_labels
from kubesched_interpodaffinity.rows import with_pods_and_label, with_required_anti_affinity_pods

PositiveDomains = dict[str, dict[str, NDArray[np.bool_]]]

REASON_AFFINITY = "node(s) didn't match pod affinity rules"
REASON_ANTI_AFFINITY = "node(s) didn't match pod anti-affinity rules"
REASON_EXISTING_ANTI_AFFINITY = "node(s) didn't satisfy existing pods anti-affinity rules"


@define
class PreFilterState:
    """The incoming pod's required terms (namespaceSelectors resolved) and the counts Filter
    reads: existing pods whose required anti-affinity matches the pod, and existing pods
    matching the pod's affinity and anti-affinity terms."""

    pod: Pod
    affinity_terms: tuple[AffinityTerm, ...]
    anti_affinity_terms: tuple[AffinityTerm, ...]
    namespace_labels: Mapping[str, str]
    existing_anti_affinity: TopologyCounts
    affinity: TopologyCounts
    anti_affinity: TopologyCounts
    positive: PositiveDomains | None = None
    """The same counts as domain codes with a positive count, for the batch form: count
    name ("existing_anti_affinity", ...) -> topology key -> a flag per code (and a
    trailing False). Dropped when AddPod or RemovePod changes the counts."""

    def clone(self) -> PreFilterState:
        return PreFilterState(
            self.pod,
            self.affinity_terms,
            self.anti_affinity_terms,
            self.namespace_labels,
            self.existing_anti_affinity.copy(),
            self.affinity.copy(),
            self.anti_affinity.copy(),
            self.positive,
        )

    def is_trivial(self) -> bool:
        """True when Filter can pass every node (upstream then skips the plugin)."""
        return not (self.existing_anti_affinity or self.affinity_terms or self.anti_affinity_terms)

    def update_with_pod(self, pod_info: PodInfo, node: Node, value: int) -> None:
        """Count `pod_info` on `node` in (value 1) or out (value -1): AddPod and RemovePod."""
        self.positive = None
        other = pod_info.pod
        self.existing_anti_affinity.add_anti_affinity(
            pod_info.affinity_terms.required_anti_affinity,
            self.pod,
            self.namespace_labels,
            node,
            value,
        )
        self.affinity.add_affinity(self.affinity_terms, other, node, value)
        self.anti_affinity.add_anti_affinity(
            self.anti_affinity_terms, other, NO_LABELS, node, value
        )


def pre_filter_state(
    pod: Pod,
    terms: PodAffinityTerms,
    table: NodeTable,
    namespaces: Sequence[Namespace],
) -> PreFilterState | None:
    """Count, over the snapshot's nodes, the existing pods that matter to `pod`; None when
    the pod has no required terms and no pod has required anti-affinity. Walks every pod
    that can matter: the reference for `from_index.pre_filter_state`."""
    anti_nodes = with_required_anti_affinity_pods(table)
    if not (anti_nodes or terms.required_affinity or terms.required_anti_affinity):
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
    memo: dict[int, bool] = {}
    for node_info in anti_nodes:
        if node_info.node is not None:
            anti_pods = node_info.pods_with_required_anti_affinity
            _count_existing(state, anti_pods, node_info.node.metadata.labels, memo)
    for term in state.affinity_terms:
        nodes = with_pods_and_label(table, term.topology_key)
        for domain, found in matches_per_domain(term, nodes, state.affinity_terms):
            state.affinity.add((term.topology_key, domain), found)
    for term in state.anti_affinity_terms:
        nodes = with_pods_and_label(table, term.topology_key)
        for domain, found in matches_per_domain(term, nodes):
            state.anti_affinity.add((term.topology_key, domain), found)
    return state


def _count_existing(
    state: PreFilterState,
    anti_pods: Sequence[PodInfo],
    labels: Mapping[str, str],
    memo: dict[int, bool],
) -> None:
    """Count the pods on one node whose required anti-affinity selects the incoming pod;
    `memo` remembers each (interned) term's verdict for this cycle."""
    counts, pod, ns_labels = state.existing_anti_affinity, state.pod, state.namespace_labels
    for other in anti_pods:
        for term in other.affinity_terms.required_anti_affinity:
            domain = labels.get(term.topology_key)
            if domain is None:
                continue
            selects = memo.get(id(term))
            if selects is None:
                selects = memo[id(term)] = term.matches(pod, ns_labels)
            if selects:
                pair = (term.topology_key, domain)
                counts[pair] = counts.get(pair, 0) + 1


def satisfies_existing_anti_affinity(state: PreFilterState, labels: Mapping[str, str]) -> bool:
    """No existing pod's required anti-affinity selects the pod in the node's domains."""
    counts = state.existing_anti_affinity
    if not counts:
        return True
    return not any(counts.get(pair, 0) > 0 for pair in labels.items())


def satisfies_anti_affinity(state: PreFilterState, labels: Mapping[str, str]) -> bool:
    """No pod the incoming pod's anti-affinity selects runs in the node's domains."""
    counts = state.anti_affinity
    if not counts:
        return True
    return not any(counts.positive(t.topology_key, labels) for t in state.anti_affinity_terms)


def satisfies_affinity(state: PreFilterState, labels: Mapping[str, str]) -> bool:
    """The node has every term's topology label and a matching pod in each domain; or no
    pod matches anywhere and the pod matches its own terms (the first of a group)."""
    pods_exist = True
    counts = state.affinity
    for term in state.affinity_terms:
        if term.topology_key not in labels:
            return False
        if not counts.positive(term.topology_key, labels):
            pods_exist = False
    if pods_exist:
        return True
    return not counts and matches_all(state.affinity_terms, state.pod)
