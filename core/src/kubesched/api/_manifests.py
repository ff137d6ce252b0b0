"""Loading Kubernetes manifests (YAML or JSON files, directories, stdin) into objects.

`load_manifests` reads what `kubectl get nodes,pods -A -o yaml` prints, plain
multi-document YAML, JSON, and `kind: List` (or NodeList, PodList...) wrappers.
It keeps Nodes, Pods, PodDisruptionBudgets, PriorityClasses, Namespaces, the
storage kinds the volume plugins read (PersistentVolume, PersistentVolumeClaim,
StorageClass, CSINode, VolumeAttachment) and the workloads PodTopologySpread's default
constraints read (Service, ReplicationController, ReplicaSet, StatefulSet); any
other kind is skipped, with one warning per kind that counts its objects. Namespaced
objects without a namespace go to `default`, objects without a uid get a stable one.
Documents are counted from 0 within each file. Any problem raises one `InputError` naming
the file, the document, the object and the field.
"""

from __future__ import annotations

import json
import sys
import uuid
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from attrs import evolve, field, frozen

from kubesched.api._converter import structure
from kubesched.api._defaults import default_node, default_pod
from kubesched.api._heap import collector_paused
from kubesched.api._load_progress import LoadTracker, Watcher, input_size
from kubesched.api._namespace import Namespace
from kubesched.api._node import Node
from kubesched.api._pod import Pod
from kubesched.api._policy import PodDisruptionBudget, PriorityClass
from kubesched.api._storage import (
    CSINode,
    PersistentVolume,
    PersistentVolumeClaim,
    StorageClass,
    VolumeAttachment,
)
from kubesched.api._text import TextError, parse_json, parse_yaml
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

STDIN = "-"
"""The source name that reads manifests from standard input."""
MANIFEST_SUFFIXES = (".yaml", ".yml", ".json")
"""Files a directory source contributes."""

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
}
_READS = "kubesched reads only " + ", ".join(_KINDS)
_NAMESPACED = {"Pod", "PodDisruptionBudget", "PersistentVolumeClaim"}
_NAMESPACED |= {"Service", "ReplicationController", "ReplicaSet", "StatefulSet"}
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


def _read_stdin() -> str:
    """Standard input as UTF-8 text, whatever the locale's encoding."""
    buffer = getattr(sys.stdin, "buffer", None)
    if buffer is None:  # replaced by a text stream
        return sys.stdin.read()
    try:
        return str(buffer.read().decode("utf-8"))
    except UnicodeDecodeError as exc:
        problem = f"not UTF-8 text ({exc.reason} at byte {exc.start})"
        raise InputError(f"cannot read: {problem}", file="<stdin>") from None


def _sources(source: str | Path) -> Iterator[tuple[str, str]]:
    """(name, text) of every manifest file the source stands for."""
    if source == STDIN:
        yield "<stdin>", _read_stdin()
        return
    path = Path(source)
    if path.is_dir():
        files = sorted(p for p in path.rglob("*") if p.suffix in MANIFEST_SUFFIXES and p.is_file())
    elif path.exists():
        files = [path]
    else:
        raise InputError("no such file or directory", file=str(source))
    for file in files:
        try:
            yield str(file), file.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise InputError(f"cannot read: {exc}", file=str(file)) from None


def _documents(name: str, text: str) -> Iterator[tuple[int, Any]]:
    """(index, parsed document) for every non-empty document in a file.

    `*.json` files are JSON; other text that opens with `{` is tried as JSON
    first (far faster than YAML for `kubectl get -o json` output) and read as
    YAML when it is not JSON. A duplicate field is an error, as upstream's
    strict decoding says.
    """
    try:
        if name.endswith(".json") or text.lstrip().startswith("{"):
            try:
                yield 0, parse_json(text)
                return
            except TextError:
                if name.endswith(".json"):
                    raise
        for index, document, problems in parse_yaml(text):
            if document is None:
                continue
            if problems:
                field, _, message = problems[0].partition(": ")
                raise InputError(message, file=name, document=index, field=field)
            yield index, document
    except TextError as exc:
        raise InputError(exc.message, file=name, document=exc.document) from None


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
    if not isinstance(items, list):
        raise place.error(f"expected a list of objects in {kind}", field=f"{prefix}items")
    for i, item in enumerate(items):
        if not isinstance(item, Mapping):
            raise place.error("expected an object", field=f"{prefix}items[{i}]")
        yield from _unwrap(item, f"{prefix}items[{i}].", kind.removesuffix("List"), place)


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
    problem = next(object_errors(obj, gates), None)
    if problem is not None:
        raise place.error(problem.body, obj=label, field=problem.path)
    return obj


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


