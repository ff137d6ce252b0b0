"""Filter on nodes with nominated pods: a node passes only if it also passes with the
pods nominated to it that the pod must make room for (priority at least the pod's, not the
pod itself) counted as running there, as upstream's RunFilterPluginsWithNominatedPods."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

import numpy as np
from numpy.typing import NDArray

from kubesched.api import Pod
from kubesched.framework._cycle_state import CycleState
from kubesched.framework._filter_outcome import Mask
from kubesched.framework._interface import PodNominator
from kubesched.framework._node_table import NodeTable
from kubesched.framework._status import Status
from kubesched.framework._types import NodeInfo, PodInfo
from kubesched.framework._what_if_table import Change, WhatIfTable


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


def counted_nominated(nominator: PodNominator, pod: Pod, node_name: str) -> list[PodInfo]:
    """The pods nominated to this node that Filter counts for `pod` (priority at least its
    own, not the pod itself), in the nominator's order."""
    uid, priority = pod.metadata.uid, pod.priority
    return [
        pi
        for pi in nominator.nominated_pods_for_node(node_name)
        if pi.pod.priority >= priority and pi.uid != uid
    ]


def with_nominated(
    nominator: PodNominator, pod: Pod, table: NodeTable, rows: Iterable[tuple[int, int]]
) -> tuple[WhatIfTable, list[int], list[int]]:
    """The table `rows` (key, row) that have pods nominated to them which `pod` must make
    room for, with those pods added; the keys of the rows in it; the keys of the rows
    without such pods."""
    where: list[int] = []
    without: list[int] = []
    picked: list[int] = []
    changes: list[Change] = []
    names = table.names
    for key, row in rows:
        counted = counted_nominated(nominator, pod, names[row])
        if not counted:
            without.append(key)
            continue
        picked.append(row)
        changes.append(((), counted))
        where.append(key)
    return WhatIfTable(table, picked, changes), where, without


def check_nominated(
    phase: Phase,
    state: CycleState,
    pod: Pod,
    table: NodeTable,
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
    if _check_nominated_batch(phase, state, pod, table, order, flags, positions):
        return len(order), None
    node_infos = table.node_infos
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
    table: NodeTable,
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
    rows = zip(positions.tolist(), order[positions].tolist(), strict=True)
    copies, where, _none = with_nominated(phase._nominator, pod, table, rows)
    if not len(copies):
        return True
    fits = phase.feasible_mask(state, pod, copies)
    if isinstance(fits, Status):
        return False
    flags[np.asarray(where, dtype=np.intp)] &= np.asarray(fits, dtype=bool)
    return True
