"""Durations for upstream's framework metrics, recorded by every phase of the runtime."""

from __future__ import annotations

import time
from typing import Protocol

from kubesched.framework._cycle_state import CycleState
from kubesched.framework._status import Status


class MetricsRecorder(Protocol):
    """Receives durations for upstream's framework metrics."""

    def observe_extension_point(
        self, point: str, status: str, profile: str, seconds: float
    ) -> None: ...

    def observe_plugin(self, plugin: str, point: str, status: str, seconds: float) -> None: ...


class Instrumented:
    """Records extension-point durations, and per-plugin ones in sampled cycles."""

    _metrics: MetricsRecorder | None

    @property
    def profile_name(self) -> str:
        raise NotImplementedError

    def _observe(self, point: str, status: Status | None, start: float) -> None:
        if self._metrics is not None:
            code = str(status.code) if status is not None else "Success"
            self._metrics.observe_extension_point(
                point, code, self.profile_name, time.perf_counter() - start
            )

    def _observe_plugin(
        self, state: CycleState, plugin: str, point: str, status: Status | None, start: float
    ) -> None:
        if self._metrics is not None and state.record_plugin_metrics:
            code = str(status.code) if status is not None else "Success"
            self._metrics.observe_plugin(plugin, point, code, time.perf_counter() - start)
