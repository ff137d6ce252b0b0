"""Namespace: the scheduler reads only its name and labels (for namespaceSelector)."""

from __future__ import annotations

from attrs import field, frozen

from kubesched.api._meta import ObjectMeta


@frozen
class Namespace:
    """A `v1` Namespace (cluster-scoped); pod affinity's namespaceSelector matches its labels."""

    metadata: ObjectMeta = field(factory=ObjectMeta)
