"""What a cluster backend gives the scheduler: objects to list, changes to follow, and the
plugins' ClusterClient (bind, delete, status updates).

The in-memory cluster and the API-server backend satisfy this protocol; the
scheduler imports neither. Changes are plain (old, new) pairs, as a watch
delivers them, and the scheduler takes them between cycles.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from kubesched.api import Node, Pod
from kubesched.framework import ClusterClient

ObjectChange = tuple[Any, Any]
"""An object before and after a change: (None, new) added, (old, None) deleted."""


class ClusterSource(ClusterClient, Protocol):
    """A cluster the scheduler can run against."""

    def nodes(self) -> Sequence[Node]:
        """Every node."""
        ...

    def pods(self) -> Sequence[Pod]:
        """Every pod, pending and bound."""
        ...

    def get_pod(self, uid: str) -> Pod | None:
        """The pod as the cluster has it now, or None when it is gone; it reflects this
        scheduler's own writes (bind, delete, status) as soon as the cluster accepted them."""
        ...

    def take_changes(self) -> Sequence[ObjectChange]:
        """Every change since the last call, oldest first (none are delivered twice)."""
        ...
