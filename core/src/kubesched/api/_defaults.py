"""The defaults the API server fills in, for the fields the scheduler reads.

Hand-written manifests leave out what a live cluster would have set (upstream's
pkg/apis/core/v1/defaults.go): a container that gives only limits requests
what it limits (SetDefaults_Pod); pod-level limits without pod-level requests
give the pod requests: the containers' for cpu and memory when they ask, else
the limits (defaultPodRequests, after defaultHugePagePodLimits); and a node that
reports only capacity has that capacity allocatable (SetDefaults_NodeStatus). A pod
(anti-)affinity term's matchLabelKeys and mismatchLabelKeys are merged into its
labelSelector as the API server does when it creates the pod (`key In (value)`
and `key NotIn (value)` for the pod's own label values). A pod with `hostNetwork: true`
gets each container port's (init containers' too) `hostPort` set to its `containerPort`
where it has none (defaultHostNetworkPorts). An object read from
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
from kubesched.api._requests import container_limits, container_requests, is_pod_level_resource
from kubesched.api._resources import CPU, MEMORY, is_hugepage_resource_name


def _container(container: Container) -> Container:
    resources = container.resources
    missing = {k: v for k, v in resources.limits.items() if k not in resources.requests}
    if not missing:
        return container
    requests = {**resources.requests, **missing}
    return evolve(container, resources=evolve(resources, requests=requests))


def _host_network_ports(container: Container) -> Container:
    """Ports without a hostPort get their containerPort as hostPort (upstream's
    defaultHostNetworkPorts, for a pod on the host's network)."""
    if all(port.host_port for port in container.ports):
        return container
    ports = [p if p.host_port else evolve(p, host_port=p.container_port) for p in container.ports]
    return evolve(container, ports=ports)


def _pod_level(pod: Pod) -> Pod:
    """Pod-level hugepages limits, then pod-level requests, defaulted as upstream does."""
    resources = pod.spec.resources
    if resources is None or not (resources.limits or resources.requests):
        return pod
    limits = dict(resources.limits)
    for name, amount in container_limits(pod).items():
        if is_hugepage_resource_name(name) and name not in resources.requests:
            limits.setdefault(name, amount)
    requests = dict(resources.requests)
    if limits:
        for name, amount in container_requests(pod).items():
            if name in (CPU, MEMORY):  # supported and overcommittable
                requests.setdefault(name, amount)
        for name, amount in limits.items():
            if is_pod_level_resource(name):
                requests.setdefault(name, amount)
    if (limits, requests) == (resources.limits, resources.requests):
        return pod
    pod_level = evolve(resources, limits=limits, requests=requests)
    return evolve(pod, spec=evolve(pod.spec, resources=pod_level))


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
    """Requests copied from limits where a container gives only the limit; host ports of a
    pod on the host's network; label keys of pod (anti-)affinity terms merged into their
    selectors; pod-level requests defaulted from the containers' requests and the pod-level
    limits."""
    spec = pod.spec
    containers = [_container(c) for c in spec.containers]
    init = [_container(c) for c in spec.init_containers]
    if spec.host_network:
        containers = [_host_network_ports(c) for c in containers]
        init = [_host_network_ports(c) for c in init]
    affinity = _affinity(spec.affinity, pod.metadata.labels)
    changed = containers != spec.containers or init != spec.init_containers
    if changed or affinity is not spec.affinity:
        spec = evolve(spec, containers=containers, init_containers=init, affinity=affinity)
        pod = evolve(pod, spec=spec)
    return _pod_level(pod)


def default_node(node: Node) -> Node:
    """Allocatable set to capacity when the node reports none."""
    status = node.status
    if status.allocatable or not status.capacity:
        return node
    return evolve(node, status=evolve(status, allocatable=dict(status.capacity)))
