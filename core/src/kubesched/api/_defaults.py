"""The defaults the API server fills in, for the fields the scheduler reads.

Hand-written manifests leave out what a live cluster would have set (upstream's
pkg/apis/core/v1/defaults.go): a container that gives only limits requests
what it limits (SetDefaults_ResourceRequirements), and a node that reports
only capacity has that capacity allocatable (SetDefaults_NodeStatus). An
object read from `kubectl get -o yaml` already carries these, and is unchanged.
"""

from __future__ import annotations

from attrs import evolve

from kubesched.api._node import Node
from kubesched.api._pod import Container, Pod


def _container(container: Container) -> Container:
    resources = container.resources
    missing = {k: v for k, v in resources.limits.items() if k not in resources.requests}
    if not missing:
        return container
    requests = {**resources.requests, **missing}
    return evolve(container, resources=evolve(resources, requests=requests))


def default_pod(pod: Pod) -> Pod:
    """Requests copied from limits where a container gives only the limit."""
    spec = pod.spec
    containers = [_container(c) for c in spec.containers]
    init = [_container(c) for c in spec.init_containers]
    if containers == spec.containers and init == spec.init_containers:
        return pod
    return evolve(pod, spec=evolve(spec, containers=containers, init_containers=init))


def default_node(node: Node) -> Node:
    """Allocatable set to capacity when the node reports none."""
    status = node.status
    if status.allocatable or not status.capacity:
        return node
    return evolve(node, status=evolve(status, allocatable=dict(status.capacity)))
