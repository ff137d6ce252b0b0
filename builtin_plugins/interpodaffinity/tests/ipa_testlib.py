"""Pods, nodes and terms written the way upstream's InterPodAffinity test tables write them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from kubesched.api import (
    Affinity,
    LabelSelector,
    LabelSelectorRequirement,
    Namespace,
    Node,
    ObjectMeta,
    Pod,
    PodAffinity,
    PodAffinityTerm,
    PodSpec,
    WeightedPodAffinityTerm,
)

NAMESPACES = [
    Namespace(ObjectMeta(name="subteam1.team1", labels={"team": "team1"})),
    Namespace(ObjectMeta(name="subteam2.team1", labels={"team": "team1"})),
    Namespace(ObjectMeta(name="subteam1.team2", labels={"team": "team2"})),
    Namespace(ObjectMeta(name="subteam2.team2", labels={"team": "team2"})),
]
"""The namespaces upstream's scoring tests install."""

TEAM1 = LabelSelector(match_expressions=[LabelSelectorRequirement("team", "In", ["team1"])])

_count = iter(range(1, 1_000_000))


def node(name: str, labels: Mapping[str, str] | None = None) -> Node:
    return Node(ObjectMeta(name=name, uid=f"node-{name}", labels=dict(labels or {})))


def sel(*requirements: tuple[str, str, Sequence[str]]) -> LabelSelector:
    """A selector of matchExpressions (key, operator, values)."""
    return LabelSelector(
        match_expressions=[LabelSelectorRequirement(k, op, list(v)) for k, op, v in requirements]
    )


def term(
    topology_key: str,
    *requirements: tuple[str, str, Sequence[str]],
    namespaces: Sequence[str] = (),
    namespace_selector: LabelSelector | None = None,
) -> PodAffinityTerm:
    return PodAffinityTerm(
        topology_key=topology_key,
        label_selector=sel(*requirements),
        namespaces=list(namespaces),
        namespace_selector=namespace_selector,
    )


def weighted(weight: int, t: PodAffinityTerm) -> WeightedPodAffinityTerm:
    return WeightedPodAffinityTerm(weight=weight, pod_affinity_term=t)


def affinity(
    required: Sequence[PodAffinityTerm] = (),
    anti: Sequence[PodAffinityTerm] = (),
    preferred: Sequence[WeightedPodAffinityTerm] = (),
    preferred_anti: Sequence[WeightedPodAffinityTerm] = (),
) -> Affinity:
    return Affinity(
        pod_affinity=PodAffinity(list(required), list(preferred))
        if required or preferred
        else None,
        pod_anti_affinity=PodAffinity(list(anti), list(preferred_anti))
        if anti or preferred_anti
        else None,
    )


def pod(
    labels: Mapping[str, str] | None = None,
    *,
    node_name: str = "",
    namespace: str = "",
    aff: Affinity | None = None,
    name: str = "",
) -> Pod:
    """A pod (namespace "" unless given, as upstream's tests); a unique uid."""
    n = next(_count)
    return Pod(
        ObjectMeta(
            name=name or f"p{n}", namespace=namespace, uid=f"uid-{n}", labels=dict(labels or {})
        ),
        PodSpec(node_name=node_name, affinity=aff),
    )


IN, NOT_IN, EXISTS, DOES_NOT_EXIST = "In", "NotIn", "Exists", "DoesNotExist"
