"""What the pod and node builders share: amounts, metadata setters, `obj()`.

    pod = make_pod("web-1").namespace("ns").req(cpu="500m", memory="1Gi").obj()
    node = make_node("n1").label("zone", "a").capacity(cpu="4", memory="8Gi").obj()

Every method returns the builder; `obj()` returns the frozen object and may be
called again after more changes. Resource amounts are quantity strings or
numbers ("500m", "1Gi", 2), given as keywords (`ephemeral_storage=` stands for
`ephemeral-storage`) or as a mapping for other names (`{"example.com/gpu": 1}`).
Times are `Time` values, datetimes (a naive one is UTC) or RFC 3339 text with up to
nanoseconds ("2024-05-01T10:00:00.000000500Z"). An object without an explicit uid
gets a stable one derived from its name.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any, Generic, TypeAlias, TypeVar

from attrs import evolve

from kubesched.api._manifests import default_uid
from kubesched.api._node import Node
from kubesched.api._pod import (
    NodeSelectorRequirement,
    Pod,
)
from kubesched.api._quantity import parse_quantity
from kubesched.api._resources import ResourceList, is_milli_resource
from kubesched.api._time import Time, as_time

PAUSE_IMAGE = "registry.k8s.io/pause:3.10"
"""The image of containers the builders add only to carry requests or ports."""
DEFAULT_NODE_PODS = 32
"""Pods a built node holds unless told otherwise, as upstream's MakeNode sets."""

Amount: TypeAlias = str | int | float
"""A quantity as a string ("500m", "1Gi") or a number (2 CPUs, 110 pods)."""
When: TypeAlias = Time | datetime | str
"""A time as a `Time`, a datetime (naive is UTC) or RFC 3339 text."""


def to_time(when: When) -> Time:
    """`when` as a `Time`."""
    converted = Time.parse(when) if isinstance(when, str) else as_time(when)
    if converted is None:
        raise TypeError("a time is required, got None")
    return converted


def resource_list(resources: Mapping[str, Amount] | None = None, **named: Amount) -> ResourceList:
    """Parse amounts into a ResourceList (CPU in millicores); `ephemeral_storage=` keywords
    name `ephemeral-storage`."""
    items = dict(resources or {})
    items.update({key.replace("_", "-"): value for key, value in named.items()})
    return {
        name: parse_quantity(value, milli=is_milli_resource(name)) for name, value in items.items()
    }


def _requirement(key: str, operator: str, values: Iterable[str]) -> NodeSelectorRequirement:
    return NodeSelectorRequirement(key=key, operator=operator, values=list(values))


K = TypeVar("K", Pod, Node)
B = TypeVar("B", bound="_ObjectBuilder[Any]")


class _ObjectBuilder(Generic[K]):
    """What pod and node builders share: the object so far, metadata setters, `obj()`."""

    def __init__(self, kind: str, obj: K) -> None:
        self._kind = kind
        self._obj: K = obj

    def obj(self) -> K:
        """The object built so far (with a stable uid if none was set)."""
        meta = self._obj.metadata
        if meta.uid:
            return self._obj
        uid = default_uid(self._kind, meta.namespace, meta.name)
        return evolve(self._obj, metadata=evolve(meta, uid=uid))

    def _meta(self: B, **changes: Any) -> B:
        self._obj = evolve(self._obj, metadata=evolve(self._obj.metadata, **changes))
        return self

    def _spec(self: B, **changes: Any) -> B:
        self._obj = evolve(self._obj, spec=evolve(self._obj.spec, **changes))
        return self

    def _status(self: B, **changes: Any) -> B:
        self._obj = evolve(self._obj, status=evolve(self._obj.status, **changes))
        return self

    def name(self: B, name: str) -> B:
        return self._meta(name=name)

    def uid(self: B, uid: str) -> B:
        return self._meta(uid=uid)

    def label(self: B, key: str, value: str) -> B:
        return self._meta(labels={**self._obj.metadata.labels, key: value})

    def labels(self: B, labels: Mapping[str, str]) -> B:
        return self._meta(labels={**self._obj.metadata.labels, **labels})

    def annotation(self: B, key: str, value: str) -> B:
        return self._meta(annotations={**self._obj.metadata.annotations, key: value})
