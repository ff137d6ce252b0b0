"""The NodeName plugin: a pod that names a node in `spec.nodeName` fits only that node."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from kubesched import hookimpl
from kubesched.api import Pod
from kubesched.framework import (
    ActionType,
    ClusterEvent,
    ClusterEventWithHint,
    Code,
    EventResource,
    NodeInfo,
    NodeTable,
    Status,
)

REASON = "node(s) didn't match the requested node name"


def fits(pod: Pod, node_info: NodeInfo) -> bool:
    """True when the pod names no node, or names this one."""
    wanted = pod.spec.node_name
    return not wanted or wanted == node_info.name


class NodeName:
    """Checks a node against the pod's `spec.nodeName` (upstream's NodeName)."""

    name = "NodeName"

    def __init__(self, args: object = None, handle: object = None) -> None:
        """No args; the handle is not needed."""

    @hookimpl
    def events_to_register(self) -> Sequence[ClusterEventWithHint]:
        """Only a new node can be the one a rejected pod names; no hint is needed."""
        return (ClusterEventWithHint(ClusterEvent(EventResource.NODE, ActionType.ADD)),)

    @hookimpl
    def filter(self, pod: Pod, node_info: NodeInfo) -> Status | None:
        if fits(pod, node_info):
            return None
        return Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, REASON)

    @hookimpl
    def filter_batch(self, pod: Pod, table: NodeTable) -> NDArray[np.bool_]:
        """All rows for a pod naming no node; else only the named node's rows."""
        wanted = pod.spec.node_name
        if not wanted:
            return np.ones(len(table), dtype=np.bool_)
        mask = np.zeros(len(table), dtype=np.bool_)
        row = table.index.get(wanted)
        if row is not None:
            mask[row] = True
        return mask
