"""The selector default constraints use: the workloads that select the pod (upstream's
helper.DefaultSelector).

The Services of the pod's namespace whose selector matches the pod's labels
contribute their selectors, merged into one label set. The pod's controller
(its ownerReference with `controller: true`) contributes too when it is a
`v1` ReplicationController (its selector map merged into the set), or an
`apps/v1` ReplicaSet or StatefulSet (its LabelSelector's requirements ANDed
on; a missing or malformed one adds nothing) that the cluster has under that
name in the pod's namespace. A pod nothing selects gets the empty selector,
and so no default constraints.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from kubesched.api import (
    Controller,
    OwnerReference,
    Pod,
    ReplicationController,
    Requirement,
    Selector,
    Service,
    as_selector,
)
from kubesched.errors import InputError

EQUALS = "="
"""The operator of a label-set requirement (upstream's selection.Equals)."""
CONTROLLER_KINDS: Mapping[tuple[str, str, str], str] = {
    ("", "v1", "ReplicationController"): "ReplicationController",
    ("apps", "v1", "ReplicaSet"): "ReplicaSet",
    ("apps", "v1", "StatefulSet"): "StatefulSet",
}
"""(group, version, kind) of an owner -> the kind whose selector counts."""


class WorkloadSource(Protocol):
    """Where the Services and controllers come from (the cluster client)."""

    def services(self, namespace: str) -> Sequence[Service]: ...

    def controller(self, kind: str, namespace: str, name: str) -> Controller | None: ...


def controller_of(pod: Pod) -> OwnerReference | None:
    """The pod's first ownerReference marked `controller: true`, if any."""
    return next((ref for ref in pod.metadata.owner_references if ref.controller), None)


def group_version(api_version: str) -> tuple[str, str] | None:
    """(group, version) of an apiVersion (`v1` is the core group); None when malformed."""
    if api_version in ("", "/"):
        return "", ""
    parts = api_version.split("/")
    if len(parts) == 1:
        return "", api_version
    if len(parts) == 2:
        return parts[0], parts[1]
    return None


def _label_set(labels: Mapping[str, str]) -> list[Requirement]:
    """A label set as equality requirements, sorted by key (no validation, as upstream)."""
    return [Requirement(key, EQUALS, frozenset([labels[key]])) for key in sorted(labels)]


def _selects(selector: Mapping[str, str], labels: Mapping[str, str]) -> bool:
    return all(key in labels and labels[key] == value for key, value in selector.items())


def pod_services(pod: Pod, source: WorkloadSource) -> list[Service]:
    """The Services of the pod's namespace whose (non-empty) selector matches its labels."""
    labels = pod.metadata.labels
    return [
        service
        for service in source.services(pod.metadata.namespace)
        if service.spec.selector and _selects(service.spec.selector, labels)
    ]


def default_selector(pod: Pod, source: WorkloadSource) -> Selector:
    """The selector of everything that selects the pod; empty when nothing does."""
    label_set: dict[str, str] = {}
    for service in pod_services(pod, source):
        label_set.update(service.spec.selector)
    requirements = _label_set(label_set)
    owner = controller_of(pod)
    gv = group_version(owner.api_version) if owner is not None else None
    kind = CONTROLLER_KINDS.get((*gv, owner.kind)) if owner is not None and gv else None
    if owner is None or kind is None:
        return Selector(tuple(requirements))
    controller = source.controller(kind, pod.metadata.namespace, owner.name)
    if isinstance(controller, ReplicationController):
        label_set.update(controller.spec.selector)
        requirements = _label_set(label_set)
    elif controller is not None:
        try:
            own = as_selector(controller.spec.selector)
        except InputError:
            own = Selector(selects_nothing=True)
        if not own.selects_nothing:
            requirements += own.requirements
    return Selector(tuple(requirements))
