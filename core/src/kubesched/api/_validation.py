"""What the API server would refuse, for the objects and fields the scheduler reads.

A manifest can hold objects no cluster would store: a negative request, a
quantity no int64 holds, a Pod under `apps/v1`, a pod with no containers, a
name no API server accepts, a PodDisruptionBudget with a malformed
percentage. Each is one `FieldError` with upstream's wording, so the loader
can refuse the input before it changes anything.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from kubesched.api._field_errors import (
    FieldError,
    duplicate,
    forbidden,
    invalid,
    not_supported,
    required,
)
from kubesched.api._meta_validation import (
    label_errors,
    label_name_errors,
    meta_errors,
    selector_errors,
    value_problems,
)
from kubesched.api._names import dns1123_label_errors, dns1123_subdomain_errors
from kubesched.api._node import Node, Taint
from kubesched.api._pod import Pod
from kubesched.api._pod_validation import INT32, PREEMPTION_POLICIES, pod_spec_errors
from kubesched.api._policy import PodDisruptionBudget, PriorityClass
from kubesched.api._quantity import format_quantity
from kubesched.api._resource import (
    RESOURCE_API_VERSION,
    DeviceClass,
    ResourceClaim,
    ResourceClaimTemplate,
    ResourceSlice,
)
from kubesched.api._resource_validation import (
    device_class_errors,
    pod_resource_claim_errors,
    resource_claim_errors,
    resource_claim_template_errors,
    resource_slice_errors,
)
from kubesched.api._resources import ResourceList, is_milli_resource
from kubesched.api._storage import CSINode, PersistentVolume, PersistentVolumeClaim, StorageClass
from kubesched.api._storage_validation import (
    csi_node_errors,
    pv_errors,
    pvc_errors,
    storage_class_errors,
    volume_errors,
)
from kubesched.api._tolerations import effect_errors, toleration_errors
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
    "DeviceClass": (RESOURCE_API_VERSION,),
    "ResourceClaim": (RESOURCE_API_VERSION,),
    "ResourceClaimTemplate": (RESOURCE_API_VERSION,),
    "ResourceSlice": (RESOURCE_API_VERSION,),
}
"""The apiVersions a kind is served at."""
MAX_QUANTITY = 2**63 - 1
"""The largest amount the scheduler counts (an int64, as upstream's Value())."""
SYSTEM_PRIORITY_CLASS_PREFIX = "system-"
SYSTEM_PRIORITY_CLASSES: Mapping[str, int] = {
    "system-node-critical": 2_000_001_000,
    "system-cluster-critical": 2_000_000_000,
}
"""The PriorityClasses an API server creates itself, with their values."""
HIGHEST_USER_DEFINABLE_PRIORITY = 1_000_000_000
_UNIQUE_TAINTS = "taints must be unique by key and effect pair"
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
        if 0 <= amount <= MAX_QUANTITY:
            continue
        where = f"{path}[{name}]"
        shown = format_quantity(amount, milli=is_milli_resource(name))
        if amount < 0:
            yield invalid(where, shown, "must be greater than or equal to 0")
        else:
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
    yield from meta_errors(pod.metadata)
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
    if spec.node_selector:
        yield from label_errors("spec.nodeSelector", spec.node_selector)
    yield from pod_spec_errors(spec, pod.metadata.labels, gates)


def node_errors(node: Node) -> Iterator[FieldError]:
    """Why an API server would refuse this node, for what the scheduler reads."""
    yield from _name("metadata.name", node.metadata.name)
    yield from meta_errors(node.metadata)
    yield from _taint_errors(node.spec.taints)
    yield from _quantities("status.capacity", node.status.capacity)
    yield from _quantities("status.allocatable", node.status.allocatable)


def _taint_errors(taints: Sequence[Taint]) -> Iterator[FieldError]:
    """validateNodeTaints: key, value and effect, unique by key and effect."""
    seen: set[tuple[str, str]] = set()
    for i, taint in enumerate(taints):
        path = f"spec.taints[{i}]"
        yield from label_name_errors(f"{path}.key", taint.key)
        problems = value_problems(taint.value)
        if problems:
            yield invalid(f"{path}.value", taint.value, ";".join(problems))
        yield from effect_errors(f"{path}.effect", taint.effect, allow_empty=False)
        if (taint.key, taint.effect) in seen:
            error = duplicate(path, f"{taint.key}={taint.value}:{taint.effect}")
            yield FieldError(error.path, error.kind, error.value, _UNIQUE_TAINTS)
        seen.add((taint.key, taint.effect))


def priority_class_errors(priority_class: PriorityClass) -> Iterator[FieldError]:
    """ValidatePriorityClass: the reserved `system-` names, the highest value a user may
    give, the preemption policy."""
    name = priority_class.metadata.name
    yield from _name("metadata.name", name)
    yield from meta_errors(priority_class.metadata)
    if name.startswith(SYSTEM_PRIORITY_CLASS_PREFIX):
        known = SYSTEM_PRIORITY_CLASSES.get(name)
        if known is None:  # IsKnownSystemPriorityClass's words, the name printed bare
            problem = f"{name} is not a known system priority class"
        elif priority_class.value != known:
            problem = f"value of {name} PriorityClass must be {known}"
        elif priority_class.global_default:
            problem = f"globalDefault of {name} PriorityClass must be false"
        else:
            problem = ""
        if problem:
            yield forbidden(
                "metadata.name",
                f"priority class names with '{SYSTEM_PRIORITY_CLASS_PREFIX}' prefix are reserved "
                f"for system use only. error: {problem}",
            )
    elif priority_class.value > HIGHEST_USER_DEFINABLE_PRIORITY:
        yield forbidden(
            "value",
            "maximum allowed value of a user defined priority is "
            f"{HIGHEST_USER_DEFINABLE_PRIORITY}",
        )
    if priority_class.value not in INT32:
        yield invalid("value", priority_class.value, "must fit in a 32-bit integer")
    policy = priority_class.preemption_policy
    if policy is not None and policy not in PREEMPTION_POLICIES:
        yield not_supported("preemptionPolicy", policy, PREEMPTION_POLICIES)


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
    yield from meta_errors(pdb.metadata)
    spec = pdb.spec
    if spec.min_available is not None and spec.max_unavailable is not None:
        yield invalid(
            "spec", spec.min_available, "minAvailable and maxUnavailable cannot be both set"
        )
    yield from _int_or_percent("spec.minAvailable", spec.min_available)
    yield from _int_or_percent("spec.maxUnavailable", spec.max_unavailable)
    yield from selector_errors("spec.selector", spec.selector)


def workload_errors(workload: ReplicaSet | StatefulSet) -> Iterator[FieldError]:
    """Why an API server would refuse this ReplicaSet or StatefulSet, for its selector."""
    yield from _name("metadata.name", workload.metadata.name)
    yield from meta_errors(workload.metadata)
    if workload.spec.selector is None:
        yield required("spec.selector")
    yield from selector_errors("spec.selector", workload.spec.selector)


def object_errors(obj: Any, gates: FeatureGates = DEFAULT_FEATURE_GATES) -> Iterator[FieldError]:
    """Why an API server with these feature gates would refuse `obj` (any kind the loader
    reads)."""
    if isinstance(obj, Pod):
        yield from pod_errors(obj, gates)
        yield from pod_resource_claim_errors(obj.spec.resource_claims)
    elif isinstance(obj, DeviceClass):
        yield from device_class_errors(obj)
    elif isinstance(obj, ResourceClaim):
        yield from resource_claim_errors(obj)
    elif isinstance(obj, ResourceClaimTemplate):
        yield from resource_claim_template_errors(obj)
    elif isinstance(obj, ResourceSlice):
        yield from resource_slice_errors(obj)
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
    elif isinstance(obj, PriorityClass):
        yield from priority_class_errors(obj)
    else:
        yield from _name("metadata.name", obj.metadata.name)
        yield from meta_errors(obj.metadata)
