"""The Filter phase (after PreFilter, `_prefiltering`): per node and in batch.

When every active plugin has a batch form, the masks decide (nodes with
nominated pods also checked with those pods counted, in one batch over
copies) and the per-node form gives only the rejected nodes' reasons, and
with `reasons=False` only once asked (`FilterOutcome.explain_rejected`).
Otherwise one loop visits the nodes, asking each plugin's mask or its
per-node form; nodes with nominated pods are filtered twice, as upstream does.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Container, Iterable, Mapping, Sequence

import numpy as np
from numpy.typing import NDArray

from kubesched.api import Pod
from kubesched.framework._cycle_state import CycleState
from kubesched.framework._filter_outcome import (
    FilterOutcome,
    Mask,
    Step,
    _as_mask,
    _describe,
    _filter_status,
)
from kubesched.framework._filter_reasons import reasons_in_batch
from kubesched.framework._interface import PodNominator
from kubesched.framework._node_table import NodeTable
from kubesched.framework._nominated_filter import NominatedCopies, check_nominated
from kubesched.framework._plans import Plans
from kubesched.framework._plugin_calls import PluginCall, quote
from kubesched.framework._prefiltering import PreFilterPhase
from kubesched.framework._status import Code, Status
from kubesched.framework._types import NodeInfo

"""One active Filter plugin in a visit: its function, its batch mask if any, its call."""


class FilterPhase(PreFilterPhase):
    """Filter over a profile's plans, after PreFilter (`PreFilterPhase`)."""

    _plans: Plans
    _nominator: PodNominator | None
    _filter: tuple[PluginCall, ...]
    _filter_batch: Mapping[str, PluginCall]
    feasible_mask: Callable[[CycleState, Pod, NodeTable], Mask | Status]
    """Preemption's many-node filter, without reasons (`_feasible_mask`)."""
    _filter_reasons: Mapping[str, PluginCall]

    def _prepare_filter(self, plans: Plans) -> None:
        self._filter = plans["filter"]
        self._filter_batch = {c.plugin: c for c in plans["filter_batch"]}
        self._filter_reasons = {c.plugin: c for c in plans.get("filter_batch_reasons", ())}

    # -- Filter, one node --------------------------------------------------------------

    def _steps(self, state: CycleState, masks: Mapping[str, Mask] | None = None) -> list[Step]:
        """The Filter plugins this cycle runs (PreFilter may skip some), with their masks."""
        skip = state.skip_filter_plugins
        return [
            (call.fn, None if masks is None else masks.get(call.plugin), call)
            for call in self._filter
            if call.plugin not in skip
        ]

    def _batch_reason(
        self, call: PluginCall, state: CycleState, pod: Pod, node_info: NodeInfo
    ) -> Status:
        """The per-node reason for a node a batch form rejected (they must agree)."""
        status = _filter_status(call, call(state, pod, node_info))
        if status is None:
            return Status.error(
                f"plugin {quote(call.plugin)}: filter_batch rejected node {quote(node_info.name)} "
                "but filter accepts it",
                plugin=call.plugin,
            )
        return status

    def run_filter_plugins(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Status | None:
        """Every Filter plugin in order on one node; the first rejection or error wins.
        (The per-node visit's loop for one row, without its bookkeeping: preemption's dry
        run asks this several times for every node it tries.)"""
        skip = state.skip_filter_plugins
        for call in self._filter:
            if call.plugin in skip:
                continue
            self._count(call.plugin, "Filter", 1)
            try:
                value = call.fn(state, pod, node_info)
            except KeyboardInterrupt:
                raise
            except BaseException as exc:
                return call.failed(exc)
            if value is not None:
                status = _filter_status(call, value)
                if status is not None:
                    return status
        return None

    def _add_nominated_pods(
        self, state: CycleState, pod: Pod, node_info: NodeInfo
    ) -> tuple[bool, CycleState, NodeInfo, Status | None]:
        """Upstream's addGENominatedPods: nominated pods of >= priority added to copies."""
        if self._nominator is None:
            return False, state, node_info, None
        nominated = self._nominator.nominated_pods_for_node(node_info.name)
        if not nominated:
            return False, state, node_info, None
        node_out = node_info.snapshot()
        state_out = state.clone()
        added = False
        priority = pod.priority
        for pi in nominated:
            if pi.pod.priority >= priority and pi.uid != pod.metadata.uid:
                node_out.add_pod_info(pi)
                status = self.run_pre_filter_extension_add_pod(state_out, pod, pi, node_out)
                if status is not None:
                    return False, state, node_info, status
                added = True
        return added, state_out, node_out, None

    def run_filter_plugins_with_nominated_pods(
        self, state: CycleState, pod: Pod, node_info: NodeInfo
    ) -> Status | None:
        """Filter with higher-or-equal-priority nominated pods counted, then (if that passed
        and any were added) without them: both must pass."""
        added, state_with, node_with, error = self._add_nominated_pods(state, pod, node_info)
        if error is not None:
            return error
        status = self.run_filter_plugins(state_with, pod, node_with)
        if status is not None and not status.is_rejected():
            return status
        if added and status is None:
            status = self.run_filter_plugins(state, pod, node_info)
        return status

    # -- Filter, many nodes ------------------------------------------------------------

    def find_feasible_nodes(
        self,
        state: CycleState,
        pod: Pod,
        table: NodeTable,
        *,
        rows: NDArray[np.intp] | None = None,
        start: int = 0,
        num_to_find: int | None = None,
        reasons: bool = True,
    ) -> FilterOutcome:
        """Visit `rows` (default: all) from `start`, round robin, until `num_to_find` nodes pass.

        With `reasons=False` the nodes that batch masks alone reject are left in
        `unexplained` (their per-node reasons cost a call each): `explain_rejected` when
        the pod fails or is explained."""
        t0 = time.perf_counter()
        if rows is None:
            rows = np.arange(len(table), dtype=np.intp)
        n = len(rows)
        offset = start % n if n else 0
        order = np.concatenate((rows[offset:], rows[:offset])) if offset else rows
        limit = n if num_to_find is None else min(num_to_find, n)
        outcome = self._filter_rows(state, pod, table, order, limit, reasons)
        self._observe("Filter", outcome.error, t0)
        return outcome

    def _batch_masks(
        self, state: CycleState, pod: Pod, table: NodeTable
    ) -> dict[str, Mask] | Status:
        masks: dict[str, Mask] = {}
        for _fn, _mask, call in self._steps(state):
            batch = self._filter_batch.get(call.plugin)
            if batch is None:
                continue
            t0 = time.perf_counter()
            value = batch(state, pod, table)
            if isinstance(value, Status) and value.code == Code.ERROR:
                return value
            self._observe_plugin(state, call.plugin, "Filter", None, t0)
            mask = _as_mask(value, len(table))
            if mask is None:
                return Status.error(
                    f"plugin {quote(call.plugin)} returned {_describe(value)} from filter_batch, "
                    f"expected a boolean mask of shape ({len(table)},)",
                    plugin=call.plugin,
                )
            masks[call.plugin] = mask
        return masks

    def _nominated_rows(self, table: NodeTable) -> set[int]:
        nominator = self._nominator
        if nominator is None:
            return set()
        index = table.index
        names_fn = getattr(nominator, "nominated_node_names", None)
        if names_fn is not None:  # the nodes some pod is nominated to, and only those
            return {index[name] for name in names_fn() if name in index}
        return {i for i, name in enumerate(table.names) if nominator.nominated_pods_for_node(name)}

    def _filter_rows(
        self,
        state: CycleState,
        pod: Pod,
        table: NodeTable,
        order: NDArray[np.intp],
        limit: int,
        reasons: bool = True,
    ) -> FilterOutcome:
        masks = self._batch_masks(state, pod, table)
        if isinstance(masks, Status):
            return FilterOutcome(rows=order[:0], error=masks)
        steps = self._steps(state, masks)
        if not steps:
            return FilterOutcome(rows=order[:limit], processed=limit)
        special = self._nominated_rows(table)
        if len(masks) == len(steps):
            return self._filter_by_masks(steps, state, pod, table, order, limit, reasons, special)
        return self._visit(steps, state, pod, table.node_infos, order.tolist(), limit, special)

    def _filter_by_masks(
        self,
        steps: list[Step],
        state: CycleState,
        pod: Pod,
        table: NodeTable,
        order: NDArray[np.intp],
        limit: int,
        reasons: bool = True,
        special: set[int] | None = None,
    ) -> FilterOutcome:
        """Every plugin has a mask: feasibility is their AND; reasons only for rejected rows,
        and only once asked for (at once with `reasons`).

        A `special` row (a node with nominated pods) that the masks pass is filtered per
        node with those pods counted (upstream's first pass); the second pass, without
        them, is its masks' verdict. Special rows are checked in visiting order only as
        long as the feasible nodes found so far are fewer than `limit`."""
        masks = [mask for _, mask, _ in steps if mask is not None]
        alive = masks[0]
        if len(masks) > 1:
            alive = masks[0] & masks[1]
            for mask in masks[2:]:
                np.logical_and(alive, mask, out=alive)
        flags = alive[order]
        node_infos = table.node_infos
        stop = len(order)
        error: Status | None = None
        copies = None
        if special and self._nominator is not None:
            if len(order) < len(table):  # copies of the visited rows only
                special = special.intersection(order.tolist())
            copies = NominatedCopies(self._nominator, pod, table, sorted(special))
        if special:
            checked = check_nominated(self, state, pod, table, order, flags, limit, special, copies)
            stop, error = checked
        processed = stop
        if limit < stop:
            found = np.flatnonzero(flags[:stop])
            if len(found) >= limit:
                processed = int(found[limit - 1]) + 1 if limit > 0 else 0
        visited = order[:processed]
        nominated = special or set()

        def explain(rejected: list[int]) -> FilterOutcome:
            known = reasons_in_batch(self, steps, state, pod, table, rejected, nominated, copies)
            if len(known) == len(rejected):  # every reason known: no visit
                names = map(table.names.__getitem__, rejected)
                statuses = dict(zip(names, map(known.__getitem__, rejected), strict=True))
                return FilterOutcome(order[:0], statuses, len(rejected))
            return self._visit(
                steps,
                state,
                pod,
                node_infos,
                rejected,
                len(rejected),
                nominated,
                known,
                count=False,
            )

        self._count_masked(steps, visited)
        feasible, unexplained = visited[flags[:processed]], visited[~flags[:processed]]
        if error is not None:  # the failing row is not a rejection; the cycle stops
            feasible, unexplained = order[:0], visited[:-1][~flags[: processed - 1]]
        outcome = FilterOutcome(
            feasible, processed=processed, error=error, unexplained=unexplained, explain=explain
        )
        if reasons:
            outcome.explain_rejected()
        return outcome

    def _visit(
        self,
        steps: list[Step],
        state: CycleState,
        pod: Pod,
        node_infos: Sequence[NodeInfo],
        rows: Iterable[int],
        limit: int,
        special: Container[int] = (),
        known: Mapping[int, Status] | None = None,
        *,
        count: bool = True,
    ) -> FilterOutcome:
        """The one per-node Filter loop: visit `rows` in order until `limit` nodes pass.

        Each plugin is asked through its mask when it has one (and its per-node form only
        for the reason of a node the mask rejects), else through its per-node form; the
        first rejection or error on a node decides it. Rows in `special` (nodes with
        nominated pods) are filtered with and without those pods. Rows in `known` already
        have their status (a batch form's reason). Each plugin asked about a node counts
        one evaluation (`count`: not when the rows were counted already).
        """
        known = known or {}
        feasible: list[int] = []
        statuses: dict[str, Status] = {}
        processed = 0
        asked = [0] * len(steps)
        for r in rows:
            if len(feasible) >= limit:
                break
            processed += 1
            node_info = node_infos[r]
            status: Status | None = None
            if r in known:
                status = known[r]
            elif r in special:
                status = self.run_filter_plugins_with_nominated_pods(state, pod, node_info)
            else:
                for i, (fn, mask, call) in enumerate(steps):
                    asked[i] += 1
                    if mask is not None:
                        if mask[r]:
                            continue
                        status = self._batch_reason(call, state, pod, node_info)
                        break
                    try:
                        value = fn(state, pod, node_info)
                    except KeyboardInterrupt:
                        raise
                    except BaseException as exc:
                        status = call.failed(exc)
                        break
                    if value is not None:
                        status = _filter_status(call, value)
                        if status is not None:
                            break
            if status is None:
                feasible.append(r)
            elif status.is_rejected():
                statuses[node_info.name] = status
            else:
                self._count_asked(steps, asked, count)
                return FilterOutcome(np.array([], dtype=np.intp), statuses, processed, status)
        self._count_asked(steps, asked, count)
        return FilterOutcome(np.array(feasible, dtype=np.intp), statuses, processed)

    def _count_asked(self, steps: list[Step], asked: list[int], count: bool) -> None:
        if count:
            for (_fn, _mask, call), n in zip(steps, asked, strict=True):
                self._count(call.plugin, "Filter", n)

    def _count_masked(self, steps: list[Step], rows: NDArray[np.intp]) -> None:
        """Evaluations on `rows` of the plugins with masks, in order: a plugin is asked
        about the rows every plugin before it passed."""
        if self._metrics is None or not len(rows):
            return
        reached = np.ones(len(rows), dtype=bool)
        for _fn, mask, call in steps:
            if mask is None:
                continue
            self._count(call.plugin, "Filter", int(np.count_nonzero(reached)))
            np.logical_and(reached, mask[rows], out=reached)
