"""Pod affinity terms compiled once per PodInfo, and NodeInfo's lists of pods with affinity."""

from __future__ import annotations

import pytest

from kubesched.api import (
    Affinity,
    LabelSelector,
    LabelSelectorRequirement,
    Namespace,
    ObjectMeta,
    Pod,
    PodAffinity,
    PodAffinityTerm,
    PodSpec,
    WeightedPodAffinityTerm,
)
from kubesched.errors import InputError
from kubesched.framework import NodeInfo, PodInfo, affinity_term, pod_affinity_terms
from kubesched.testing import make_node

APP_WEB = LabelSelector(match_labels={"app": "web"})
TEAM_A = LabelSelector(match_labels={"team": "a"})


def _pod(name: str, affinity: Affinity | None = None, namespace: str = "ns") -> Pod:
    meta = ObjectMeta(name=name, namespace=namespace, uid=name, labels={"app": "web"})
    return Pod(meta, PodSpec(affinity=affinity))


def test_a_term_without_namespaces_selects_the_pods_own_namespace() -> None:
    term = affinity_term(_pod("a"), PodAffinityTerm("zone", APP_WEB))
    assert term.namespaces == {"ns"}
    assert term.matches(_pod("b"))
    assert not term.matches(_pod("c", namespace="other"))


def test_namespace_selector_matches_namespace_labels_or_resolves_to_names() -> None:
    term = affinity_term(_pod("a"), PodAffinityTerm("zone", APP_WEB, namespace_selector=TEAM_A))
    other = _pod("b", namespace="team-a-ns")
    assert term.namespaces == frozenset()
    assert term.matches(other, {"team": "a"}) and not term.matches(other, {"team": "b"})
    merged = term.with_namespaces_of(
        [Namespace(ObjectMeta(name="team-a-ns", labels={"team": "a"}))]
    )
    assert merged.namespaces == {"team-a-ns"}
    assert merged.matches(other) and not merged.matches(_pod("c", namespace="x"), {"team": "a"})
    everywhere = affinity_term(
        _pod("a"), PodAffinityTerm("zone", APP_WEB, namespace_selector=LabelSelector())
    )
    assert everywhere.with_namespaces_of([]) is everywhere
    assert everywhere.matches(_pod("d", namespace="anything"))


def test_pod_info_compiles_terms_once_and_tolerates_invalid_selectors() -> None:
    required = PodAffinityTerm("zone", APP_WEB)
    affinity = Affinity(
        pod_affinity=PodAffinity([required], [WeightedPodAffinityTerm(3, required)]),
        pod_anti_affinity=PodAffinity([required]),
    )
    info = PodInfo(_pod("a", affinity))
    terms = info.affinity_terms
    assert info.affinity_terms is terms
    assert len(terms.required_affinity) == len(terms.required_anti_affinity) == 1
    assert [t.weight for t in terms.preferred_affinity] == [3]
    bad = LabelSelector(match_expressions=[LabelSelectorRequirement("app", "In", ["{{bad}}"])])
    invalid = _pod("b", Affinity(pod_affinity=PodAffinity([PodAffinityTerm("zone", bad)])))
    assert PodInfo(invalid).affinity_terms.required_affinity == ()
    with pytest.raises(InputError):
        pod_affinity_terms(invalid)


def test_node_info_keeps_pods_with_affinity_and_required_anti_affinity() -> None:
    anti = Affinity(pod_anti_affinity=PodAffinity([PodAffinityTerm("zone", APP_WEB)]))
    preferred_only = Affinity(
        pod_affinity=PodAffinity([], [WeightedPodAffinityTerm(1, PodAffinityTerm("z", APP_WEB))])
    )
    node_info = NodeInfo(make_node("n1").obj())
    for pod in (_pod("plain"), _pod("anti", anti), _pod("pref", preferred_only)):
        node_info.add_pod(pod)
    assert [p.uid for p in node_info.pods_with_affinity] == ["anti", "pref"]
    assert [p.uid for p in node_info.pods_with_required_anti_affinity] == ["anti"]
    copy = node_info.snapshot()
    assert node_info.remove_pod(_pod("anti", anti))
    assert [p.uid for p in node_info.pods_with_affinity] == ["pref"]
    assert node_info.pods_with_required_anti_affinity == []
    assert [p.uid for p in copy.pods_with_required_anti_affinity] == ["anti"]
