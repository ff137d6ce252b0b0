"""What the API server would refuse, for the objects and fields the scheduler reads.

A manifest can hold objects no cluster would store: a negative request, a
quantity no int64 holds, a Pod under `apps/v1`, a pod with no containers, a
name no API server accepts, a PodDisruptionBudget with a malformed
percentage. Each is one `FieldError` with upstream's wording, so the loader
can refuse the input before it changes anything.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from kubesched.api._field_errors import FieldError, invalid, not_supported, required
from kubesched.api._meta import LabelSelector
from kubesched.api._names import dns1123_label_errors, dns1123_subdomain_errors
from kubesched.api._node import Node
from kubesched.api._pod import Pod
from kubesched.api._policy import PodDisruptionBudget
from kubesched.api._quantity import format_quantity
from kubesched.api._resources import ResourceList, is_milli_resource
from kubesched.api._storage import CSINode, PersistentVolume, PersistentVolumeClaim, StorageClass
from kubesched.api._storage_validation import (
    csi_node_errors,
    pv_errors,
    pvc_errors,
    storage_class_errors,
    volume_errors,
)
from kubesched.api._tolerations import toleration_errors
from kubesched.api._workloads import ReplicaSet, StatefulSet
from kubesched.features import (
    DEFAULT_FEATURE_GATES,
    TAINT_TOLERATION_COMPARISON_OPERATORS,
    FeatureGates,
)

API_VERSIONS: Mapping[str, tuple[str, ...]] = {
    "Namespace": ("v1",),
    "Node": ("v1",),
    "Pod": ("v1",),
    "PodDisruptionBudget": ("policy/v1", "policy/v1beta1"),
    "PriorityClass": ("scheduling.k8s.io/v1",),
    "PersistentVolume": ("v1",),
    "PersistentVolumeClaim": ("v1",),
    "StorageClass": ("storage.k8s.io/v1", "storage.k8s.io/v1beta1"),
    "CSINode": ("storage.k8s.io/v1",),
    "VolumeAttachment": ("storage.k8s.io/v1",),
    "Service": ("v1",),
    "ReplicationController": ("v1",),
    "ReplicaSet": ("apps/v1",),
    "StatefulSet": ("apps/v1",),
}
"""The apiVersions a kind is served at."""
MAX_QUANTITY = 2**63 - 1
"""The largest amount the scheduler counts (an int64, as upstream's Value())."""
OPERATORS = ("In", "NotIn", "Exists", "DoesNotExist")
_PERCENT = re.compile(r"[0-9]+%")


def api_version_error(kind: str, api_version: object, in_list: bool) -> FieldError | None:
    """A missing or wrong apiVersion (items of a typed List may leave it out)."""
    served = API_VERSIONS.get(kind)
    if served is None:
        return None
    if api_version is None:
        return None if in_list else required("apiVersion", f'"{served[0]}" for kind {kind}')
    if api_version not in served:
        return invalid(
            "apiVersion", api_version, f'no matches for kind "{kind}" in version "{api_version}"'
        )
    return None


def _quantities(path: str, resources: ResourceList) -> Iterator[FieldError]:
    for name, amount in resources.items():
        where = f"{path}[{name}]"
        shown = format_quantity(amount, milli=is_milli_resource(name))
        if amount < 0:
            yield invalid(where, shown, "must be greater than or equal to 0")
        elif amount > MAX_QUANTITY:
            yield invalid(where, shown, f"must be at most {MAX_QUANTITY}, the largest int64")


def _name(path: str, name: str) -> Iterator[FieldError]:
    for problem in dns1123_subdomain_errors(name):
        yield invalid(path, name, problem)


def pod_errors(pod: Pod, gates: FeatureGates = DEFAULT_FEATURE_GATES) -> Iterator[FieldError]:
    """Why an API server would refuse this pod, for what the scheduler reads."""
    yield from _name("metadata.name", pod.metadata.name)
    if pod.metadata.namespace:
        for problem in dns1123_label_errors(pod.metadata.namespace):
            yield invalid("metadata.namespace", pod.metadata.namespace, problem)
    spec = pod.spec
    if not spec.containers:
        yield required("spec.containers")
    for group, containers in (
        ("containers", spec.containers),
        ("initContainers", spec.init_containers),
    ):
        for i, container in enumerate(containers):
            where = f"spec.{group}[{i}].resources"
            yield from _quantities(f"{where}.requests", container.resources.requests)
            yield from _quantities(f"{where}.limits", container.resources.limits)
    if spec.overhead:
        yield from _quantities("spec.overhead", spec.overhead)
    yield from volume_errors(spec.volumes)
    yield from toleration_errors(
        spec.tolerations, comparison=gates.enabled(TAINT_TOLERATION_COMPARISON_OPERATORS)
    )


def node_errors(node: Node) -> Iterator[FieldError]:
    """Why an API server would refuse this node, for what the scheduler reads."""
    yield from _name("metadata.name", node.metadata.name)
    yield from _quantities("status.capacity", node.status.capacity)
    yield from _quantities("status.allocatable", node.status.allocatable)


def _selector(path: str, selector: LabelSelector | None) -> Iterator[FieldError]:
    if selector is None:
        return
    for i, expression in enumerate(selector.match_expressions):
        where = f"{path}.matchExpressions[{i}]"
        if expression.operator not in OPERATORS:
            yield not_supported(f"{where}.operator", expression.operator, OPERATORS)
        elif expression.operator in ("In", "NotIn") and not expression.values:
            yield required(
                f"{where}.values", "must be specified when `operator` is 'In' or 'NotIn'"
            )
        elif expression.operator in ("Exists", "DoesNotExist") and expression.values:
            yield invalid(
                f"{where}.values",
                expression.values,
                "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
            )


def _int_or_percent(path: str, value: int | str | None) -> Iterator[FieldError]:
    if value is None:
        return
    if isinstance(value, int):
        if value < 0:
            yield invalid(path, value, "must be greater than or equal to 0")
    elif not _PERCENT.fullmatch(value):
        yield invalid(
            path,
            value,
            "a valid percent string must be a numeric string followed by an ending '%' "
            "(e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
        )
    elif int(value[:-1]) > 100:
        yield invalid(path, value, "must not be greater than 100%")


def pdb_errors(pdb: PodDisruptionBudget) -> Iterator[FieldError]:
    """Why an API server would refuse this PodDisruptionBudget."""
    yield from _name("metadata.name", pdb.metadata.name)
    spec = pdb.spec
    if spec.min_available is not None and spec.max_unavailable is not None:
        yield invalid(
            "spec", spec.min_available, "minAvailable and maxUnavailable cannot be both set"
        )
    yield from _int_or_percent("spec.minAvailable", spec.min_available)
    yield from _int_or_percent("spec.maxUnavailable", spec.max_unavailable)
    yield from _selector("spec.selector", spec.selector)


def workload_errors(workload: ReplicaSet | StatefulSet) -> Iterator[FieldError]:
    """Why an API server would refuse this ReplicaSet or StatefulSet, for its selector."""
    yield from _name("metadata.name", workload.metadata.name)
    if workload.spec.selector is None:
        yield required("spec.selector")
    yield from _selector("spec.selector", workload.spec.selector)


def object_errors(obj: Any, gates: FeatureGates = DEFAULT_FEATURE_GATES) -> Iterator[FieldError]:
    """Why an API server with these feature gates would refuse `obj` (any kind the loader
    reads)."""
    if isinstance(obj, Pod):
        yield from pod_errors(obj, gates)
    elif isinstance(obj, Node):
        yield from node_errors(obj)
    elif isinstance(obj, PodDisruptionBudget):
        yield from pdb_errors(obj)
    elif isinstance(obj, PersistentVolumeClaim):
        yield from pvc_errors(obj)
    elif isinstance(obj, PersistentVolume):
        yield from pv_errors(obj)
    elif isinstance(obj, StorageClass):
        yield from storage_class_errors(obj)
    elif isinstance(obj, CSINode):
        yield from csi_node_errors(obj)
    elif isinstance(obj, ReplicaSet | StatefulSet):
        yield from workload_errors(obj)
    else:
        yield from _name("metadata.name", obj.metadata.name)