def _load(
    source: str | Path, feature_gates: FeatureGates, tracker: LoadTracker | None = None
) -> ClusterObjects:
    found: dict[str, list[Any]] = {kind: [] for kind in _KINDS}
    warnings: list[str] = []
    skipped: dict[str, tuple[int, str]] = {}
    first_seen: dict[tuple[str, str, str], _Place] = {}
    bound: list[tuple[str, str, _Place]] = []
    finished = 0
    in_directory = source != STDIN and Path(source).is_dir()
    for file, text in _sources(source):
        if tracker is not None:
            tracker.start_file(len(text.encode("utf-8", "surrogatepass")))
        for index, document in _documents(file, text):
            place = _Place(file, index)
            if in_directory and not _looks_like_an_object(document):
                warnings.append(f"{file}: document {index}: skipped, not a Kubernetes object")
                continue
            objects = list(_objects(document, place))
            if tracker is not None:
                tracker.expect(len(objects))
            for where, raw in objects:
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
                if not name:
                    given = (raw.get("metadata") or {}).get("name")
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
                if isinstance(obj, Pod) and obj.status.phase in FINISHED_PHASES:
                    finished += 1
                    continue
                uid = obj.metadata.uid or default_uid(kind, namespace, name)
                found[kind].append(
                    evolve(obj, metadata=evolve(obj.metadata, namespace=namespace, uid=uid))
                )
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
        warnings=warnings,
    )


def read_object(
    raw: Any,
    kind: str,
    *,
    file: str,
    obj: str | None = None,
    field_prefix: str = "",
    uid: str | None = None,
    feature_gates: FeatureGates = DEFAULT_FEATURE_GATES,
) -> ManifestObject:
    """One object of `kind` given inline (a scenario's pod or node), defaulted and validated
    as `load_manifests` does its objects; InputError naming `file`, `obj` (default: the
    object's kind and name) and the field under `field_prefix`. `uid` is used when the
    manifest has none (else a stable one from the kind and name)."""
    if not isinstance(raw, Mapping):
        raise InputError(
            f"expected a {kind} object, got {type(raw).__name__}",
            file=file,
            obj=obj,
            field=field_prefix.rstrip(".") or None,
        )
    if raw.get("kind") not in (None, kind):
        raise InputError(
            f"expected kind {kind}, got {raw.get('kind')!r}",
            file=file,
            obj=obj,
            field=f"{field_prefix}kind",
        )
    raw = {"apiVersion": "v1", **raw, "kind": kind}
    namespace, name = _identity(raw, kind)
    label = obj or _label(kind, namespace, name, field_prefix)
    if not name:
        raise InputError("missing name", file=file, obj=label, field=f"{field_prefix}metadata.name")
    version = api_version_error(kind, raw.get("apiVersion"), in_list=False)
    if version is not None:
        raise InputError(version.body, file=file, obj=label, field=f"{field_prefix}apiVersion")
    try:
        structured = _structure(raw, kind, label, _Place(file, 0), feature_gates)
    except InputError as exc:
        inner = f"{field_prefix}{exc.field}" if exc.field else field_prefix.rstrip(".") or None
        raise InputError(exc.message, file=file, obj=label, field=inner) from None
    uid = structured.metadata.uid or uid or default_uid(kind, namespace, name)
    return evolve(structured, metadata=evolve(structured.metadata, namespace=namespace, uid=uid))
