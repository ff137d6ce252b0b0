"""The extender wire format (upstream's k8s.io/kube-scheduler/extender/v1 types).

Upstream's structs carry no JSON tags, so their fields travel under their Go
names (`Pod`, `NodeNames`, `FailedAndUnresolvableNodes`, `PodUID`,
`NumPDBViolations`...); pods and nodes inside them are ordinary Kubernetes
JSON. Go's decoder matches keys case-insensitively and ignores unknown ones,
so answers are read the same way here; a value of the wrong type is a
`WireError`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar, get_args, get_origin

import attrs
from attrs import field, frozen
from cattrs import Converter
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn, override

MIN_EXTENDER_PRIORITY = 0
MAX_EXTENDER_PRIORITY = 10
"""The range of the scores a prioritize call returns (upstream's MaxExtenderPriority)."""

T = TypeVar("T")


class WireError(ValueError):
    """An extender's answer does not have the shape of the expected type."""


@frozen
class ExtenderArgs:
    """Body of a filter or prioritize call: `Nodes` or, when the extender caches nodes,
    `NodeNames` (the other one is null)."""

    pod: dict[str, Any] = field(metadata={"go": "Pod"})
    nodes: dict[str, Any] | None = field(default=None, metadata={"go": "Nodes"})
    node_names: list[str] | None = field(default=None, metadata={"go": "NodeNames"})


@frozen
class ExtenderFilterResult:
    """Answer of a filter call."""

    nodes: dict[str, Any] | None = field(default=None, metadata={"go": "Nodes"})
    node_names: list[str] | None = field(default=None, metadata={"go": "NodeNames"})
    failed_nodes: dict[str, str] | None = field(default=None, metadata={"go": "FailedNodes"})
    failed_and_unresolvable_nodes: dict[str, str] | None = field(
        default=None, metadata={"go": "FailedAndUnresolvableNodes"}
    )
    error: str = field(default="", metadata={"go": "Error"})


@frozen
class HostPriority:
    """One node's score in a prioritize answer (0..10)."""

    host: str = field(metadata={"go": "Host"})
    score: int = field(metadata={"go": "Score"})


@frozen
class MetaPod:
    """A victim named by its UID."""

    uid: str = field(metadata={"go": "UID"})


@frozen
class MetaVictims:
    """A node's victims named by UID."""

    pods: list[MetaPod] | None = field(default=None, metadata={"go": "Pods"})
    num_pdb_violations: int = field(default=0, metadata={"go": "NumPDBViolations"})


@frozen
class WireVictims:
    """A node's victims as whole pods (sent to extenders that do not cache nodes)."""

    pods: list[dict[str, Any]] = field(metadata={"go": "Pods"})
    num_pdb_violations: int = field(metadata={"go": "NumPDBViolations"})


@frozen
class ExtenderPreemptionArgs:
    """Body of a preempt call: whole victims, or, to a node-caching extender, UIDs."""

    pod: dict[str, Any] = field(metadata={"go": "Pod"})
    node_name_to_victims: dict[str, WireVictims] | None = field(
        default=None, metadata={"go": "NodeNameToVictims"}
    )
    node_name_to_meta_victims: dict[str, MetaVictims] | None = field(
        default=None, metadata={"go": "NodeNameToMetaVictims"}
    )


@frozen
class ExtenderPreemptionResult:
    """Answer of a preempt call: the victims the extender agrees to, per node."""

    node_name_to_meta_victims: dict[str, MetaVictims | None] | None = field(
        default=None, metadata={"go": "NodeNameToMetaVictims"}
    )


@frozen
class ExtenderBindingArgs:
    """Body of a bind call."""

    pod_name: str = field(metadata={"go": "PodName"})
    pod_namespace: str = field(metadata={"go": "PodNamespace"})
    pod_uid: str = field(metadata={"go": "PodUID"})
    node: str = field(metadata={"go": "Node"})


@frozen
class ExtenderBindingResult:
    """Answer of a bind call: an error message, or empty."""

    error: str = field(default="", metadata={"go": "Error"})


_WIRE_TYPES = (
    ExtenderArgs,
    ExtenderFilterResult,
    HostPriority,
    MetaPod,
    MetaVictims,
    WireVictims,
    ExtenderPreemptionArgs,
    ExtenderPreemptionResult,
    ExtenderBindingArgs,
    ExtenderBindingResult,
)


def _strict(kind: type, label: str) -> Callable[[Any, Any], Any]:
    def structure(value: Any, _: Any) -> Any:
        if type(value) is not kind:  # bool is not an int; 1.0 is not an int either
            raise WireError(f"expected {label}, got {type(value).__name__} {value!r:.40}")
        return value

    return structure


def _structure_object(value: Any, _: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise WireError(f"expected an object, got {type(value).__name__}")
    return value


def _origin(tp: Any) -> Any:
    return get_origin(tp)


def _strict_list(tp: Any, converter: Converter) -> Callable[[Any, Any], Any]:
    (item,) = get_args(tp)

    def structure(value: Any, _: Any) -> list[Any]:
        if not isinstance(value, list):
            raise WireError(f"expected a list, got {type(value).__name__}")
        return [converter.structure(v, item) for v in value]

    return structure


def _strict_dict(tp: Any, converter: Converter) -> Callable[[Any, Any], Any]:
    _, item = get_args(tp)

    def structure(value: Any, _: Any) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise WireError(f"expected an object, got {type(value).__name__}")
        return {str(k): converter.structure(v, item) for k, v in value.items()}

    return structure


def _case_insensitive(cls: type, inner: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    """Accept keys in any case, as Go's decoder does (an exact match wins)."""
    names = {f.metadata["go"].lower(): f.metadata["go"] for f in attrs.fields(cls)}

    def structure(value: Any, tp: Any) -> Any:
        if value is None:  # Go leaves the zero value
            value = {}
        if not isinstance(value, dict):
            raise WireError(f"expected an object for {cls.__name__}, got {type(value).__name__}")
        data: dict[str, Any] = {}
        for key, item in value.items():
            go = names.get(str(key).lower())
            if go is not None and (go not in data or key == go):
                data[go] = item
        return inner(data, tp)

    return structure


_KUBERNETES_JSON = (
    dict[str, Any],
    dict[str, Any] | None,
    list[dict[str, Any]],
    "dict[str, Any]",
    "dict[str, Any] | None",
    "list[dict[str, Any]]",
)


def _as_is(value: Any) -> Any:
    return value


def _build() -> Converter:
    converter = Converter()
    converter.register_structure_hook(str, _strict(str, "a string"))
    converter.register_structure_hook(int, _strict(int, "an integer"))
    converter.register_structure_hook_func(lambda t: t == dict[str, Any], _structure_object)
    converter.register_structure_hook_factory(
        lambda t: _origin(t) is list, lambda t: _strict_list(t, converter)
    )
    converter.register_structure_hook_factory(
        lambda t: _origin(t) is dict and t != dict[str, Any],
        lambda t: _strict_dict(t, converter),
    )
    for cls in _WIRE_TYPES:
        renames = {f.name: override(rename=f.metadata["go"]) for f in attrs.fields(cls)}
        inner = make_dict_structure_fn(cls, converter, **renames)  # type: ignore[arg-type]
        converter.register_structure_hook(cls, _case_insensitive(cls, inner))
        outgoing = {  # Kubernetes JSON (pods, nodes) is already plain data: sent as it is
            f.name: override(rename=f.metadata["go"], unstruct_hook=_as_is)
            if f.type in _KUBERNETES_JSON
            else renames[f.name]
            for f in attrs.fields(cls)
        }
        converter.register_unstructure_hook(
            cls,
            make_dict_unstructure_fn(cls, converter, **outgoing),  # type: ignore[arg-type]
        )
    return converter


_CONVERTER = _build()


def encode(obj: object) -> Any:
    """A wire object as JSON-ready data, under upstream's field names."""
    return _CONVERTER.unstructure(obj)


def decode(data: Any, cls: type[T]) -> T:
    """An extender's JSON answer as `cls`; WireError saying what does not fit."""
    try:
        return _CONVERTER.structure(data, cls)
    except WireError:
        raise
    except Exception as exc:  # cattrs groups and key errors: one readable line
        raise WireError(_first_problem(exc)) from None


def _first_problem(exc: BaseException) -> str:
    inner = getattr(exc, "exceptions", None)
    if inner:
        return _first_problem(inner[0])
    if isinstance(exc, KeyError):
        return f"missing field {exc.args[0]}"
    return str(exc) or type(exc).__name__


def decode_priorities(data: Any) -> list[HostPriority]:
    """A prioritize answer (a JSON list of HostPriority; null is an empty one, as in Go)."""
    if data is None:
        return []
    if not isinstance(data, list):
        raise WireError(f"expected a list of host priorities, got {type(data).__name__}")
    return [decode(item, HostPriority) for item in data]


def node_list(nodes: list[dict[str, Any]]) -> dict[str, Any]:
    """A v1.NodeList as Go encodes an unnamed one."""
    return {"metadata": {}, "items": nodes}


def names_of_node_list(data: Mapping[str, Any]) -> list[str]:
    """The names of the nodes in a v1.NodeList answer."""
    items = data.get("items")
    if items is None:
        return []
    if not isinstance(items, list):
        raise WireError("expected Nodes.items to be a list")
    names = []
    for item in items:
        meta = item.get("metadata") if isinstance(item, dict) else None
        name = meta.get("name") if isinstance(meta, dict) else None
        if not isinstance(name, str):
            raise WireError("a node in Nodes.items has no metadata.name")
        names.append(name)
    return names
