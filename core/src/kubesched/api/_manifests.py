"""Loading Kubernetes manifests (YAML or JSON files, directories, stdin) into objects.

`load_manifests` reads what `kubectl get nodes,pods -A -o yaml` prints, plain
multi-document YAML, JSON, and `kind: List` (or NodeList, PodList...) wrappers.
It keeps Nodes, Pods, PodDisruptionBudgets and PriorityClasses; any other kind
is skipped with a warning. Namespaced objects without a namespace go to
`default`, objects without a uid get a stable one. Documents are counted from 0
within each file. Any problem raises one `InputError` naming the file, the
document, the object and the field.
"""

from __future__ import annotations

import json
import sys
import uuid
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import yaml
from attrs import evolve, field, frozen

from kubesched.api._converter import structure
from kubesched.api._node import Node
from kubesched.api._pod import Pod
from kubesched.api._policy import PodDisruptionBudget, PriorityClass
from kubesched.errors import InputError

STDIN = "-"
"""The source name that reads manifests from standard input."""
MANIFEST_SUFFIXES = (".yaml", ".yml", ".json")
"""Files a directory source contributes."""

_UID_NAMESPACE = uuid.UUID("6f1d3c8e-2b7a-5e4f-9a0d-1c2b3a4d5e6f")
ManifestObject = Node | Pod | PodDisruptionBudget | PriorityClass
"""The kinds a manifest may hold that kubesched reads."""
_KINDS: dict[str, type[ManifestObject]] = {
    "Node": Node,
    "Pod": Pod,
    "PodDisruptionBudget": PodDisruptionBudget,
    "PriorityClass": PriorityClass,
}
_READS = "kubesched reads only " + ", ".join(_KINDS)
_NAMESPACED = {"Pod", "PodDisruptionBudget"}
_DEFAULT_NAMESPACE = "default"


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
    warnings: list[str] = field(factory=list)
    """One line per skipped object: file, document, kind and name."""


class _Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
    """Safe YAML (libyaml when present) that keeps timestamps as strings, as Kubernetes'
    YAML-to-JSON step does."""


_Loader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def _sources(source: str | Path) -> Iterator[tuple[str, str]]:
    """(name, text) of every manifest file the source stands for."""
    if source == STDIN:
        yield "<stdin>", sys.stdin.read()
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
    YAML when it is not JSON.
    """
    if name.endswith(".json") or text.lstrip().startswith("{"):
        try:
            yield 0, json.loads(text)
            return
        except json.JSONDecodeError as exc:
            if name.endswith(".json"):
                message = f"invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"
                raise InputError(message, file=name, document=0) from None
    parsed = 0
    try:
        for document in yaml.load_all(text, Loader=_Loader):
            if document is not None:
                yield parsed, document
            parsed += 1
    except yaml.YAMLError as exc:
        raise InputError(_yaml_problem(exc), file=name, document=parsed) from None


def _yaml_problem(exc: yaml.YAMLError) -> str:
    mark = getattr(exc, "problem_mark", None)
    problem = getattr(exc, "problem", None) or str(exc)
    where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
    return f"invalid YAML{where}: {problem}"


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


def _identity(raw: Mapping[str, Any], kind: str) -> tuple[str, str]:
    """(namespace, name) as given; Pods and PDBs default to `default`, Nodes and
    PriorityClasses are cluster-scoped."""
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


def _structure(raw: Mapping[str, Any], kind: str, label: str, place: _Place) -> ManifestObject:
    try:
        return structure(raw, _KINDS[kind])
    except InputError as exc:
        raise type(exc)(
            exc.message, file=place.file, document=place.document, obj=label, field=exc.field
        ) from None


def load_manifests(source: str | Path) -> ClusterObjects:
    """Read the nodes, pods, PodDisruptionBudgets and PriorityClasses in a file, a directory
    (recursively: *.yaml, *.yml, *.json in sorted order) or `"-"` (standard input)."""
    found: dict[str, list[Any]] = {kind: [] for kind in _KINDS}
    warnings: list[str] = []
    first_seen: dict[tuple[str, str, str], _Place] = {}
    for file, text in _sources(source):
        for index, document in _documents(file, text):
            place = _Place(file, index)
            for where, raw in _objects(document, place):
                kind = raw["kind"]
                if not isinstance(kind, str) or not kind:
                    _, name = _identity(raw, "")
                    raise place.error("missing kind", obj=name or None, field=f"{where}kind")
                namespace, name = _identity(raw, kind)
                label = _label(kind, namespace, name, where)
                if kind not in _KINDS:
                    warnings.append(f"{file}: document {index}: skipped {label} ({_READS})")
                    continue
                if not name:
                    raise place.error("missing name", obj=label, field="metadata.name")
                first = first_seen.setdefault((kind, namespace, name), place)
                if first is not place:
                    where_first = f"{first.file} document {first.document}"
                    raise place.error(f"duplicate of the object in {where_first}", obj=label)
                obj = _structure(raw, kind, label, place)
                uid = obj.metadata.uid or default_uid(kind, namespace, name)
                found[kind].append(
                    evolve(obj, metadata=evolve(obj.metadata, namespace=namespace, uid=uid))
                )
    return ClusterObjects(
        nodes=found["Node"],
        pods=found["Pod"],
        pod_disruption_budgets=found["PodDisruptionBudget"],
        priority_classes=found["PriorityClass"],
        warnings=warnings,
    )
