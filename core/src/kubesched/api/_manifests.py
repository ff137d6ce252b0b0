"""Loading Kubernetes manifests (YAML or JSON files, directories, stdin) into objects.

`load_manifests` reads what `kubectl get nodes,pods -A -o yaml` prints, plain
multi-document YAML, JSON, and `kind: List` (or NodeList, PodList...) wrappers.
It keeps Nodes, Pods, PodDisruptionBudgets, PriorityClasses, Namespaces, the
storage kinds the volume plugins read (PersistentVolume, PersistentVolumeClaim,
StorageClass, CSINode, VolumeAttachment), the workloads PodTopologySpread's default
constraints read (Service, ReplicationController, ReplicaSet, StatefulSet) and the
`resource.k8s.io/v1` kinds DynamicResources reads (DeviceClass, ResourceClaim,
ResourceClaimTemplate, ResourceSlice); any
other kind is skipped, with one warning per kind that counts its objects. Namespaced
objects without a namespace go to `default`, objects without a uid get a stable one.
Documents are counted from 0 within each file. Any problem raises one `InputError` naming
the file, the document, the object and the field.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from attrs import evolve, field, frozen

from kubesched.api._converter import structure
from kubesched.api._defaults import default_node, default_pod
from kubesched.api._heap import collector_paused
from kubesched.api._json_stream import StreamedFile
from kubesched.api._list_items import LazyItems
from kubesched.api._load_progress import LoadTracker, Watcher, input_size
from kubesched.api._manifest_sources import MANIFEST_SUFFIXES, STDIN, documents, sources
from kubesched.api._namespace import Namespace
from kubesched.api._node import Node
from kubesched.api._pod import Pod
from kubesched.api._policy import PodDisruptionBudget, PriorityClass
from kubesched.api._resource import (
    DeviceClass,
    ResourceClaim,
    ResourceClaimTemplate,
    ResourceSlice,
    default_resource_object,
)
from kubesched.api._storage import (
    CSINode,
    PersistentVolume,
    PersistentVolumeClaim,
    StorageClass,
    VolumeAttachment,
)
from kubesched.api._validation import api_version_error, object_errors
from kubesched.api._workloads import (
    ReplicaSet,
    ReplicationController,
    Service,
    StatefulSet,
    Workload,
)
from kubesched.errors import InputError
from kubesched.features import DEFAULT_FEATURE_GATES, FeatureGates

_UID_NAMESPACE = uuid.UUID("6f1d3c8e-2b7a-5e4f-9a0d-1c2b3a4d5e6f")
ManifestObject = (
    Node
    | Pod
    | PodDisruptionBudget
    | PriorityClass
    | Namespace
    | PersistentVolume
    | PersistentVolumeClaim
    | StorageClass
    | CSINode
    | VolumeAttachment
    | Service
    | ReplicationController
    | ReplicaSet
    | StatefulSet
    | DeviceClass
    | ResourceClaim
    | ResourceClaimTemplate
    | ResourceSlice
)
"""The kinds a manifest may hold that kubesched reads."""
_KINDS: dict[str, type[ManifestObject]] = {
    "Node": Node,
    "Pod": Pod,
    "PodDisruptionBudget": PodDisruptionBudget,
    "PriorityClass": PriorityClass,
    "PersistentVolume": PersistentVolume,
    "PersistentVolumeClaim": PersistentVolumeClaim,
    "StorageClass": StorageClass,
    "CSINode": CSINode,
    "VolumeAttachment": VolumeAttachment,
    "Namespace": Namespace,
    "Service": Service,
    "ReplicationController": ReplicationController,
    "ReplicaSet": ReplicaSet,
    "StatefulSet": StatefulSet,
    "DeviceClass": DeviceClass,
    "ResourceClaim": ResourceClaim,
    "ResourceClaimTemplate": ResourceClaimTemplate,
    "ResourceSlice": ResourceSlice,
}
_READS = "kubesched reads only " + ", ".join(_KINDS)
_NAMESPACED = {"Pod", "PodDisruptionBudget", "PersistentVolumeClaim"}
_NAMESPACED |= {"Service", "ReplicationController", "ReplicaSet", "StatefulSet"}
_NAMESPACED |= {"ResourceClaim", "ResourceClaimTemplate"}
_DEFAULT_NAMESPACE = "default"
FINISHED_PHASES = frozenset({"Succeeded", "Failed"})
"""Pods in these phases are done: upstream's pod informer leaves them out."""


