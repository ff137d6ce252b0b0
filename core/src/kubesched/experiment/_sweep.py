"""`sweep`: a grid's cells through a runner into a journal, and the table from it.

Cells already in the journal (same config hash, input hash and seed) are not run
again with `resume`; the table holds one row per cell of the grid, in grid order.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from attrs import frozen

from kubesched.errors import InputError
from kubesched.experiment._cell_run import ERROR
from kubesched.experiment._cells import Cell, grid_cells
from kubesched.experiment._grid import Grid
from kubesched.experiment._journal import Journal
from kubesched.experiment._runners import Runner

JOURNAL = "cells.jsonl"
CSV = "table.csv"
PARQUET = "table.parquet"


@frozen
class Counts:
    """Cells of the grid: total, done (this run or before), running now, failed."""

    total: int
    done: int
    running: int
    failed: int


OnProgress = Callable[[Counts], None]


class Sweep:
    """One sweep of `grid` into the directory `out`."""

    def __init__(self, grid: Grid, out: Path) -> None:
        self.grid = grid
        self.out = out
        self.journal = Journal(out / JOURNAL)
        self.cells: list[Cell] = grid_cells(grid.configs, grid.inputs, grid.seeds)
        self.ran = 0
        """Cells run by the last `run` (the others were in the journal already)."""

    def check_fresh(self) -> None:
        """A sweep that does not resume must not mix its rows with an earlier one's."""
        if self.journal.exists():
            raise InputError(
                "holds the rows of an earlier sweep: --resume to continue it, or choose "
                "another --out",
                file=str(self.journal.path),
            )

    def run(self, runner: Runner, progress: OnProgress | None = None) -> list[dict[str, Any]]:
        """Run the cells the journal lacks; the rows of every cell of the grid, in order."""
        self.out.mkdir(parents=True, exist_ok=True)
        rows = self.journal.rows()
        keys = {cell.key for cell in self.cells}
        failed = sum(1 for key, row in rows.items() if key in keys and row["status"] == ERROR)
        todo = [cell for cell in self.cells if cell.key not in rows]
        state = {"done": len(self.cells) - len(todo), "running": 0, "failed": failed}

        def report() -> None:
            if progress is not None:
                counts = Counts(len(self.cells), state["done"], state["running"], state["failed"])
                progress(counts)

        def on_row(cell: Cell, row: dict[str, Any]) -> None:
            if cell.key in rows:
                return
            self.journal.append(row)
            rows[cell.key] = row
            self.ran += 1
            state["done"] += 1
            state["failed"] += row["status"] == ERROR
            report()

        def on_running(running: int) -> None:
            state["running"] = running
            report()

        self.ran = 0
        report()
        if todo:
            runner.run(todo, on_row, on_running)
        return self.rows(rows)

    def rows(self, rows: dict[str, dict[str, Any]] | None = None) -> list[dict[str, Any]]:
        """The journal's rows of this grid's cells, in grid order."""
        found = self.journal.rows() if rows is None else rows
        return [found[cell.key] for cell in self.cells if cell.key in found]
