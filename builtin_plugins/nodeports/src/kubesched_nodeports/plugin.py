"""The NodePorts plugin: a pod's host ports must be free on the node."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from attrs import frozen
from numpy.typing import NDArray

from kubesched import hookimpl
from kubesched.api import Pod
from kubesched.errors import PluginError
from kubesched.framework import (
    ActionType,
    ClusterEvent,
    ClusterEventWithHint,
    Code,
    CycleState,
    EventResource,
    NodeInfo,
    NodeTable,
    Status,
    host_ports,
)
from kubesched_nodeports.hints import schedulable_after_pod_deleted
from kubesched_nodeports.ports import HostPort, fits

REASON = "node(s) didn't have free ports for the requested pod ports"
PRE_FILTER_STATE_KEY = "PreFilterNodePorts"
USED_COLUMN = "NodePorts/usedPorts"
"""Each row's used ports (its NodeInfo's `used_ports`)."""
BUSY_COLUMN = "NodePorts/usesPorts"
"""Whether each row's node has some host port in use."""


@frozen
class _PreFilterState:
    """The host ports the pod wants; pods added or removed do not change them."""

    wanted: tuple[HostPort, ...]

    def clone(self) -> _PreFilterState:
        return self


def _read_state(state: CycleState) -> _PreFilterState | Status:
    if PRE_FILTER_STATE_KEY not in state:
        return Status.error(f'reading "{PRE_FILTER_STATE_KEY}" from cycleState: not found')
    return state.read_as(PRE_FILTER_STATE_KEY, _PreFilterState)


def _used_ports(node_info: NodeInfo) -> dict[HostPort, int]:
    return node_info.used_ports


def _uses_ports(node_info: NodeInfo) -> bool:
    return bool(node_info.used_ports)


class NodePorts:
    """Checks that a node has free host ports for the pod (upstream's NodePorts)."""

    name = "NodePorts"

    def __init__(self, args: object = None, handle: object = None) -> None:
        """No args; the handle is not needed."""

    @hookimpl
    def events_to_register(self) -> Sequence[ClusterEventWithHint]:
        return (
            # Container ports are immutable, so only a deleted pod frees one.
            ClusterEventWithHint(
                ClusterEvent(EventResource.POD, ActionType.DELETE), schedulable_after_pod_deleted
            ),
            ClusterEventWithHint(ClusterEvent(EventResource.NODE, ActionType.ADD)),
        )

    @hookimpl
    def pre_filter(self, state: CycleState, pod: Pod) -> Status | None:
        """Collect the pod's host ports; Skip Filter for a pod that has none."""
        wanted = host_ports(pod)
        if not wanted:
            return Status(Code.SKIP)
        state.write(PRE_FILTER_STATE_KEY, _PreFilterState(wanted))
        return None

    @hookimpl
    def filter(self, state: CycleState, node_info: NodeInfo) -> Status | None:
        """Reject a node where one of the pod's host ports is taken (Unschedulable:
        preempting the pod that holds it frees it)."""
        pre = _read_state(state)
        if isinstance(pre, Status):
            return pre
        if fits(pre.wanted, node_info.used_ports):
            return None
        return Status(Code.UNSCHEDULABLE, REASON)

    @hookimpl
    def filter_batch(self, state: CycleState, table: NodeTable) -> NDArray[np.bool_]:
        """Filter over every row: only rows that use some host port need a look."""
        pre = _read_state(state)
        if isinstance(pre, Status):
            raise PluginError(pre.message)
        used = table.column(USED_COLUMN, _used_ports)
        busy = np.flatnonzero(table.column(BUSY_COLUMN, _uses_ports, np.bool_))
        mask = np.ones(len(table), dtype=np.bool_)
        for row in busy.tolist():
            mask[row] = fits(pre.wanted, used[row])
        return mask