def default_uid(kind: str, namespace: str, name: str) -> str:
    """A stable uid for an object that has none: uuid5 of `kind/namespace/name`."""
    return str(uuid.uuid5(_UID_NAMESPACE, f"{kind}/{namespace}/{name}"))


@frozen
class ClusterObjects:
    """Everything a set of manifests describes, in the order it was read."""

    nodes: list[Node] = field(factory=list)
    pods: list[Pod] = field(factory=list)
    pod_disruption_budgets: list[PodDisruptionBudget] = field(factory=list)
    priority_classes: list[PriorityClass] = field(factory=list)
    persistent_volumes: list[PersistentVolume] = field(factory=list)
    persistent_volume_claims: list[PersistentVolumeClaim] = field(factory=list)
    storage_classes: list[StorageClass] = field(factory=list)
    csi_nodes: list[CSINode] = field(factory=list)
    volume_attachments: list[VolumeAttachment] = field(factory=list)
    namespaces: list[Namespace] = field(factory=list)
    services: list[Service] = field(factory=list)
    replication_controllers: list[ReplicationController] = field(factory=list)
    replica_sets: list[ReplicaSet] = field(factory=list)
    stateful_sets: list[StatefulSet] = field(factory=list)
    device_classes: list[DeviceClass] = field(factory=list)
    resource_claims: list[ResourceClaim] = field(factory=list)
    resource_claim_templates: list[ResourceClaimTemplate] = field(factory=list)
    resource_slices: list[ResourceSlice] = field(factory=list)
    warnings: list[str] = field(factory=list)
    """One line per kind skipped (how many objects, and where the first was), and per
    other thing not read."""

    @property
    def workloads(self) -> list[Workload]:
        """The Services, ReplicationControllers, ReplicaSets and StatefulSets."""
        return [
            *self.services,
            *self.replication_controllers,
            *self.replica_sets,
            *self.stateful_sets,
        ]


@frozen
class _Place:
    """Where a document is: the file and the document's 0-based index in it."""

    file: str
    document: int

    def error(
        self, message: str, *, obj: str | None = None, field: str | None = None
    ) -> InputError:
        return InputError(message, file=self.file, document=self.document, obj=obj, field=field)


def _objects(document: Any, place: _Place) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """The objects in a document as (path prefix, object), unwrapping List kinds."""
    if not isinstance(document, Mapping):
        raise place.error(f"expected a Kubernetes object, got {type(document).__name__}")
    yield from _unwrap(document, "", "", place)


def _unwrap(
    document: Mapping[str, Any], prefix: str, kind_hint: str, place: _Place
) -> Iterator[tuple[str, Mapping[str, Any]]]:
    kind = document.get("kind") or kind_hint
    if not (isinstance(kind, str) and kind.endswith("List") and "items" in document):
        yield prefix, {**document, "kind": kind}
        return
    items = document["items"] or []
    if not isinstance(items, (list, LazyItems)):
        raise place.error(f"expected a list of objects in {kind}", field=f"{prefix}items")
    for i, item in enumerate(items):
        if not isinstance(item, Mapping):
            raise place.error("expected an object", field=f"{prefix}items[{i}]")
        yield from _unwrap(item, f"{prefix}items[{i}].", kind.removesuffix("List"), place)


def _count(document: Any) -> int:
    """How many objects a document holds (a List's items, each nested List's too), counted
    without reading items not read yet."""
    if not isinstance(document, Mapping):
        return 1
    kind, items = document.get("kind"), document.get("items")
    if not (isinstance(kind, str) and kind.endswith("List") and "items" in document):
        return 1
    if isinstance(items, LazyItems):
        return len(items)
    if not isinstance(items, list):
        return 0  # refused when read
    return sum(_count(item) for item in items)


