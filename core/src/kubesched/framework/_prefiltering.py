"""PreFilter and its AddPod/RemovePod extensions (upstream's RunPreFilterPlugins and
RunPreFilterExtension*), the first half of the Filter phase."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from kubesched.api import Pod
from kubesched.framework._cycle_state import CycleState
from kubesched.framework._filter_outcome import _no_node_left
from kubesched.framework._instrumentation import Instrumented
from kubesched.framework._node_table import NodeTable
from kubesched.framework._plans import Plans
from kubesched.framework._plugin_calls import as_status, quote, wrap_error
from kubesched.framework._status import Code, Status
from kubesched.framework._types import NodeInfo, PodInfo, PreFilterResult


class PreFilterPhase(Instrumented):
    """PreFilter and its extensions over a profile's plans."""

    _plans: Plans

    def run_pre_filter_plugins(
        self, state: CycleState, pod: Pod, nodes: Sequence[NodeInfo]
    ) -> tuple[PreFilterResult | None, Status | None, set[str]]:
        """Every PreFilter plugin in order (upstream's RunPreFilterPlugins).

        Returns the merged node narrowing, the status (UnschedulableAndUnresolvable stops at
        once; Unschedulable lets the rest run) and the plugins that narrowed the nodes.
        """
        start = time.perf_counter()
        result: PreFilterResult | None = None
        narrowing: set[str] = set()
        state.skip_filter_plugins = skip = set()
        returned: Status | None = None
        for call in self._plans["pre_filter"]:
            t0 = time.perf_counter()
            value = call(state, pod, nodes)
            narrowed = value if isinstance(value, PreFilterResult) else None
            status = None if narrowed is not None else as_status(value, call.plugin, call.hook)
            self._observe_plugin(state, call.plugin, "PreFilter", status, t0)
            if status is not None and status.code == Code.SKIP:
                skip.add(call.plugin)
                continue
            self._count(call.plugin, "PreFilter", 1)
            if status is not None and status.code != Code.SUCCESS:
                status.with_plugin(call.plugin)
                if status.code == Code.UNSCHEDULABLE:
                    returned = status
                    continue
                if status.code != Code.UNSCHEDULABLE_AND_UNRESOLVABLE:
                    status = wrap_error(
                        f"running PreFilter plugin {quote(call.plugin)}", status, call.plugin
                    )
                self._observe("PreFilter", status, start)
                return None, status, narrowing
            if narrowed is None or narrowed.all_nodes():
                continue
            narrowing.add(call.plugin)
            result = narrowed if result is None else result.merge(narrowed)
            if result.node_names is not None and not result.node_names:
                status = Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, _no_node_left(narrowing))
                self._observe("PreFilter", status, start)
                return result, status, narrowing
        self._observe("PreFilter", returned, start)
        return result, returned, narrowing

    def _run_extension(self, hook: str, label: str, state: CycleState, *args: Any) -> Status | None:
        for call in self._plans[hook]:
            if call.plugin in state.skip_filter_plugins:
                continue
            status = call.status(state, *args)
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
            "pre_filter_add_pod", "AddPod", state, pod_to_schedule, pod_info_to_add, node_info
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
            "pre_filter_remove_pod",
            "RemovePod",
            state,
            pod_to_schedule,
            pod_info_to_remove,
            node_info,
        )

    def pre_filter_extensions_active(self, state: CycleState) -> bool:
        """Does removing or adding a pod change this cycle's state (some PreFilter plugin
        with AddPod/RemovePod is not skipped)?"""
        skip = state.skip_filter_plugins
        hooks = ("pre_filter_add_pod", "pre_filter_remove_pod")
        return any(call.plugin not in skip for hook in hooks for call in self._plans[hook])

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
