"""The NodeUnschedulable plugin: cordoned nodes (`spec.unschedulable`) take no new pods,
except pods that tolerate the `node.kubernetes.io/unschedulable:NoSchedule` taint."""

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
from kubesched_nodeunschedulable.hints import (
    schedulable_after_node_change,
    schedulable_after_pod_toleration_change,
)
from kubesched_nodeunschedulable.tolerations import tolerates_unschedulable

REASON = "node(s) were unschedulable"
CORDONED_COLUMN = "NodeUnschedulable/cordoned"


def is_cordoned(node_info: NodeInfo) -> bool:
    """`spec.unschedulable` of the row's node (a row without a node is not cordoned)."""
    return node_info.node is not None and node_info.node.spec.unschedulable


class NodeUnschedulable:
    """Filters out cordoned nodes (upstream's NodeUnschedulable)."""

    name = "NodeUnschedulable"

    def __init__(self, args: object = None, handle: object = None) -> None:
        """No args; the handle is not needed."""

    @hookimpl
    def events_to_register(self) -> Sequence[ClusterEventWithHint]:
        return (
            ClusterEventWithHint(
                ClusterEvent(EventResource.NODE, ActionType.ADD | ActionType.UPDATE_NODE_TAINT),
                schedulable_after_node_change,
            ),
            ClusterEventWithHint(
                ClusterEvent(EventResource.POD, ActionType.UPDATE_POD_TOLERATION),
                schedulable_after_pod_toleration_change,
            ),
        )

    @hookimpl
    def filter(self, pod: Pod, node_info: NodeInfo) -> Status | None:
        if not is_cordoned(node_info) or tolerates_unschedulable(pod.spec.tolerations):
            return None
        return Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, REASON)

    @hookimpl
    def filter_batch(self, pod: Pod, table: NodeTable) -> NDArray[np.bool_]:
        """Every row for a pod that tolerates cordons; else the rows not cordoned."""
        if tolerates_unschedulable(pod.spec.tolerations):
            return np.ones(len(table), dtype=np.bool_)
        cordoned: NDArray[np.bool_] = table.column(
            CORDONED_COLUMN, is_cordoned, np.bool_, node_only=True
        )
        return ~cordoned
