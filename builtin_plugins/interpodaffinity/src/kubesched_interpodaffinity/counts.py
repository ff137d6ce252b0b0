"""Topology-pair counts: how many pods match a set of terms in each topology domain.

A topology pair is a node label `(key, value)`; a count drops out of the map
when it returns to zero, so an empty map means nothing matched anywhere
(upstream's topologyToMatchedTermCount).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from kubesched.api import Node, Pod
from kubesched.framework import AffinityTerm, PodAffinityTerms

TopologyPair = tuple[str, str]
NO_LABELS: Mapping[str, str] = {}


def matches_all(terms: Sequence[AffinityTerm], pod: Pod) -> bool:
    """True when there are terms and `pod` matches every one (namespace selectors merged)."""
    if not terms:
        return False
    return all(term.matches(pod) for term in terms)


def scores_others(terms: PodAffinityTerms) -> bool:
    """Whether a pod's own terms can add to another pod's score (required anti-affinity
    alone cannot)."""
    return bool(
        terms.required_affinity or terms.preferred_affinity or terms.preferred_anti_affinity
    )


class TopologyCounts(dict[TopologyPair, int]):
    """Counts per topology pair."""

    def add(self, pair: TopologyPair, value: int) -> None:
        count = self.get(pair, 0) + value
        if count == 0:
            self.pop(pair, None)
        else:
            self[pair] = count

    def add_affinity(self, terms: Sequence[AffinityTerm], pod: Pod, node: Node, value: int) -> None:
        """When `pod` matches all `terms`, count it in each term's domain of `node`."""
        if matches_all(terms, pod):
            labels = node.metadata.labels
            for term in terms:
                domain = labels.get(term.topology_key)
                if domain is not None:
                    self.add((term.topology_key, domain), value)

    def add_anti_affinity(
        self,
        terms: Sequence[AffinityTerm],
        pod: Pod,
        namespace_labels: Mapping[str, str],
        node: Node,
        value: int,
    ) -> None:
        """Count `pod` in the domain of `node` of each term it matches."""
        labels = node.metadata.labels
        for term in terms:
            if term.matches(pod, namespace_labels):
                domain = labels.get(term.topology_key)
                if domain is not None:
                    self.add((term.topology_key, domain), value)

    def copy(self) -> TopologyCounts:
        return TopologyCounts(self)

    def positive(self, key: str, labels: Mapping[str, str]) -> bool:
        """Whether the node's domain for `key` has a positive count."""
        domain = labels.get(key)
        return domain is not None and self.get((key, domain), 0) > 0
