"""`sweep`'s progress on a terminal (stderr): cells done of the grid, running, failed."""

from __future__ import annotations

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

from kubesched.experiment._sweep import Counts


class SweepProgress:
    """A bar of cells done, with the running and failed counts; only on a terminal."""

    def __init__(self, console: Console) -> None:
        self._progress: Progress | None = None
        self._task: Any = None
        if console.is_terminal:
            self._progress = Progress(
                "cells",
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("running {task.fields[running]}, failed {task.fields[failed]}"),
                TimeElapsedColumn(),
                TextColumn("left:"),
                TimeRemainingColumn(),
                console=console,
                transient=True,
            )
            self._progress.start()
            self._task = self._progress.add_task("cells", total=None, running=0, failed=0)

    def __call__(self, counts: Counts) -> None:
        if self._progress is not None:
            self._progress.update(
                self._task,
                completed=counts.done,
                total=counts.total,
                running=counts.running,
                failed=counts.failed,
            )

    def close(self) -> None:
        if self._progress is not None:
            self._progress.stop()
