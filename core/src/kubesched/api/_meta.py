"""Object metadata and label selectors shared by every Kubernetes kind."""

from __future__ import annotations

from attrs import field, frozen

from kubesched.api._time import Time, as_time


@frozen
class OwnerReference:
    """A reference to the object that owns this one (a ReplicaSet, a Job...)."""

    api_version: str = ""
    kind: str = ""
    name: str = ""
    uid: str = ""
    controller: bool | None = None


@frozen
class ObjectMeta:
    """The subset of `metadata` the scheduler reads."""

    name: str = ""
    namespace: str = ""
    uid: str = ""
    labels: dict[str, str] = field(factory=dict)
    annotations: dict[str, str] = field(factory=dict)
    creation_timestamp: Time | None = field(default=None, converter=as_time)
    deletion_timestamp: Time | None = field(default=None, converter=as_time)
    owner_references: list[OwnerReference] = field(factory=list)
    finalizers: list[str] = field(factory=list)


@frozen
class LabelSelectorRequirement:
    """One `matchExpressions` entry: key, operator (In, NotIn, Exists, DoesNotExist), values."""

    key: str
    operator: str
    values: list[str] = field(factory=list)


@frozen
class LabelSelector:
    """A `metav1.LabelSelector`: matchLabels AND matchExpressions."""

    match_labels: dict[str, str] = field(factory=dict)
    match_expressions: list[LabelSelectorRequirement] = field(factory=list)
