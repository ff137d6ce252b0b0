"""Runners: where a sweep's cells run. Each takes the cells to run and reports every row
as it arrives; a row is never reported twice for a cell.

- `LocalRunner`: processes on this machine (`--jobs N`, all cores by default; one job
  runs in this process). A worker process that dies costs its cells a retry on a fresh
  pool; after `MAX_ATTEMPTS` a cell is an error row.
- `RayRunner` (`kubesched.experiment._ray`): tasks on a Ray cluster.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Protocol

from kubesched.experiment._cell_run import ERROR, run_cell
from kubesched.experiment._cells import Cell

MAX_ATTEMPTS = 3
"""Times a cell is started before a worker that keeps dying makes it an error row."""

Row = dict[str, Any]
OnRow = Callable[[Cell, Row], None]
OnRunning = Callable[[int], None]
"""Called with the number of cells running now, whenever it changes."""


class Runner(Protocol):
    name: str

    def run(self, cells: Sequence[Cell], on_row: OnRow, on_running: OnRunning) -> None:
        """Run every cell, calling `on_row` once per cell with its row."""


def lost_row(cell: Cell, runner: str, why: str) -> Row:
    """The row of a cell whose worker kept dying."""
    return {
        "config": cell.config.name,
        "config_hash": cell.config_hash,
        "input": cell.input.name,
        "input_kind": cell.input.kind,
        "input_hash": cell.input_hash,
        "seed": cell.seed,
        "status": ERROR,
        "error": why,
        "runner": runner,
    }


def default_jobs() -> int:
    """All the cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


class LocalRunner:
    """Cells on `jobs` processes of this machine; see the module docstring."""

    name = "local"

    def __init__(self, jobs: int | None = None) -> None:
        self.jobs = jobs or default_jobs()

    def run(self, cells: Sequence[Cell], on_row: OnRow, on_running: OnRunning) -> None:
        if self.jobs == 1:
            for cell in cells:
                on_running(1)
                on_row(cell, run_cell(cell, self.name))
            on_running(0)
            return
        attempts = dict.fromkeys((c.index for c in cells), 0)
        todo = list(cells)
        while todo:
            todo = self._pool(todo, attempts, on_row, on_running)

    def _pool(
        self,
        cells: list[Cell],
        attempts: dict[int, int],
        on_row: OnRow,
        on_running: OnRunning,
    ) -> list[Cell]:
        """Run cells on one pool until done or the pool breaks; the cells left to retry."""
        context = multiprocessing.get_context("spawn")
        pool = ProcessPoolExecutor(max_workers=min(self.jobs, len(cells)), mp_context=context)
        pending: dict[Future[Row], Cell] = {}
        try:
            for cell in cells:
                attempts[cell.index] += 1
                pending[pool.submit(run_cell, cell, self.name)] = cell
            on_running(min(self.jobs, len(pending)))
            while pending:
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                broken = False
                for future in done:
                    cell = pending.pop(future)
                    try:
                        row = future.result()
                    except BrokenProcessPool:
                        pending[future] = cell
                        broken = True
                        continue
                    on_row(cell, row)
                on_running(min(self.jobs, len(pending)))
                if broken:
                    return self._retry(list(pending.values()), attempts, on_row)
            return []
        finally:
            pool.shutdown(wait=True, cancel_futures=True)

    def _retry(self, cells: list[Cell], attempts: dict[int, int], on_row: OnRow) -> list[Cell]:
        """After a worker died: the cells to run again; those out of attempts become rows."""
        again = []
        for cell in sorted(cells, key=lambda c: c.index):
            if attempts[cell.index] >= MAX_ATTEMPTS:
                why = f"WorkerDied: its worker process died {MAX_ATTEMPTS} times"
                on_row(cell, lost_row(cell, self.name, why))
            else:
                again.append(cell)
        return again
