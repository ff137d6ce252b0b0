"""The cluster's Namespaces as the plugin reads them: a pod's namespace labels, and an
incoming pod's namespaceSelectors turned into namespace names once per cycle."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from kubesched.api import Namespace
from kubesched.framework import AffinityTerm, WeightedAffinityTerm
from kubesched_interpodaffinity.counts import NO_LABELS


def namespace_labels(namespaces: Sequence[Namespace], name: str) -> Mapping[str, str]:
    """A copy of the labels of namespace `name`; none when the cluster does not have it
    (upstream's GetNamespaceLabelsSnapshot)."""
    for namespace in namespaces:
        if namespace.metadata.name == name:
            return dict(namespace.metadata.labels)
    return NO_LABELS


def merge_required(
    terms: Sequence[AffinityTerm], namespaces: Sequence[Namespace]
) -> tuple[AffinityTerm, ...]:
    """Each term with its namespaceSelector resolved to namespace names."""
    return tuple(term.with_namespaces_of(namespaces) for term in terms)


def merge_preferred(
    terms: Sequence[WeightedAffinityTerm], namespaces: Sequence[Namespace]
) -> tuple[WeightedAffinityTerm, ...]:
    """Each weighted term with its namespaceSelector resolved to namespace names."""
    return tuple(
        WeightedAffinityTerm(t.term.with_namespaces_of(namespaces), t.weight) for t in terms
    )
