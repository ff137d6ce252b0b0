"""`simulate`'s progress on a terminal (stderr): loading, then pods decided, attempts, ETA."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

PROGRESS_AFTER_SECONDS = 2.0
"""A progress bar appears (on a terminal) once a simulation has run this long."""


@contextmanager
def loading(console: Console, what: str) -> Iterator[None]:
    """A spinner saying what is being read, on a terminal only."""
    if not console.is_terminal:
        yield
        return
    with console.status(what):
        yield


class ProgressBar:
    """Pods decided of those pending, scheduling attempts so far (retries included, so the
    bar moves while unschedulable pods are retried) and the time left; only on a terminal
    and only for runs longer than PROGRESS_AFTER_SECONDS."""

    def __init__(self, console: Console, attempts: Callable[[], int]) -> None:
        self._console = console
        self._attempts = attempts
        self._start = time.monotonic()
        self._progress: Progress | None = None
        self._task: Any = None

    def __call__(self, decided: int, pending: int) -> None:
        if self._progress is None:
            if not self._console.is_terminal:
                return
            if time.monotonic() - self._start < PROGRESS_AFTER_SECONDS:
                return
            self._progress = Progress(
                "scheduling",
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("pods, {task.fields[attempts]} attempts"),
                TimeElapsedColumn(),
                TextColumn("left:"),
                TimeRemainingColumn(),
                console=self._console,
                transient=True,
            )
            self._progress.start()
            self._task = self._progress.add_task("pods", total=pending, attempts=0)
        self._progress.update(
            self._task, completed=decided, total=pending, attempts=self._attempts()
        )

    def close(self) -> None:
        if self._progress is not None:
            self._progress.stop()


class SimulatedTimeBar:
    """`replay`'s progress: simulated time reached of the scenario's last event (when known),
    events applied, wall time; on a terminal only, after PROGRESS_AFTER_SECONDS."""

    def __init__(self, console: Console, horizon: float | None) -> None:
        self._console = console
        self._horizon = horizon
        self._start = time.monotonic()
        self._progress: Progress | None = None
        self._task: Any = None

    def __call__(self, now: float, events: int) -> None:
        if self._progress is None:
            if not self._console.is_terminal:
                return
            if time.monotonic() - self._start < PROGRESS_AFTER_SECONDS:
                return
            self._progress = Progress(
                "replaying",
                BarColumn(),
                TextColumn("{task.fields[clock]} simulated, {task.fields[events]} events"),
                TimeElapsedColumn(),
                console=self._console,
                transient=True,
            )
            self._progress.start()
            self._task = self._progress.add_task("time", total=self._horizon, clock="", events=0)
        completed = min(now, self._horizon) if self._horizon else None
        self._progress.update(
            self._task, completed=completed, clock=format_seconds(now), events=events
        )

    def close(self) -> None:
        if self._progress is not None:
            self._progress.stop()


def format_seconds(seconds: float) -> str:
    """Simulated seconds as `1d02h03m04s` (whole seconds, leading zero units left out)."""
    total = int(seconds)
    days, rest = divmod(total, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if days:
        return f"{days}d{hours:02d}h{minutes:02d}m{secs:02d}s"
    if hours:
        return f"{hours}h{minutes:02d}m{secs:02d}s"
    if minutes:
        return f"{minutes}m{secs:02d}s"
    return f"{secs}s"
