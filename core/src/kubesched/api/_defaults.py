"""The defaults the API server fills in, for the fields the scheduler reads.

Hand-written manifests leave out what a live cluster would have set (upstream's
pkg/apis/core/v1/defaults.go): a container that gives only limits requests
what it limits (SetDefaults_Pod); pod-level limits without pod-level requests
give the pod requests: the containers' for cpu and memory when they ask, else
the limits (defaultPodRequests, after defaultHugePagePodLimits); and a node that
reports only capacity has that capacity allocatable (SetDefaults_NodeStatus).
An object read from `kubectl get -o yaml` already carries these, and is unchanged.
"""

from __future__ import annotations

from attrs import evolve

from kubesched.api._node import Node
from kubesched.api._pod import Container, Pod, PodSpec
from kubesched.api._requests import container_limits, container_requests, is_pod_level_resource
from kubesched.api._resources import CPU, MEMORY, is_hugepage_resource_name


def _container(container: Container) -> Container:
    resources = container.resources
    missing = {k: v for k, v in resources.limits.items() if k not in resources.requests}
    if not missing:
        return container
    requests = {**resources.requests, **missing}
    return evolve(container, resources=evolve(resources, requests=requests))


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


def default_pod(pod: Pod) -> Pod:
    """Requests copied from limits where a container gives only the limit; pod-level
    requests defaulted from the containers' requests and the pod-level limits."""
    spec: PodSpec = pod.spec
    containers = [_container(c) for c in spec.containers]
    init = [_container(c) for c in spec.init_containers]
    if containers != spec.containers or init != spec.init_containers:
        pod = evolve(pod, spec=evolve(spec, containers=containers, init_containers=init))
    return _pod_level(pod)


def default_node(node: Node) -> Node:
    """Allocatable set to capacity when the node reports none."""
    status = node.status
    if status.allocatable or not status.capacity:
        return node
    return evolve(node, status=evolve(status, allocatable=dict(status.capacity)))
