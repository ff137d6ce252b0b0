"""Filter on nodes with nominated pods: a node passes only if it also passes with the
pods nominated to it that the pod must make room for (priority at least the pod's, not the
pod itself) counted as running there, as upstream's RunFilterPluginsWithNominatedPods."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
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


def counted_nominated(nominator: PodNominator, pod: Pod) -> Callable[[str], Sequence[PodInfo]]:
    """Node name -> the pods nominated there that Filter counts for `pod` (priority at
    least its own, not the pod itself), in the nominator's order: from the nominator's
    `counted_for` when it has one (the scheduler's, which caches it), else node by node."""
    counted_for = getattr(nominator, "counted_for", None)
    if counted_for is not None:
        counted: dict[str, list[PodInfo]] = counted_for(pod)
        return lambda node_name: counted.get(node_name, ())
    uid, priority = pod.metadata.uid, pod.priority
    return lambda node_name: [
        pi
        for pi in nominator.nominated_pods_for_node(node_name)
        if pi.priority >= priority and pi.uid != uid
    ]


class NominatedCopies:
    """The `rows` of `table` whose nodes have pods nominated to them that `pod` must make
    room for, with those pods added: one what-if table, built on first use and shared by
    the Filter and the reasons of a cycle."""

    def __init__(
        self, nominator: PodNominator, pod: Pod, table: NodeTable, rows: Iterable[int]
    ) -> None:
        self._nominator = nominator
        self._pod = pod
        self._table = table
        self._rows = rows
        self._copies: WhatIfTable | None = None
        self._at = np.full(len(table), -1, dtype=np.intp)
        """Table row -> its row in `_copies` (-1: none)."""

    def _built(self) -> WhatIfTable:
        if self._copies is None:
            picked: list[int] = []
            changes: list[Change] = []
            names = self._table.names
            counted_on = counted_nominated(self._nominator, self._pod)
            for row in self._rows:
                counted = counted_on(names[row])
                if counted:
                    picked.append(row)
                    changes.append(((), counted))
            self._at[picked] = np.arange(len(picked), dtype=np.intp)
            self._copies = WhatIfTable(self._table, picked, changes)
        return self._copies

    def of(
        self, keys: NDArray[np.intp], rows: NDArray[np.intp]
    ) -> tuple[WhatIfTable, NDArray[np.intp], NDArray[np.intp]]:
        """Of `rows` (table rows, each with its key): those with such pods as a table of
        their copies, their keys, and the keys of the others."""
        copies = self._built()
        at = self._at[rows]
        has = at >= 0
        picked = at[has]
        return WhatIfTable(copies, picked, [((), ())] * len(picked)), keys[has], keys[~has]


def check_nominated(
    phase: Phase,
    state: CycleState,
    pod: Pod,
    table: NodeTable,
    order: NDArray[np.intp],
    flags: Mask,
    limit: int,
    special: set[int],
    copies: NominatedCopies | None,
) -> tuple[int, Status | None]:
    """Clear `flags` where a special row fails with its nominated pods counted (`copies`
    of them, None without a nominator); returns how far the visit may go (the whole
    order, or up to the row whose Filter failed with an Error) and that Error."""
    positions = np.flatnonzero(np.isin(order, np.fromiter(special, dtype=np.intp)) & flags)
    if not len(positions):
        return len(order), None
    if _check_nominated_batch(phase, state, pod, copies, order, flags, positions):
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
    copies: NominatedCopies | None,
    order: NDArray[np.intp],
    flags: Mask,
    positions: NDArray[np.intp],
) -> bool:
    """`check_nominated` in one batch Filter over copies of those nodes with their
    nominated pods added, when adding them leaves the cycle state alone (no active
    PreFilter AddPod). Rows past where the visit stops are checked too, harmlessly:
    the visit never reaches them. False (nothing done) when it cannot be used or a
    plugin failed: the row by row check then finds the failing row."""
    if copies is None or phase.pre_filter_extensions_active(state):
        return False
    copied, where, _none = copies.of(positions, order[positions])
    if not len(copied):
        return True
    fits = phase.feasible_mask(state, pod, copied)
    if isinstance(fits, Status):
        return False
    flags[where] &= np.asarray(fits, dtype=bool)
    return True
