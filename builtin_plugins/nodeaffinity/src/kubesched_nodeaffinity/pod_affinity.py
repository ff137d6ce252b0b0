"""What a pod asks of a node: its nodeSelector AND its required node affinity, and its
preferred node affinity terms (upstream's GetRequiredNodeAffinity and friends)."""

from __future__ import annotations

from collections.abc import Mapping

from attrs import frozen

from kubesched.api import FieldError, Node, NodeSelector, Pod
from kubesched_nodeaffinity import evaluator
from kubesched_nodeaffinity.evaluator import IN, NODE_NAME_FIELD, NodeView
from kubesched_nodeaffinity.selectors import (
    NodeSelectorMatcher,
    PreferredTerms,
    parse_node_selector,
    parse_preferred_terms,
)


@frozen
class RequiredNodeAffinity:
    """`node_selector` labels must all be present with these values (an empty selector
    asks nothing); then `affinity`, when the pod has one, must match."""

    node_selector: Mapping[str, str]
    affinity: NodeSelectorMatcher | None

    def is_trivial(self) -> bool:
        """True when every node matches."""
        return not self.node_selector and self.affinity is None

    def matches(self, node: Node) -> bool:
        """Whether the node matches; parse errors are ignored, as upstream's Filter does."""
        meta = node.metadata
        return bool(evaluator.required(self, NodeView(meta.labels, meta.name)))

    def evaluate(self, node: Node) -> tuple[bool, tuple[FieldError, ...]]:
        """Whether the node matches, and parse errors of the affinity when it does not."""
        meta = node.metadata
        if not NodeView(meta.labels, meta.name).labels_are(self.node_selector):
            return False, ()
        if self.affinity is None:
            return True, ()
        return self.affinity.evaluate(node)


def required_selector(pod: Pod) -> NodeSelector | None:
    """The pod's requiredDuringSchedulingIgnoredDuringExecution node selector, if any."""
    affinity = pod.spec.affinity
    if affinity is None or affinity.node_affinity is None:
        return None
    return affinity.node_affinity.required_during_scheduling_ignored_during_execution


def required_node_affinity(pod: Pod) -> RequiredNodeAffinity:
    """Parse what the pod requires of a node."""
    selector = required_selector(pod)
    affinity = None if selector is None else parse_node_selector(selector)
    return RequiredNodeAffinity(dict(pod.spec.node_selector), affinity)


def preferred_node_affinity(pod: Pod) -> PreferredTerms | None:
    """Parse the pod's preferred terms (None when it has none); raises SelectorParseError."""
    affinity = pod.spec.affinity
    if affinity is None or affinity.node_affinity is None:
        return None
    terms = affinity.node_affinity.preferred_during_scheduling_ignored_during_execution
    return parse_preferred_terms(terms) if terms else None


def pinned_node_names(selector: NodeSelector) -> frozenset[str] | None:
    """The only nodes the selector can match when every term names them with
    `matchFields: metadata.name In [...]` (names intersected within a term, united across
    terms); None when some term does not pin node names. An empty set means the terms
    contradict themselves."""
    names: set[str] = set()
    for term in selector.node_selector_terms:
        term_names: set[str] | None = None
        for req in term.match_fields:
            if req.key == NODE_NAME_FIELD and req.operator == IN:
                listed = set(req.values)
                term_names = listed if term_names is None else term_names & listed
        if term_names is None:
            return None
        names |= term_names
    return frozenset(names)
