"""The straightforward InterPodAffinity states: walks over every pod that can matter, as
upstream's filtering.go and scoring.go do. The plugin computes the same states from its
index (`from_index`); the property tests hold the two equal."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence

from attrs import field, frozen

from kubesched.api import Namespace, Pod
from kubesched.framework import AffinityTerm, NodeInfo, NodeTable, PodAffinityTerms, PodInfo
from kubesched.framework import WeightedAffinityTerm as Weighted
from kubesched_interpodaffinity.args import InterPodAffinityArgs
from kubesched_interpodaffinity.counts import NO_LABELS, TopologyCounts, matches_all, scores_others
from kubesched_interpodaffinity.filtering import PreFilterState
from kubesched_interpodaffinity.namespaces import merge_preferred, merge_required, namespace_labels


def _nodes_where(table: NodeTable, keep: Callable[[NodeInfo], object]) -> list[NodeInfo]:
    return [info for info in table.node_infos if keep(info)]


def with_required_anti_affinity_pods(table: NodeTable) -> list[NodeInfo]:
    """Nodes running a pod with required pod anti-affinity."""
    return _nodes_where(table, lambda info: info.pods_with_required_anti_affinity)


def with_pods_scoring_others(table: NodeTable) -> list[NodeInfo]:
    """Nodes running a pod whose own affinity terms can score other pods."""
    return _nodes_where(
        table, lambda info: any(scores_others(p.affinity_terms) for p in info.pods_with_affinity)
    )


def with_pods_and_label(table: NodeTable, key: str) -> list[NodeInfo]:
    """Nodes that run pods and have label `key`."""
    return _nodes_where(
        table, lambda info: info.pods and info.node is not None and key in info.node.metadata.labels
    )


def matches_per_domain(
    term: AffinityTerm, nodes: Sequence[NodeInfo], all_of: Sequence[AffinityTerm] = ()
) -> Iterator[tuple[str, int]]:
    """For each node with pods and `term`'s topology label: the node's domain and how many
    of its pods `term` selects (or, with `all_of`, match every one of those terms); nodes
    where none does are left out. The pods' namespace selectors must be merged already."""
    key, selector, namespaces = term.topology_key, term.selector, term.namespaces
    any_namespace = term.namespace_selector.matches(NO_LABELS)
    for node_info in nodes:
        node = node_info.node
        if node is None or not node_info.pods:
            continue
        domain = node.metadata.labels.get(key)
        if domain is None:
            continue
        found = 0
        for other in node_info.pods:
            if all_of:
                found += matches_all(all_of, other.pod)
                continue
            meta = other.pod.metadata
            if (any_namespace or meta.namespace in namespaces) and selector.matches(meta.labels):
                found += 1
        if found:
            yield domain, found


def pre_filter_state(
    pod: Pod,
    terms: PodAffinityTerms,
    table: NodeTable,
    namespaces: Sequence[Namespace],
) -> PreFilterState | None:
    """Count, over the snapshot's nodes, the existing pods that matter to `pod`; None when
    the pod has no required terms and no pod has required anti-affinity."""
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


TopologyScore = dict[str, dict[str, int]]
"""topology key -> domain -> summed weight."""


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
