"""Filter on nodes with nominated pods: a node passes only if it also passes with the
pods nominated to it that the pod must make room for (priority at least the pod's, not the
pod itself) counted as running there, as upstream's RunFilterPluginsWithNominatedPods."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol

import numpy as np
from numpy.typing import NDArray

from kubesched.api import Pod
from kubesched.framework._cycle_state import CycleState
from kubesched.framework._filter_outcome import Mask
from kubesched.framework._interface import PodNominator
from kubesched.framework._node_table import NodeTable
from kubesched.framework._status import Status
from kubesched.framework._types import NodeInfo


class Phase(Protocol):
    """What the check needs of the Filter phase (`_filtering.FilterPhase`)."""

    _nominator: PodNominator | None

    def pre_filter_extensions_active(self, state: CycleState) -> bool: ...
    def feasible_mask(self, state: CycleState, pod: Pod, table: NodeTable) -> Mask | Status: ...
    def run_filter_plugins(
        self, state: CycleState, pod: Pod, node_info: NodeInfo
    ) -> Status | None: ...
    def _add_nominated_pods(
        self, state: CycleState, pod: Pod, node_info: NodeInfo
    ) -> tuple[bool, CycleState, NodeInfo, Status | None]: ...


def nominated_copies(
    nominator: PodNominator, pod: Pod, nodes: Iterable[tuple[int, NodeInfo]]
) -> tuple[list[NodeInfo], list[int], list[int]]:
    """Copies of the `nodes` (key, node) that have pods nominated to them which `pod` must
    make room for, with those pods added; the keys of the nodes copied; the keys of the
    nodes without such pods."""
    uid, priority = pod.metadata.uid, pod.priority
    copies: list[NodeInfo] = []
    where: list[int] = []
    without: list[int] = []
    for key, node_info in nodes:
        counted = [
            pi
            for pi in nominator.nominated_pods_for_node(node_info.name)
            if pi.pod.priority >= priority and pi.uid != uid
        ]
        if not counted:
            without.append(key)
            continue
        copy = node_info.snapshot()
        for pi in counted:
            copy.add_pod_info(pi)
        copies.append(copy)
        where.append(key)
    return copies, where, without


def check_nominated(
    phase: Phase,
    state: CycleState,
    pod: Pod,
    node_infos: Sequence[NodeInfo],
    order: NDArray[np.intp],
    flags: Mask,
    limit: int,
    special: set[int],
) -> tuple[int, Status | None]:
    """Clear `flags` where a special row fails with its nominated pods counted; returns
    how far the visit may go (the whole order, or up to the row whose Filter failed
    with an Error) and that Error."""
    positions = np.flatnonzero(np.isin(order, np.fromiter(special, dtype=np.intp)) & flags)
    if not len(positions):
        return len(order), None
    if _check_nominated_batch(phase, state, pod, node_infos, order, flags, positions):
        return len(order), None
    before = np.cumsum(flags) - 1
    removed = 0
    for p in positions.tolist():
        if int(before[p]) - removed >= limit:
            break
        node_info = node_infos[int(order[p])]
        added, state_with, node_with, status = phase._add_nominated_pods(state, pod, node_info)
        if status is None and added:
            status = phase.run_filter_plugins(state_with, pod, node_with)
        if status is None:
            continue
        flags[p] = False
        removed += 1
        if not status.is_rejected():
            return p + 1, status
    return len(order), None


def _check_nominated_batch(
    phase: Phase,
    state: CycleState,
    pod: Pod,
    node_infos: Sequence[NodeInfo],
    order: NDArray[np.intp],
    flags: Mask,
    positions: NDArray[np.intp],
) -> bool:
    """`check_nominated` in one batch Filter over copies of those nodes with their
    nominated pods added, when adding them leaves the cycle state alone (no active
    PreFilter AddPod). Rows past where the visit stops are checked too, harmlessly:
    the visit never reaches them. False (nothing done) when it cannot be used or a
    plugin failed: the row by row check then finds the failing row."""
    if phase._nominator is None or phase.pre_filter_extensions_active(state):
        return False
    rows = ((p, node_infos[int(order[p])]) for p in positions.tolist())
    copies, where, _none = nominated_copies(phase._nominator, pod, rows)
    if not copies:
        return True
    fits = phase.feasible_mask(state, pod, NodeTable(copies))
    if isinstance(fits, Status):
        return False
    flags[np.asarray(where, dtype=np.intp)] &= np.asarray(fits, dtype=bool)
    return True
