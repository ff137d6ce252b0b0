"""Pod (anti-)affinity terms compiled once per pod (upstream's framework.AffinityTerm).

A term selects pods by labels within a set of namespaces: those it lists, or
the pod's own when it lists none and has no namespaceSelector, plus every
namespace whose labels its namespaceSelector matches. `PodInfo.affinity_terms`
holds a pod's four term lists, compiled on first use.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from attrs import evolve, frozen

from kubesched.api import (
    LabelSelector,
    Namespace,
    Pod,
    PodAffinity,
    PodAffinityTerm,
    Selector,
    WeightedPodAffinityTerm,
    as_selector,
)
from kubesched.api._labels import NOTHING
from kubesched.errors import InputError

_NO_LABELS: Mapping[str, str] = {}


@frozen(cache_hash=True)
class AffinityTerm:
    """A compiled PodAffinityTerm: which pods it selects, and its topology key. Equal terms
    compiled from different pods are one object (interned), so a plugin can remember a
    term's verdict on a pod by the term's identity."""

    namespaces: frozenset[str]
    selector: Selector
    topology_key: str
    namespace_selector: Selector

    def matches(self, pod: Pod, namespace_labels: Mapping[str, str] = _NO_LABELS) -> bool:
        """Whether `pod` is selected; `namespace_labels` are the labels of `pod`'s namespace
        (upstream's AffinityTerm.Matches)."""
        meta = pod.metadata
        if meta.namespace in self.namespaces or self.namespace_selector.matches(namespace_labels):
            return self.selector.matches(meta.labels)
        return False

    def with_namespaces_of(self, namespaces: Sequence[Namespace]) -> AffinityTerm:
        """The namespaces the namespaceSelector matches added to `namespaces`, and the
        selector then emptied (nothing), unless it selects every namespace
        (upstream's mergeAffinityTermNamespacesIfNotEmpty)."""
        if self.namespace_selector.empty:
            return self
        selected = {ns.metadata.name for ns in namespaces if self._selects(ns)}
        return evolve(self, namespaces=self.namespaces | selected, namespace_selector=NOTHING)

    def _selects(self, namespace: Namespace) -> bool:
        return self.namespace_selector.matches(namespace.metadata.labels)


@frozen
class WeightedAffinityTerm:
    """A preferred term with its weight."""

    term: AffinityTerm
    weight: int


@frozen
class PodAffinityTerms:
    """A pod's required and preferred affinity and anti-affinity terms, compiled."""

    required_affinity: tuple[AffinityTerm, ...] = ()
    required_anti_affinity: tuple[AffinityTerm, ...] = ()
    preferred_affinity: tuple[WeightedAffinityTerm, ...] = ()
    preferred_anti_affinity: tuple[WeightedAffinityTerm, ...] = ()


NO_TERMS = PodAffinityTerms()


_INTERN_LIMIT = 4096
_interned: dict[AffinityTerm, AffinityTerm] = {}


def _intern(term: AffinityTerm) -> AffinityTerm:
    """The one object equal to `term` (pods of one workload share their terms)."""
    found = _interned.get(term)
    if found is not None:
        return found
    if len(_interned) >= _INTERN_LIMIT:
        _interned.clear()
    _interned[term] = term
    return term


def _selector(selector: LabelSelector | None, path: str) -> Selector:
    try:
        return as_selector(selector)
    except InputError as e:
        raise InputError(e.message, field=f"{path}.{e.field}" if e.field else path) from None


def affinity_term(pod: Pod, term: PodAffinityTerm, path: str = "") -> AffinityTerm:
    """Compile one term of `pod`; InputError naming the field (under `path`) when a
    selector is invalid."""
    if not term.namespaces and term.namespace_selector is None:
        namespaces = frozenset([pod.metadata.namespace])
    else:
        namespaces = frozenset(term.namespaces)
    prefix = f"{path}." if path else ""
    compiled = AffinityTerm(
        namespaces=namespaces,
        selector=_selector(term.label_selector, f"{prefix}labelSelector"),
        topology_key=term.topology_key,
        namespace_selector=_selector(term.namespace_selector, f"{prefix}namespaceSelector"),
    )
    return _intern(compiled)


def _required(pod: Pod, affinity: PodAffinity | None, name: str) -> tuple[AffinityTerm, ...]:
    if affinity is None:
        return ()
    terms = affinity.required_during_scheduling_ignored_during_execution
    return tuple(affinity_term(pod, t, f"{name}[{i}]") for i, t in enumerate(terms))


def _preferred(
    pod: Pod, affinity: PodAffinity | None, name: str
) -> tuple[WeightedAffinityTerm, ...]:
    if affinity is None:
        return ()
    terms: Sequence[WeightedPodAffinityTerm]
    terms = affinity.preferred_during_scheduling_ignored_during_execution
    return tuple(
        WeightedAffinityTerm(affinity_term(pod, t.pod_affinity_term, f"{name}[{i}]"), t.weight)
        for i, t in enumerate(terms)
    )


def pod_affinity_terms(pod: Pod) -> PodAffinityTerms:
    """Every (anti-)affinity term of `pod`, compiled; InputError when a selector is invalid,
    its field named like `requiredAffinityTerms[0].labelSelector.matchExpressions[0]...`."""
    affinity = pod.spec.affinity
    if affinity is None or (affinity.pod_affinity is None and affinity.pod_anti_affinity is None):
        return NO_TERMS
    return PodAffinityTerms(
        required_affinity=_required(pod, affinity.pod_affinity, "requiredAffinityTerms"),
        required_anti_affinity=_required(
            pod, affinity.pod_anti_affinity, "requiredAntiAffinityTerms"
        ),
        preferred_affinity=_preferred(pod, affinity.pod_affinity, "preferredAffinityTerms"),
        preferred_anti_affinity=_preferred(
            pod, affinity.pod_anti_affinity, "preferredAntiAffinityTerms"
        ),
    )
