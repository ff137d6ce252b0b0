"""`kubesched sweep` on local processes: the table, its files, determinism across job counts,
--resume after an interruption, failing cells, bad grids."""

from __future__ import annotations

import csv
import io
import json
import multiprocessing
import os
import signal
import threading
import time
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest
from rich.console import Console
from sweep_testlib import EXAMPLES, without_timing, write_grid

from kubesched.cli._sweep_progress import SweepProgress
from kubesched.cli.main import main
from kubesched.experiment import cluster_input, cluster_objects, config_file, run_metrics
from kubesched.experiment._cells import Cell
from kubesched.experiment._grid import load_grid
from kubesched.experiment._replay import replay_metrics, run_replay
from kubesched.experiment._runners import LocalRunner, OnRow, OnRunning
from kubesched.experiment._simulate import simulate
from kubesched.experiment._sweep import Counts, Sweep
from kubesched.framework import default_registry


def sweep(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code: Any = 0
    try:
        main(["sweep", *argv])
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    return int(code or 0), out, err


def journal_rows(out: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (out / "cells.jsonl").read_text().splitlines()]


def test_every_cell_is_a_row_in_grid_order_in_csv_and_parquet(
    capsys: pytest.CaptureFixture[str], example_grid: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    code, printed, err = sweep(capsys, str(example_grid), "--out", str(out), "--jobs", "1")
    assert code == 0, err
    assert printed == f"12 cells (0 failed) in {out}/table.csv and {out}/table.parquet\n"
    with (out / "table.csv").open() as file:
        rows = list(csv.DictReader(file))
    assert [(r["config"], r["input"], r["seed"]) for r in rows] == [
        (config, cluster, str(seed))
        for config in ("spread", "pack")
        for cluster in ("quickstart", "cluster.yaml")
        for seed in (1, 2, 3)
    ]
    assert {r["status"] for r in rows} == {"ok"}
    assert {r["runner"] for r in rows} == {"local"}
    parquet = pq.read_table(out / "table.parquet").to_pylist()
    assert list(parquet[0]) == list(rows[0])
    assert [p["scheduled"] for p in parquet] == [int(r["scheduled"]) for r in rows]
    assert [p["utilisation.cpu"] for p in parquet] == [float(r["utilisation.cpu"]) for r in rows]
    # a row is the run `simulate` does for that config and seed
    registry = default_registry()
    loaded = config_file(EXAMPLES / "compare/spread.yaml").load(registry)
    objects = cluster_objects(cluster_input(EXAMPLES / "quickstart"))
    expected = run_metrics(simulate(loaded, registry, objects, 2))
    row = parquet[1]
    assert (row["scheduled"], row["unschedulable"]) == (expected.scheduled, expected.unschedulable)
    assert row["utilisation.memory"] == expected.utilisation["memory"]
    assert row["fragmentation.cpu"] == expected.fragmentation["cpu"]
    assert json.loads(row["unschedulable_reasons"]) == expected.unschedulable_by_reason
    assert json.loads(row["plugin_versions"])["kubesched-noderesourcesfit"]
    assert row["wall_seconds"] > 0 and row["cpu_seconds"] > 0


def test_one_and_two_processes_give_the_same_table(
    capsys: pytest.CaptureFixture[str], example_grid: Path, tmp_path: Path
) -> None:
    tables = []
    for jobs in ("1", "2"):
        out = tmp_path / f"jobs{jobs}"
        code, _, err = sweep(capsys, str(example_grid), "--out", str(out), "--jobs", jobs)
        assert code == 0, err
        tables.append(without_timing(pq.read_table(out / "table.parquet").to_pylist()))
    assert tables[0] == tables[1]
    assert len(tables[0]) == 12


class Interrupting:
    """Runs cells in this process and is interrupted (as by Ctrl-C) after `after` rows."""

    name = "local"

    def __init__(self, after: int) -> None:
        self.after = after
        self.ran: list[str] = []

    def run(self, cells: list[Cell], on_row: OnRow, on_running: OnRunning) -> None:
        inner = LocalRunner(1)

        def counted(cell: Cell, row: dict[str, Any]) -> None:
            if len(self.ran) == self.after:
                raise KeyboardInterrupt
            self.ran.append(cell.key)
            on_row(cell, row)

        inner.run(cells, counted, on_running)


def test_resume_runs_only_the_missing_cells_and_gives_the_same_table(
    example_grid: Path, tmp_path: Path
) -> None:
    grid = load_grid(example_grid)
    whole = Sweep(grid, tmp_path / "whole").run(LocalRunner(1))
    first = Interrupting(after=5)
    with pytest.raises(KeyboardInterrupt):
        Sweep(grid, tmp_path / "cut").run(first)
    assert len(journal_rows(tmp_path / "cut")) == 5
    second = Interrupting(after=100)
    resumed = Sweep(grid, tmp_path / "cut").run(second)
    assert len(second.ran) == 7
    assert set(first.ran).isdisjoint(second.ran)
    assert without_timing(resumed) == without_timing(whole)
    assert len(journal_rows(tmp_path / "cut")) == 12


def test_a_line_cut_short_by_a_crash_is_dropped_and_its_cell_run_again(
    capsys: pytest.CaptureFixture[str], example_grid: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    assert sweep(capsys, str(example_grid), "--out", str(out), "-j", "1")[0] == 0
    journal = out / "cells.jsonl"
    lines = journal.read_text().splitlines(keepends=True)
    journal.write_text("".join(lines[:4]) + lines[4][:30])
    code, printed, err = sweep(capsys, str(example_grid), "--out", str(out), "-j", "1", "--resume")
    assert code == 0, err
    rows = journal_rows(out)
    assert len(rows) == 12
    assert len({(r["config_hash"], r["input_hash"], r["seed"]) for r in rows}) == 12
    assert printed.startswith("12 cells (0 failed, 4 from an earlier sweep) in ")


def test_without_resume_an_earlier_sweep_is_not_mixed_in(
    capsys: pytest.CaptureFixture[str], example_grid: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    assert sweep(capsys, str(example_grid), "--out", str(out), "-j", "1")[0] == 0
    before = (out / "cells.jsonl").read_bytes()
    code, printed, err = sweep(capsys, str(example_grid), "--out", str(out), "-j", "1")
    assert code == 2 and printed == ""
    assert err == (
        f"error: {out}/cells.jsonl: holds the rows of an earlier sweep: --resume to continue "
        "it, or choose another --out\n"
    )
    assert (out / "cells.jsonl").read_bytes() == before


def test_a_failing_cell_is_a_row_with_its_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: 3}\n")
    grid = write_grid(
        tmp_path,
        f"""\
        - cluster: {EXAMPLES / "quickstart"}
        - cluster: {broken}
        """,
        seeds="[7]",
    )
    out = tmp_path / "out"
    code, printed, err = sweep(capsys, str(grid), "--out", str(out), "-j", "1")
    assert code == 0, err
    assert printed.startswith("4 cells (2 failed)")
    rows = pq.read_table(out / "table.parquet").to_pylist()
    failed = [r for r in rows if r["status"] == "error"]
    assert [r["input"] for r in failed] == ["broken.yaml", "broken.yaml"]
    assert all(r["error"].startswith("InputError: ") and str(broken) in r["error"] for r in failed)
    assert all(r["scheduled"] is None for r in failed)
    assert [r["status"] for r in rows if r["input"] == "quickstart"] == ["ok", "ok"]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("seeds: [1, x]\n", "field seeds[1]: 'x' is not an integer or a range such as 1-10"),
        ("configs: []\n", "field configs: a non-empty list of configs"),
    ],
)
def test_a_bad_grid_is_one_line_and_writes_nothing(
    capsys: pytest.CaptureFixture[str], example_grid: Path, tmp_path: Path, body: str, message: str
) -> None:
    example_grid.write_text(example_grid.read_text() + body)
    out = tmp_path / "out"
    code, printed, err = sweep(capsys, str(example_grid), "--out", str(out))
    assert code == 2 and printed == ""
    assert err == f"error: {example_grid}: {message}\n"
    assert not out.exists()


def _cluster(path: Path, nodes: int, pods: int) -> Path:
    """Enough pods that a cell runs for a second or more."""
    text = "".join(
        f"---\napiVersion: v1\nkind: Node\nmetadata: {{name: n{i:03d}}}\n"
        f'status: {{allocatable: {{cpu: "8", memory: 32Gi, pods: "110"}}}}\n'
        for i in range(nodes)
    ) + "".join(
        f"---\napiVersion: v1\nkind: Pod\nmetadata: {{name: p{i:04d}, namespace: default}}\n"
        f"spec: {{containers: [{{name: c, resources: {{requests: "
        f'{{cpu: "{100 + (i * 37) % 900}m", memory: 1Gi}}}}}}]}}\n'
        for i in range(pods)
    )
    path.write_text(text)
    return path


def test_a_local_worker_killed_mid_sweep_costs_its_cells_a_retry_not_a_row(
    tmp_path: Path,
) -> None:
    cluster = _cluster(tmp_path / "cluster.yaml", nodes=40, pods=300)
    grid = load_grid(write_grid(tmp_path, f"- cluster: {cluster}\n", seeds="1-2"))
    killed: list[int] = []
    running: list[int] = []

    def on_running(count: int) -> None:
        running.append(count)

    def kill_one() -> None:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not killed:
            workers = multiprocessing.active_children()
            if workers and running and running[-1] > 0:
                time.sleep(1.0)  # past the worker's start, inside a cell
                os.kill(workers[0].pid or 0, signal.SIGKILL)
                killed.append(workers[0].pid or 0)
            time.sleep(0.05)

    killer = threading.Thread(target=kill_one)
    killer.start()
    sweep = Sweep(grid, tmp_path / "out")
    rows = sweep.run(LocalRunner(2), lambda counts: on_running(counts.running))
    killer.join()
    assert killed
    journal = journal_rows(tmp_path / "out")
    assert len(journal) == len({(r["config_hash"], r["seed"]) for r in journal}) == 4
    assert {row["status"] for row in rows} == {"ok"}
    assert without_timing(rows) == without_timing(Sweep(grid, tmp_path / "one").run(LocalRunner(1)))


def test_the_progress_bar_counts_done_running_and_failed_on_a_terminal() -> None:
    console = Console(file=io.StringIO(), force_terminal=True, width=120)
    bar = SweepProgress(console)
    bar(Counts(total=12, done=5, running=2, failed=1))
    bar.close()
    shown = console.file.getvalue()  # type: ignore[attr-defined]
    assert "5/12" in shown and "running 2, failed 1" in shown
    quiet = Console(file=io.StringIO(), force_terminal=False)
    silent = SweepProgress(quiet)
    silent(Counts(total=12, done=5, running=2, failed=1))
    silent.close()
    assert quiet.file.getvalue() == ""  # type: ignore[attr-defined]


def test_a_scenario_input_is_replayed_and_its_metrics_are_columns(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    grid = write_grid(
        tmp_path,
        f"""\
        - scenario: {EXAMPLES / "compare/day.yaml"}
          replay: {{sampleInterval: 1800}}
        - scenario: {EXAMPLES / "compare/day.yaml"}
          name: unknown-format
          format: no-such-format
        """,
        seeds="[3]",
    )
    out = tmp_path / "out"
    code, printed, err = sweep(capsys, str(grid), "--out", str(out), "-j", "1")
    assert code == 0, err
    assert printed.startswith("4 cells (2 failed)")
    rows = pq.read_table(out / "table.parquet").to_pylist()
    day = [r for r in rows if r["input"] == "day.yaml"]
    assert [(r["config"], r["status"], r["input_kind"]) for r in day] == [
        ("spread", "ok", "scenario"),
        ("pack", "ok", "scenario"),
    ]
    registry = default_registry()
    spec = load_grid(grid).inputs[0]
    expected = replay_metrics(
        run_replay(config_file(EXAMPLES / "compare/pack.yaml").load(registry), registry, spec, 3)
    )
    assert {k: day[1][k] for k in expected} == expected
    assert day[1]["utilisation_mean.cpu"] > 0
    unknown = [r for r in rows if r["input"] == "unknown-format"]
    assert {r["status"] for r in unknown} == {"error"}
    assert "no-such-format" in unknown[0]["error"]


def test_jobs_and_ray_together_are_a_usage_error(
    capsys: pytest.CaptureFixture[str], example_grid: Path, tmp_path: Path
) -> None:
    argv = [str(example_grid), "--out", str(tmp_path / "out"), "--jobs", "2", "--ray", "auto"]
    code, printed, err = sweep(capsys, *argv)
    assert code == 2 and printed == ""
    assert "--jobs and --ray cannot be used together" in err
    assert not (tmp_path / "out").exists()
