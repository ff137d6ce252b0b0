"""The defaults the API server fills in, for the fields the scheduler reads.

Hand-written manifests leave out what a live cluster would have set (upstream's
pkg/apis/core/v1/defaults.go): a container that gives only limits requests
what it limits (SetDefaults_ResourceRequirements), and a node that reports
only capacity has that capacity allocatable (SetDefaults_NodeStatus). A pod
(anti-)affinity term's matchLabelKeys and mismatchLabelKeys are merged into its
labelSelector as the API server does when it creates the pod (`key In (value)`
and `key NotIn (value)` for the pod's own label values). An object read from
`kubectl get -o yaml` already carries these, and is unchanged.
"""

from __future__ import annotations

from collections.abc import Mapping

from attrs import evolve

from kubesched.api._meta import LabelSelectorRequirement
from kubesched.api._node import Node
from kubesched.api._pod import (
    Affinity,
    Container,
    Pod,
    PodAffinity,
    PodAffinityTerm,
)


def _container(container: Container) -> Container:
    resources = container.resources
    missing = {k: v for k, v in resources.limits.items() if k not in resources.requests}
    if not missing:
        return container
    requests = {**resources.requests, **missing}
    return evolve(container, resources=evolve(resources, requests=requests))


def _term(term: PodAffinityTerm, labels: Mapping[str, str]) -> PodAffinityTerm:
    """matchLabelKeys / mismatchLabelKeys merged into the selector (a nil selector selects
    nothing and stays nil); requirements the selector already has are not repeated."""
    selector = term.label_selector
    if selector is None or not (term.match_label_keys or term.mismatch_label_keys):
        return term
    wanted = [
        LabelSelectorRequirement(key, operator, [labels[key]])
        for keys, operator in ((term.match_label_keys, "In"), (term.mismatch_label_keys, "NotIn"))
        for key in keys
        if key in labels
    ]
    added = [r for r in wanted if r not in selector.match_expressions]
    if not added:
        return term
    expressions = [*selector.match_expressions, *added]
    return evolve(term, label_selector=evolve(selector, match_expressions=expressions))


def _pod_affinity(affinity: PodAffinity | None, labels: Mapping[str, str]) -> PodAffinity | None:
    if affinity is None:
        return None
    terms = affinity.required_during_scheduling_ignored_during_execution
    required = [_term(t, labels) for t in terms]
    preferred = [
        evolve(w, pod_affinity_term=_term(w.pod_affinity_term, labels))
        for w in affinity.preferred_during_scheduling_ignored_during_execution
    ]
    if (
        required == affinity.required_during_scheduling_ignored_during_execution
        and preferred == affinity.preferred_during_scheduling_ignored_during_execution
    ):
        return affinity
    return PodAffinity(required, preferred)


def _affinity(affinity: Affinity | None, labels: Mapping[str, str]) -> Affinity | None:
    if affinity is None:
        return None
    pod_affinity = _pod_affinity(affinity.pod_affinity, labels)
    anti = _pod_affinity(affinity.pod_anti_affinity, labels)
    if pod_affinity is affinity.pod_affinity and anti is affinity.pod_anti_affinity:
        return affinity
    return evolve(affinity, pod_affinity=pod_affinity, pod_anti_affinity=anti)


def default_pod(pod: Pod) -> Pod:
    """Requests copied from limits where a container gives only the limit; label keys of
    pod (anti-)affinity terms merged into their selectors."""
    spec = pod.spec
    containers = [_container(c) for c in spec.containers]
    init = [_container(c) for c in spec.init_containers]
    affinity = _affinity(spec.affinity, pod.metadata.labels)
    if containers == spec.containers and init == spec.init_containers and affinity is spec.affinity:
        return pod
    return evolve(
        pod,
        spec=evolve(spec, containers=containers, init_containers=init, affinity=affinity),
    )


def default_node(node: Node) -> Node:
    """Allocatable set to capacity when the node reports none."""
    status = node.status
    if status.allocatable or not status.capacity:
        return node
    return evolve(node, status=evolve(status, allocatable=dict(status.capacity)))
