"""Filter reasons for many rejected nodes at once: each rejected row's first rejecting
plugin, asked through its `filter_batch_reasons` hook (one call per plugin), so a failing
pod's message does not ask the per-node form node by node. Rows the hook gives no
rejection for are left to the per-node visit of `_filtering`."""

from __future__ import annotations

from collections.abc import Container, Mapping, Sequence
from typing import Protocol

import numpy as np

from kubesched.api import Pod
from kubesched.framework._cycle_state import CycleState
from kubesched.framework._filter_outcome import Mask, Step, _filter_status
from kubesched.framework._interface import PodNominator
from kubesched.framework._node_table import NodeTable
from kubesched.framework._nominated_filter import NominatedCopies
from kubesched.framework._plugin_calls import PluginCall
from kubesched.framework._status import Status


class Phase(Protocol):
    """What the reasons need of the Filter phase (`_filtering.FilterPhase`)."""

    _nominator: PodNominator | None
    _filter_reasons: Mapping[str, PluginCall]

    def pre_filter_extensions_active(self, state: CycleState) -> bool: ...
    def _batch_masks(
        self, state: CycleState, pod: Pod, table: NodeTable
    ) -> dict[str, Mask] | Status: ...
    def _steps(self, state: CycleState, masks: Mapping[str, Mask] | None = None) -> list[Step]: ...


def reasons_in_batch(
    phase: Phase,
    steps: list[Step],
    state: CycleState,
    pod: Pod,
    table: NodeTable,
    rejected: list[int],
    special: Container[int],
    copies: NominatedCopies | None = None,
) -> dict[int, Status]:
    """The statuses of rejected rows that `filter_batch_reasons` can give, one call per
    plugin: each row's first rejecting plugin must have the hook. A row with nominated
    pods (`special`) is judged as the per-node visit judges it: on a copy of its node
    with those pods added, and on the node itself when the copy passes; only when no
    PreFilter AddPod extension is active (adding pods leaves the state alone). Rows the
    hook gives no rejection for are left out: the per-node visit works them out."""
    if not phase._filter_reasons or not any(
        call.plugin in phase._filter_reasons for _fn, _mask, call in steps
    ):
        return {}
    plain = [r for r in rejected if r not in special]
    nominated = [r for r in rejected if r in special]
    known: dict[int, Status] = {}
    extensions = phase.pre_filter_extensions_active(state)
    if nominated and phase._nominator is not None and not extensions:
        if copies is None:
            copies = NominatedCopies(phase._nominator, pod, table, nominated)
        known, passed = _nominated_reasons(phase, state, pod, copies, nominated)
        plain += passed
    masks = [mask for _fn, mask, _call in steps]
    known.update(_reasons_by_first_rejection(phase, steps, masks, state, pod, table, plain))
    return known


def _nominated_reasons(
    phase: Phase, state: CycleState, pod: Pod, copies: NominatedCopies, rows: list[int]
) -> tuple[dict[int, Status], list[int]]:
    """Reasons of rows with nominated pods, on copies with those pods added; also the
    rows whose copy passes (or that count no nominated pod): their reason is the
    node's own."""
    picked = np.asarray(rows, dtype=np.intp)
    copy_table, at, without = copies.of(picked, picked)
    where, passed = at.tolist(), without.tolist()
    if not len(copy_table):
        return {}, passed
    copy_masks = phase._batch_masks(state, pod, copy_table)
    if isinstance(copy_masks, Status):
        return {}, passed
    copy_steps = phase._steps(state, copy_masks)
    masks = [mask for _fn, mask, _call in copy_steps]
    every = np.ones(len(copy_table), dtype=bool)
    for mask in masks:
        if mask is None:
            return {}, passed
        np.logical_and(every, mask, out=every)
    passed += [where[j] for j in np.flatnonzero(every).tolist()]
    failing = np.flatnonzero(~every).tolist()
    found = _reasons_by_first_rejection(phase, copy_steps, masks, state, pod, copy_table, failing)
    return {where[j]: status for j, status in found.items()}, passed


def _reasons_by_first_rejection(
    phase: Phase,
    steps: list[Step],
    masks: Sequence[Mask | None],
    state: CycleState,
    pod: Pod,
    table: NodeTable,
    rows: list[int],
) -> dict[int, Status]:
    """Rows grouped by the first plugin whose mask rejects them; each group's statuses
    from that plugin's `filter_batch_reasons` when it has one."""
    first: dict[int, list[int]] = {}
    if not rows:
        return {}
    picked = np.asarray(rows, dtype=np.intp)
    undecided = np.ones(len(picked), dtype=bool)
    for i, mask in enumerate(masks):
        if mask is None:
            break  # a plugin without a mask: the per-node visit decides the rest
        rejects = undecided & ~mask[picked]
        if rejects.any():
            first[i] = picked[rejects].tolist()
            undecided &= ~rejects
    known: dict[int, Status] = {}
    for i, group in first.items():
        call = steps[i][2]
        reasons_call = phase._filter_reasons.get(call.plugin)
        if reasons_call is None:
            continue
        try:
            statuses = list(reasons_call(state, pod, table, np.asarray(group, dtype=np.intp)))
        except KeyboardInterrupt:
            raise
        except BaseException:  # the per-node form then gives the reason (or the error)
            continue
        if len(statuses) != len(group):
            continue
        distinct = dict(zip(map(id, statuses), statuses, strict=True))  # nodes share statuses
        converted = {i: _filter_status(call, v) for i, v in distinct.items() if v is not None}
        rejecting = {i: s for i, s in converted.items() if s is not None and s.is_rejected()}
        if len(distinct) == 1 and rejecting:  # one status for the whole group
            known.update(dict.fromkeys(group, *rejecting.values()))
        elif rejecting:
            pairs = zip(group, statuses, strict=True)
            known.update((r, rejecting[id(v)]) for r, v in pairs if id(v) in rejecting)
    return known
