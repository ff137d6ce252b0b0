"""Durations and evaluation counts for upstream's framework metrics, recorded by every phase
of the runtime."""

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

    def add_plugin_evaluations(self, plugin: str, point: str, profile: str, count: int) -> None:
        """`count` more evaluations of a PreFilter, Filter, PreScore or Score plugin."""


class Instrumented:
    """Records extension-point durations, per-plugin ones in sampled cycles, and (in every
    cycle) how many times each PreFilter, Filter, PreScore and Score plugin was evaluated,
    as upstream's instrumented plugins count them: a call that returned Skip is not an
    evaluation (PreFilter, PreScore), and a Filter plugin counts once per node it was asked
    about (a node the plugins before it rejected is not asked)."""

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

    def _count(self, plugin: str, point: str, count: int) -> None:
        if count and self._metrics is not None:
            self._metrics.add_plugin_evaluations(plugin, point, self.profile_name, count)
