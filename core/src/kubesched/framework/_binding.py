"""From Reserve to PostBind: claiming the chosen node, Permit's waiting pods, binding."""

from __future__ import annotations

import math
import time

from kubesched.api import Pod
from kubesched.errors import KubeschedError
from kubesched.framework._cycle_state import CycleState
from kubesched.framework._instrumentation import Instrumented
from kubesched.framework._interface import Clock
from kubesched.framework._plans import Plans
from kubesched.framework._plugin_calls import (
    as_status,
    bad_return,
    first_failure,
    quote,
    wrap_error,
)
from kubesched.framework._status import Code, Status
from kubesched.framework._waiting_pods import MAX_PERMIT_TIMEOUT, WaitingPod, WaitingPodsMap


class BindingPhase(Instrumented):
    """Reserve, Unreserve, Permit, WaitOnPermit, PreBind, Bind and PostBind."""

    _plans: Plans
    _clock: Clock
    waiting_pods: WaitingPodsMap

    def run_reserve_plugins_reserve(
        self, state: CycleState, pod: Pod, node_name: str
    ) -> Status | None:
        """Reserve in order; stop at the first failure (the caller then unreserves)."""
        start = time.perf_counter()
        status = first_failure(self._plans["reserve"], "Reserve", state, pod, node_name)
        self._observe("Reserve", status, start)
        return status

    def run_reserve_plugins_unreserve(self, state: CycleState, pod: Pod, node_name: str) -> None:
        """Unreserve of every Reserve plugin, in reverse order; failures are ignored."""
        start = time.perf_counter()
        for call in reversed(self._plans["unreserve"]):
            call(state, pod, node_name)
        self._observe("Unreserve", None, start)

    def run_permit_plugins(self, state: CycleState, pod: Pod, node_name: str) -> Status | None:
        """Permit in order: a rejection or error stops; Wait makes the pod a WaitingPod."""
        start = time.perf_counter()
        waits: dict[str, float] = {}
        for call in self._plans["permit"]:
            value = call(state, pod, node_name)
            timeout = MAX_PERMIT_TIMEOUT
            if isinstance(value, tuple) and len(value) == 2:
                value, timeout = value
                try:
                    timeout = float(timeout)
                except (TypeError, ValueError):
                    value = bad_return(call.plugin, call.hook, timeout)
                else:
                    if math.isnan(timeout):  # no wait ends at NaN seconds: an error
                        value = Status.error(
                            f'plugin "{call.plugin}" returned a wait of NaN seconds from '
                            f"{call.hook}",
                            plugin=call.plugin,
                        )
            status = as_status(value, call.plugin, call.hook)
            if status is None or status.code == Code.SUCCESS:
                continue
            if status.code == Code.WAIT:
                waits[call.plugin] = min(max(timeout, 0.0), MAX_PERMIT_TIMEOUT)
                continue
            if status.is_rejected():
                status = status.with_plugin(call.plugin)
            else:
                status = wrap_error(
                    f"running Permit plugin {quote(call.plugin)}", status, call.plugin
                )
            self._observe("Permit", status, start)
            return status
        result = None
        if waits:
            self.waiting_pods.add(WaitingPod(pod, waits, self._clock.now()))
            result = Status(
                Code.WAIT,
                "one or more plugins asked to wait and no plugin rejected pod "
                + quote(pod.metadata.name),
            )
        self._observe("Permit", result, start)
        return result

    def wait_on_permit(self, pod: Pod) -> Status | None:
        """The outcome of a decided waiting pod (removing it), or None if it was not waiting.

        Call it once `get_waiting_pod(uid).status` is set (or after `expire`).
        """
        wp = self.waiting_pods.get(pod.metadata.uid)
        if wp is None:
            return None
        if wp.status is None:
            raise KubeschedError(f"pod {pod.key} is still waiting on permit")
        self.waiting_pods.remove(pod.metadata.uid)
        status = wp.status
        if status.code == Code.SUCCESS:
            return None
        if status.is_rejected():
            return status
        return Status(
            Code.ERROR, f"waiting on permit for pod: {status.message}", plugin=status.plugin
        )

    def run_pre_bind_plugins(self, state: CycleState, pod: Pod, node_name: str) -> Status | None:
        """PreBind in order; stop at the first failure."""
        start = time.perf_counter()
        status = first_failure(self._plans["pre_bind"], "PreBind", state, pod, node_name)
        self._observe("PreBind", status, start)
        return status

    def run_bind_plugins(self, state: CycleState, pod: Pod, node_name: str) -> Status | None:
        """Bind plugins in order until one does not Skip; all Skip (or none) is Skip.

        Success is a Success status naming the plugin that bound the pod.
        """
        start = time.perf_counter()
        status = first_failure(self._plans["bind"], "Bind", state, pod, node_name, skip=True)
        self._observe("Bind", status, start)
        return status

    def run_post_bind_plugins(self, state: CycleState, pod: Pod, node_name: str) -> None:
        """PostBind: informational, every plugin, failures ignored."""
        start = time.perf_counter()
        for call in self._plans["post_bind"]:
            call(state, pod, node_name)
        self._observe("PostBind", None, start)