def _looks_like_an_object(document: Any) -> bool:
    """Whether a document could be a Kubernetes object: a mapping with `apiVersion` or `kind`
    (a stray values.yaml in a directory of manifests is not, and is skipped)."""
    return isinstance(document, Mapping) and ("apiVersion" in document or "kind" in document)


def _identity(raw: Mapping[str, Any], kind: str) -> tuple[str, str]:
    """(namespace, name) as given; namespaced kinds default to `default`, the others
    (Nodes, PriorityClasses, PersistentVolumes...) are cluster-scoped."""
    metadata = raw.get("metadata")
    metadata = metadata if isinstance(metadata, Mapping) else {}
    name, namespace = metadata.get("name"), metadata.get("namespace")
    if kind in _KINDS and kind not in _NAMESPACED:
        namespace = ""
    elif kind in _NAMESPACED and not namespace:
        namespace = _DEFAULT_NAMESPACE
    return (
        namespace if isinstance(namespace, str) else "",
        name if isinstance(name, str) else "",
    )


def _label(kind: str, namespace: str, name: str, where: str) -> str:
    """How errors name an object: `Pod default/web-1`, `Node n1`, `Pod at items[3]`."""
    if not name:
        return f"{kind} at {where.rstrip('.') or 'the top level'}"
    return f"{kind} {namespace}/{name}" if namespace else f"{kind} {name}"


def _structure(
    raw: Mapping[str, Any], kind: str, label: str, place: _Place, gates: FeatureGates
) -> ManifestObject:
    """The object, checked as an API server would check it before storing it."""
    try:
        obj = structure(raw, _KINDS[kind])
    except InputError as exc:
        raise type(exc)(
            exc.message, file=place.file, document=place.document, obj=label, field=exc.field
        ) from None
    if isinstance(obj, Pod):
        obj = default_pod(obj)
    elif isinstance(obj, Node):
        obj = default_node(obj)
    else:
        obj = default_resource_object(obj)
    problem = next(object_errors(obj, gates), None)
    if problem is not None:
        raise place.error(problem.body, obj=label, field=problem.path)
    return obj


def _second_default(first: str) -> str:
    """What the Priority admission plugin says of a second globalDefault PriorityClass."""
    return f"PriorityClass {first} is already marked as default. Only one default can exist"


def load_manifests(
    source: str | Path,
    *,
    feature_gates: FeatureGates = DEFAULT_FEATURE_GATES,
    progress: Watcher | None = None,
) -> ClusterObjects:
    """Read the objects of every kind kubesched reads (see the module) in a file, a directory
    (recursively: *.yaml, *.yml, *.json in sorted order) or `"-"` (standard input); they
    are validated as an API server with these feature gates would. `progress`, when given,
    hears how far the load has got (`LoadProgress`)."""
    tracker = None
    if progress is not None:
        total = 0 if source == STDIN else input_size(source, MANIFEST_SUFFIXES)
        tracker = LoadTracker(progress, total)
    with collector_paused():  # every object read lives on: collections would free nothing
        return _load(source, feature_gates, tracker)


def _skipped_warnings(skipped: Mapping[str, tuple[int, str]]) -> list[str]:
    """One line per skipped kind (its count, where the first was), then the kinds read."""
    if not skipped:
        return []
    lines = [
        f"skipped {count} {kind} object{'s' if count != 1 else ''} (the first: {first})"
        for kind, (count, first) in skipped.items()
    ]
    return [*lines, _READS]


def _size(text: str | bytes | StreamedFile) -> int:
    """A file's size in bytes, from what `sources` gave for it."""
    if isinstance(text, StreamedFile):
        return text.size
    return len(text) if isinstance(text, bytes) else len(text.encode("utf-8", "surrogatepass"))


