"""PreFilter state and Filter checks: the incoming pod's required terms and existing
pods' required anti-affinity, counted per topology pair once per cycle.

Filter then looks a node's few topology labels up in three count maps,
whatever the number of pods in the cluster (upstream's filtering.go).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from attrs import define
from numpy.typing import NDArray

from kubesched.api import Node, Pod
from kubesched.framework import AffinityTerm, PodInfo
from kubesched_interpodaffinity.counts import (
    NO_LABELS,
    TopologyCounts,
    matches_all,
)

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
