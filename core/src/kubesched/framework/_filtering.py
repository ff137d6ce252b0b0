"""The Filter phase: PreFilter extensions, Filter per node and in batch, nominated pods.

Batch Filter forms compute masks over the whole NodeTable; the per-node form
is asked only for the reasons of the rejected nodes it reports, and for nodes
with nominated pods (filtered twice, as upstream does).
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np
from attrs import define, field
from numpy.typing import NDArray

from kubesched.api import Pod
from kubesched.framework._cycle_state import CycleState
from kubesched.framework._instrumentation import Instrumented
from kubesched.framework._interface import (
    PodNominator,
)
from kubesched.framework._node_table import NodeTable
from kubesched.framework._plans import PluginCall
from kubesched.framework._plugin_calls import as_status, quote, raised, wrap_error
from kubesched.framework._status import Code, Status
from kubesched.framework._types import (
    NodeInfo,
    PodInfo,
    PreFilterResult,
)


@define
class FilterOutcome:
    """What Filter found: feasible rows in visiting order and the rejected nodes' statuses.

    `error` is set when a plugin failed (not rejected): the cycle must stop.
    """

    rows: NDArray[np.intp]
    statuses: dict[str, Status] = field(factory=dict)
    processed: int = 0
    error: Status | None = None


class FilterPhase(Instrumented):
    """PreFilter extensions and Filter over a profile's compiled filter plans."""

    _add_pod: tuple[PluginCall, ...]
    _remove_pod: tuple[PluginCall, ...]
    _filter: tuple[PluginCall, ...]
    _filter_batch: tuple[Any, ...]
    _nominator: PodNominator | None

    def _run_extension(
        self,
        plan: tuple[PluginCall, ...],
        hook: str,
        label: str,
        state: CycleState,
        pod: Pod,
        pod_info: PodInfo,
        node_info: NodeInfo,
    ) -> Status | None:
        for call in plan:
            if call.plugin in state.skip_filter_plugins:
                continue
            try:
                status = as_status(call.fn(state, pod, pod_info, node_info), call.plugin, hook)
            except Exception as exc:
                status = raised(call.plugin, hook, exc)
            if status is not None and status.code != Code.SUCCESS:
                return wrap_error(
                    f"running {label} on PreFilter plugin {quote(call.plugin)}", status, call.plugin
                )
        return None

    def run_pre_filter_extension_add_pod(
        self, state: CycleState, pod_to_schedule: Pod, pod_info_to_add: PodInfo, node_info: NodeInfo
    ) -> Status | None:
        """Every PreFilter plugin's AddPod: update the state as if the pod ran on the node."""
        return self._run_extension(
            self._add_pod,
            "pre_filter_add_pod",
            "AddPod",
            state,
            pod_to_schedule,
            pod_info_to_add,
            node_info,
        )

    def run_pre_filter_extension_remove_pod(
        self,
        state: CycleState,
        pod_to_schedule: Pod,
        pod_info_to_remove: PodInfo,
        node_info: NodeInfo,
    ) -> Status | None:
        """Every PreFilter plugin's RemovePod: update the state as if the pod were gone."""
        return self._run_extension(
            self._remove_pod,
            "pre_filter_remove_pod",
            "RemovePod",
            state,
            pod_to_schedule,
            pod_info_to_remove,
            node_info,
        )

    def _filter_status(self, plugin: str, value: object) -> Status | None:
        """Normalise one Filter result: rejections keep their code, anything else is an Error."""
        status = as_status(value, plugin, "filter")
        if status is None or status.code == Code.SUCCESS:
            return None
        if not status.is_rejected():
            status = wrap_error(f"running {quote(plugin)} filter plugin", status, plugin)
        return status.with_plugin(plugin)

    def run_filter_plugins(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Status | None:
        """Every Filter plugin in order on one node; the first rejection or error wins."""
        skip = state.skip_filter_plugins
        for call in self._filter:
            if call.plugin in skip:
                continue
            try:
                value = call.fn(state, pod, node_info)
            except Exception as exc:
                return raised(call.plugin, "filter", exc)
            if value is not None:
                status = self._filter_status(call.plugin, value)
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

    def candidate_rows(
        self, table: NodeTable, pre_filter_result: PreFilterResult | None
    ) -> NDArray[np.intp]:
        """The table rows Filter should visit: all, or those PreFilter narrowed to."""
        if pre_filter_result is None or pre_filter_result.node_names is None:
            return np.arange(len(table), dtype=np.intp)
        index = table.index
        return np.array(
            sorted(index[n] for n in pre_filter_result.node_names if n in index), dtype=np.intp
        )

    def find_feasible_nodes(
        self,
        state: CycleState,
        pod: Pod,
        table: NodeTable,
        *,
        rows: NDArray[np.intp] | None = None,
        start: int = 0,
        num_to_find: int | None = None,
    ) -> FilterOutcome:
        """Visit `rows` (default: all) from `start`, round robin, until `num_to_find` nodes pass.

        Batch Filter forms compute masks over the whole table; the per-node form is asked only
        for the reasons of the rejected nodes it reports, and for nodes with nominated pods.
        """
        t0 = time.perf_counter()
        if rows is None:
            rows = np.arange(len(table), dtype=np.intp)
        n = len(rows)
        offset = start % n if n else 0
        order = np.concatenate((rows[offset:], rows[:offset])) if offset else rows
        limit = n if num_to_find is None else min(num_to_find, n)
        active = [
            (call, batch)
            for call, batch in zip(self._filter, self._filter_batch, strict=True)
            if call.plugin not in state.skip_filter_plugins
        ]
        if not active:
            outcome = FilterOutcome(rows=order[:limit], processed=limit)
        else:
            outcome = self._filter_rows(state, pod, table, order, limit, active)
        self._observe("Filter", outcome.error, t0)
        return outcome

    def _nominated_rows(self, table: NodeTable) -> set[int]:
        nominator = self._nominator
        if nominator is None:
            return set()
        names_fn = getattr(nominator, "nominated_node_names", None)
        names: Any = names_fn() if names_fn is not None else table.names
        index = table.index
        return {
            index[name]
            for name in names
            if name in index and nominator.nominated_pods_for_node(name)
        }

    def _filter_rows(
        self,
        state: CycleState,
        pod: Pod,
        table: NodeTable,
        order: NDArray[np.intp],
        limit: int,
        active: list[tuple[PluginCall, Any]],
    ) -> FilterOutcome:
        masks: dict[int, NDArray[np.bool_]] = {}
        for j, (call, batch) in enumerate(active):
            if batch is None:
                continue
            t0 = time.perf_counter()
            try:
                mask = np.asarray(batch(state, pod, table), dtype=bool)
            except Exception as exc:
                return FilterOutcome(rows=order[:0], error=raised(call.plugin, "filter_batch", exc))
            self._observe_plugin(state, call.plugin, "Filter", None, t0)
            if mask.shape != (len(table),):
                error = Status.error(
                    f"plugin {quote(call.plugin)} returned a filter_batch mask "
                    f"of shape {mask.shape}, "
                    f"expected ({len(table)},)",
                    plugin=call.plugin,
                )
                return FilterOutcome(rows=order[:0], error=error)
            masks[j] = mask
        special = self._nominated_rows(table)
        if len(masks) == len(active) and not special:
            return self._filter_vectorized(state, pod, table, order, limit, active, masks)
        return self._filter_per_node(state, pod, table, order, limit, active, masks, special)

    def _batch_reason(
        self, state: CycleState, pod: Pod, call: PluginCall, node_info: NodeInfo
    ) -> Status:
        """The per-node reason for a node a batch form rejected (they must agree)."""
        try:
            status = self._filter_status(call.plugin, call.fn(state, pod, node_info))
        except Exception as exc:
            return raised(call.plugin, "filter", exc)
        if status is None:
            return Status.error(
                f"plugin {quote(call.plugin)}: filter_batch rejected node {quote(node_info.name)} "
                "but filter accepts it",
                plugin=call.plugin,
            )
        return status

    def _filter_vectorized(
        self,
        state: CycleState,
        pod: Pod,
        table: NodeTable,
        order: NDArray[np.intp],
        limit: int,
        active: list[tuple[PluginCall, Any]],
        masks: dict[int, NDArray[np.bool_]],
    ) -> FilterOutcome:
        alive = masks[0].copy()
        for j in range(1, len(active)):
            alive &= masks[j]
        flags = alive[order]
        processed = len(order)
        if limit < len(order):
            found = np.flatnonzero(flags)
            if len(found) >= limit:
                processed = int(found[limit - 1]) + 1 if limit > 0 else 0
        visited = order[:processed]
        outcome = FilterOutcome(rows=visited[flags[:processed]], processed=processed)
        for r in visited[~flags[:processed]]:
            row = int(r)
            j = next(j for j in range(len(active)) if not masks[j][row])
            status = self._batch_reason(state, pod, active[j][0], table.node_infos[row])
            if not status.is_rejected():
                outcome.error = status
                outcome.rows = order[:0]
                return outcome
            outcome.statuses[table.names[row]] = status
        return outcome

    def _filter_per_node(
        self,
        state: CycleState,
        pod: Pod,
        table: NodeTable,
        order: NDArray[np.intp],
        limit: int,
        active: list[tuple[PluginCall, Any]],
        masks: dict[int, NDArray[np.bool_]],
        special: set[int],
    ) -> FilterOutcome:
        if not masks and not special:
            return self._filter_plain(state, pod, table, order, limit, active)
        feasible: list[int] = []
        statuses: dict[str, Status] = {}
        processed = 0
        node_infos = table.node_infos
        for r in order.tolist():
            if len(feasible) >= limit:
                break
            processed += 1
            node_info = node_infos[r]
            status: Status | None = None
            if r in special:
                status = self.run_filter_plugins_with_nominated_pods(state, pod, node_info)
            else:
                for j, (call, _batch) in enumerate(active):
                    mask = masks.get(j)
                    if mask is not None:
                        if mask[r]:
                            continue
                        status = self._batch_reason(state, pod, call, node_info)
                        break
                    try:
                        value = call.fn(state, pod, node_info)
                    except Exception as exc:
                        status = raised(call.plugin, "filter", exc)
                        break
                    if value is not None:
                        status = self._filter_status(call.plugin, value)
                        if status is not None:
                            break
            if status is None:
                feasible.append(r)
            elif status.is_rejected():
                statuses[node_info.name] = status
            else:
                return FilterOutcome(
                    rows=order[:0], statuses=statuses, processed=processed, error=status
                )
        return FilterOutcome(
            rows=np.array(feasible, dtype=np.intp), statuses=statuses, processed=processed
        )

    def _filter_plain(
        self,
        state: CycleState,
        pod: Pod,
        table: NodeTable,
        order: NDArray[np.intp],
        limit: int,
        active: list[tuple[PluginCall, Any]],
    ) -> FilterOutcome:
        """Per-node Filter only (no batch forms, no nominated pods): the tight loop."""
        fns = [call.fn for call, _batch in active]
        plugin_of = {id(call.fn): call.plugin for call, _batch in active}
        rows = order.tolist()
        nodes = map(table.node_infos.__getitem__, rows)
        feasible: list[int] = []
        statuses: dict[str, Status] = {}
        processed = 0
        fn: Any = None
        try:
            for processed, node_info in enumerate(nodes, 1):
                for fn in fns:
                    value = fn(state, pod, node_info)
                    if value is not None:
                        status = self._filter_status(plugin_of[id(fn)], value)
                        if status is not None:
                            break
                else:
                    feasible.append(rows[processed - 1])
                    if len(feasible) >= limit:
                        break
                    continue
                if not status.is_rejected():
                    return FilterOutcome(order[:0], statuses, processed, error=status)
                statuses[node_info.name] = status
        except Exception as exc:
            plugin = plugin_of.get(id(fn), "")
            return FilterOutcome(order[:0], statuses, processed, raised(plugin, "filter", exc))
        return FilterOutcome(np.array(feasible, dtype=np.intp), statuses, processed)