def _load(
    source: str | Path, feature_gates: FeatureGates, tracker: LoadTracker | None = None
) -> ClusterObjects:
    found: dict[str, list[Any]] = {kind: [] for kind in _KINDS}
    warnings: list[str] = []
    skipped: dict[str, tuple[int, str]] = {}
    first_seen: dict[tuple[str, str, str], _Place] = {}
    bound: list[tuple[str, str, _Place]] = []
    finished = 0
    default_class: str | None = None
    in_directory = source != STDIN and Path(source).is_dir()
    for file, text in sources(source):
        if tracker is not None:
            tracker.start_file(_size(text))
        for index, document in documents(file, text):
            place = _Place(file, index)
            if in_directory and not _looks_like_an_object(document):
                warnings.append(f"{file}: document {index}: skipped, not a Kubernetes object")
                continue
            if tracker is not None:
                tracker.expect(_count(document))
            for where, raw in _objects(document, place):
                if tracker is not None:
                    tracker.object_read()
                kind = raw["kind"]
                if not isinstance(kind, str) or not kind:
                    _, name = _identity(raw, "")
                    raise place.error("missing kind", obj=name or None, field=f"{where}kind")
                namespace, name = _identity(raw, kind)
                label = _label(kind, namespace, name, where)
                if kind not in _KINDS:
                    count, at = skipped.get(kind, (0, f"{file}: document {index}: {label}"))
                    skipped[kind] = (count + 1, at)
                    continue
                version = api_version_error(kind, raw.get("apiVersion"), in_list=bool(where))
                if version is not None:
                    raise place.error(version.body, obj=label, field=f"{where}apiVersion")
                metadata = raw.get("metadata")
                if metadata is not None and not isinstance(metadata, Mapping):
                    shown = json.dumps(metadata, default=str)[:60]
                    raise place.error(
                        f"expected an object, got {shown}", obj=label, field=f"{where}metadata"
                    )
                if not name:
                    given = metadata.get("name") if isinstance(metadata, Mapping) else None
                    problem = (
                        "missing name"
                        if given in (None, "")
                        else (f"must be a string, got {json.dumps(given)[:60]}")
                    )
                    raise place.error(problem, obj=label, field="metadata.name")
                first = first_seen.setdefault((kind, namespace, name), place)
                if first is not place:
                    where_first = f"{first.file} document {first.document}"
                    raise place.error(f"duplicate of the object in {where_first}", obj=label)
                obj = _structure(raw, kind, label, place, feature_gates)
                if isinstance(obj, PriorityClass) and obj.global_default:
                    if default_class is not None:
                        raise place.error(_second_default(default_class), obj=label)
                    default_class = name
                if isinstance(obj, Pod) and obj.status.phase in FINISHED_PHASES:
                    finished += 1
                    continue
                uid = obj.metadata.uid or default_uid(kind, namespace, name)
                if (obj.metadata.namespace, obj.metadata.uid) != (namespace, uid):
                    obj = evolve(obj, metadata=evolve(obj.metadata, namespace=namespace, uid=uid))
                found[kind].append(obj)
                if isinstance(obj, Pod) and obj.spec.node_name:
                    bound.append((label, obj.spec.node_name, place))
    warnings += _skipped_warnings(skipped)
    if finished:
        warnings.append(
            f"ignored {finished} finished pod{'s' if finished != 1 else ''} (phase Succeeded or "
            "Failed): they hold no resources, and the scheduler never sees them"
        )
    nodes = {node.metadata.name for node in found["Node"]}
    warnings += [
        f"{place.file}: document {place.document}: {label} runs on node {node}, which the "
        "input does not have; it takes no node's resources"
        for label, node, place in bound
        if node not in nodes
    ]
    return ClusterObjects(
        nodes=found["Node"],
        pods=found["Pod"],
        pod_disruption_budgets=found["PodDisruptionBudget"],
        priority_classes=found["PriorityClass"],
        persistent_volumes=found["PersistentVolume"],
        persistent_volume_claims=found["PersistentVolumeClaim"],
        storage_classes=found["StorageClass"],
        csi_nodes=found["CSINode"],
        volume_attachments=found["VolumeAttachment"],
        namespaces=found["Namespace"],
        services=found["Service"],
        replication_controllers=found["ReplicationController"],
        replica_sets=found["ReplicaSet"],
        stateful_sets=found["StatefulSet"],
        device_classes=found["DeviceClass"],
        resource_claims=found["ResourceClaim"],
        resource_claim_templates=found["ResourceClaimTemplate"],
        resource_slices=found["ResourceSlice"],
        warnings=warnings,
    )
