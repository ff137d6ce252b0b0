"""PreScore and Score: weights summed per topology domain, once per cycle.

For each existing pod on a node with topology labels: the incoming pod's
preferred terms it matches add (affinity) or subtract (anti-affinity) their
weight in that node's domain; its own required affinity terms the incoming pod
matches add `hardPodAffinityWeight`; its own preferred terms the incoming pod
matches add or subtract their weight. A node's score is the sum over its
domains; NormalizeScore maps min..max to 0..100 (upstream's scoring.go).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
from attrs import field, frozen
from numpy.typing import NDArray

from kubesched.api import Namespace, Pod
from kubesched.framework import (
    MAX_NODE_SCORE,
    AffinityTerm,
    NodeTable,
    PodAffinityTerms,
    PodInfo,
)
from kubesched.framework import WeightedAffinityTerm as Weighted
from kubesched_interpodaffinity import domains
from kubesched_interpodaffinity.args import InterPodAffinityArgs
from kubesched_interpodaffinity.counts import matches_per_domain, scores_others
from kubesched_interpodaffinity.namespaces import merge_preferred, namespace_labels
from kubesched_interpodaffinity.rows import with_pods_and_label, with_pods_scoring_others

TopologyScore = dict[str, dict[str, int]]
"""topology key -> domain -> summed weight."""


@frozen
class PreScoreState:
    """Per topology key, the summed weight of each domain, indexed by the domain's code
    (`domains.codes`) with a trailing 0 for nodes without the label; read-only after
    PreScore."""

    totals: dict[str, NDArray[np.int64]]

    def clone(self) -> PreScoreState:
        return self

    def score(self, labels: Mapping[str, str]) -> int:
        """The node's raw score: the weights of its domains."""
        total = 0
        for key, sums in self.totals.items():
            value = labels.get(key)
            if value is not None:
                code = domains.code_of(key, value)
                if 0 <= code < len(sums) - 1:
                    total += int(sums[code])
        return total


def score_of(scores: TopologyScore, labels: Mapping[str, str]) -> int:
    """A node's raw score from the reference's weights per domain."""
    total = 0
    for key, by_domain in scores.items():
        value = labels.get(key)
        if value is not None:
            total += by_domain.get(value, 0)
    return total


@frozen
class _Scorer:
    """What PreScore needs about the incoming pod; `selects` remembers, by the identity of
    an (interned) existing pod's term, whether it selects the incoming pod."""

    pod: Pod
    preferred_affinity: tuple[Weighted, ...]
    preferred_anti_affinity: tuple[Weighted, ...]
    namespace_labels: Mapping[str, str]
    hard_weight: int
    selects: dict[int, bool] = field(factory=dict)

    def _add(
        self, scores: TopologyScore, term: AffinityTerm, weight: int, labels: Mapping[str, str]
    ) -> None:
        domain = labels.get(term.topology_key)
        if domain is None:
            return
        selects = self.selects.get(id(term))
        if selects is None:
            selects = self.selects[id(term)] = term.matches(self.pod, self.namespace_labels)
        if selects:
            by_domain = scores.setdefault(term.topology_key, {})
            by_domain[domain] = by_domain.get(domain, 0) + weight

    def existing_pod(
        self, scores: TopologyScore, other: PodInfo, labels: Mapping[str, str]
    ) -> None:
        """Add what one existing pod's own terms, on a node with `labels`, contribute."""
        terms = other.affinity_terms
        if self.hard_weight > 0:
            for term in terms.required_affinity:
                self._add(scores, term, self.hard_weight, labels)
        for w in terms.preferred_affinity:
            self._add(scores, w.term, w.weight, labels)
        for w in terms.preferred_anti_affinity:
            self._add(scores, w.term, -w.weight, labels)


def topology_score(
    pod: Pod,
    terms: PodAffinityTerms,
    table: NodeTable,
    namespaces: Sequence[Namespace],
    args: InterPodAffinityArgs,
) -> TopologyScore | None:
    """The summed weights per domain, walking every pod that matters (the reference for
    `from_index.pre_score_state`); None when nothing scores (upstream then skips the
    plugin).

    Without preferred terms of its own, only pods with affinity matter; with
    `ignorePreferredTermsOfExistingPods` such a pod is not scored at all.
    """
    has_preferred = bool(terms.preferred_affinity or terms.preferred_anti_affinity)
    if args.ignore_preferred_terms_of_existing_pods and not has_preferred:
        return None
    scoring_nodes = with_pods_scoring_others(table)
    if not (has_preferred or scoring_nodes):
        return None
    scorer = _Scorer(
        pod,
        merge_preferred(terms.preferred_affinity, namespaces),
        merge_preferred(terms.preferred_anti_affinity, namespaces),
        namespace_labels(namespaces, pod.metadata.namespace),
        args.hard_pod_affinity_weight,
    )
    scores: TopologyScore = {}
    for weighted, sign in ((scorer.preferred_affinity, 1), (scorer.preferred_anti_affinity, -1)):
        for w in weighted:
            nodes = with_pods_and_label(table, w.term.topology_key)
            for domain, found in matches_per_domain(w.term, nodes):
                by_domain = scores.setdefault(w.term.topology_key, {})
                by_domain[domain] = by_domain.get(domain, 0) + sign * w.weight * found
    for node_info in scoring_nodes:
        node = node_info.node
        if node is None or not node.metadata.labels:
            continue
        for other in node_info.pods_with_affinity:
            if scores_others(other.affinity_terms):
                scorer.existing_pod(scores, other, node.metadata.labels)
    return scores if scores else None


def normalize(scores: NDArray[np.int64]) -> NDArray[np.int64]:
    """min..max mapped onto 0..MAX_NODE_SCORE, truncated; all 0 when every score is equal
    (the same float64 arithmetic as upstream's)."""
    if len(scores) == 0:
        return scores
    low, high = int(scores.min()), int(scores.max())
    spread = high - low
    if spread <= 0:
        return np.zeros(len(scores), dtype=np.int64)
    return (MAX_NODE_SCORE * ((scores - low) / spread)).astype(np.int64)
