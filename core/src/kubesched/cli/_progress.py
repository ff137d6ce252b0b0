"""`simulate`'s progress on a terminal (stderr): loading (bytes and objects read, time
left), then pods decided, attempts, ETA."""

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
    ProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.status import Status

from kubesched.api._load_progress import LoadProgress, Watcher

PROGRESS_AFTER_SECONDS = 2.0
"""A progress bar appears (on a terminal) once a simulation has run this long."""
REFRESH_SECONDS = 0.1
"""The loading spinner's text changes at most this often."""
_MB = 1_000_000


def _duration(seconds: float) -> str:
    """`42 s`, `3 min 5 s`, `1 h 2 min`."""
    whole = round(seconds)
    if whole < 60:
        return f"{whole} s"
    if whole < 3600:
        return f"{whole // 60} min {whole % 60} s"
    return f"{whole // 3600} h {whole % 3600 // 60} min"


def describe_loading(what: str, progress: LoadProgress) -> str:
    """`reading x.yaml: 45.2 of 120.0 MB, 12,345 objects, about 30 s left` (no size for
    standard input, no time left until there is a pace to go by)."""
    parts = []
    if progress.total_bytes:
        done, total = progress.done_bytes / _MB, progress.total_bytes / _MB
        parts.append(f"{done:.1f} of {total:.1f} MB")
    parts.append(f"{progress.objects:,} object{'s' if progress.objects != 1 else ''}")
    left = progress.seconds_left
    if left is not None and progress.done_bytes < progress.total_bytes:
        parts.append(f"about {_duration(left)} left")
    return f"{what}: {', '.join(parts)}"


class LoadingDisplay:
    """A `Watcher` that rewrites the spinner's text with the load's progress, at most every
    REFRESH_SECONDS (the last text written is `text`)."""

    def __init__(self, status: Status, what: str) -> None:
        self._status = status
        self._what = what
        self._shown_at = 0.0
        self.text = what

    def __call__(self, progress: LoadProgress) -> None:
        now = time.monotonic()
        if now - self._shown_at < REFRESH_SECONDS:
            return
        self._shown_at = now
        self.text = describe_loading(self._what, progress)
        self._status.update(self.text)


@contextmanager
def loading(console: Console, what: str) -> Iterator[Watcher | None]:
    """A spinner saying what is being read, then how far (bytes, objects, time left), on a
    terminal only; yields the watcher to hand the loader (None off a terminal)."""
    if not console.is_terminal:
        yield None
        return
    with console.status(what) as status:
        yield LoadingDisplay(status, what)


class DelayedProgress:
    """A rich Progress on a terminal only, started on the first update that comes
    PROGRESS_AFTER_SECONDS or more after this object was made, so short runs show none.

    Subclasses say what the bar shows (`columns`, `first_task`) and turn their own
    updates into `advance(**fields)`; `close()` removes the bar.
    """

    def __init__(self, console: Console) -> None:
        self._console = console
        self._start = time.monotonic()
        self._progress: Progress | None = None
        self._task: Any = None

    def columns(self) -> tuple[str | ProgressColumn, ...]:
        """The bar's columns."""
        raise NotImplementedError

    def first_task(self, progress: Progress) -> Any:
        """Add the bar's task to `progress`; returns its id."""
        raise NotImplementedError

    def advance(self, **fields: Any) -> None:
        """Update the task with `fields`, starting the bar when it is time."""
        if self._progress is None:
            if not self._console.is_terminal:
                return
            if time.monotonic() - self._start < PROGRESS_AFTER_SECONDS:
                return
            self._progress = Progress(*self.columns(), console=self._console, transient=True)
            self._progress.start()
            self._task = self.first_task(self._progress)
        self._progress.update(self._task, **fields)

    def close(self) -> None:
        """Remove the bar (when one was shown)."""
        if self._progress is not None:
            self._progress.stop()


class ProgressBar(DelayedProgress):
    """Pods decided of those pending, scheduling attempts so far (retries included, so the
    bar moves while unschedulable pods are retried) and the time left; only on a terminal
    and only for runs longer than PROGRESS_AFTER_SECONDS."""

    def __init__(self, console: Console, attempts: Callable[[], int]) -> None:
        super().__init__(console)
        self._attempts = attempts
        self._pending = 0

    def columns(self) -> tuple[str | ProgressColumn, ...]:
        return (
            "scheduling",
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("pods, {task.fields[attempts]} attempts"),
            TimeElapsedColumn(),
            TextColumn("left:"),
            TimeRemainingColumn(),
        )

    def first_task(self, progress: Progress) -> Any:
        return progress.add_task("pods", total=self._pending, attempts=0)

    def __call__(self, decided: int, pending: int) -> None:
        self._pending = pending
        self.advance(completed=decided, total=pending, attempts=self._attempts())


class SimulatedTimeBar(DelayedProgress):
    """`replay`'s progress: simulated time reached of the scenario's last event (when known),
    events applied, wall time; on a terminal only, after PROGRESS_AFTER_SECONDS."""

    def __init__(self, console: Console, horizon: float | None) -> None:
        super().__init__(console)
        self._horizon = horizon

    def columns(self) -> tuple[str | ProgressColumn, ...]:
        return (
            "replaying",
            BarColumn(),
            TextColumn("{task.fields[clock]} simulated, {task.fields[events]} events"),
            TimeElapsedColumn(),
        )

    def first_task(self, progress: Progress) -> Any:
        return progress.add_task("time", total=self._horizon, clock="", events=0)

    def __call__(self, now: float, events: int) -> None:
        completed = min(now, self._horizon) if self._horizon else None
        self.advance(completed=completed, clock=format_seconds(now), events=events)


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
