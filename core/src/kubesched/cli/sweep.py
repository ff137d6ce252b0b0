"""`kubesched sweep GRID.yaml`: every (config, input, seed) of a grid, one deterministic run
each, into one table.

Rows go to OUT/cells.jsonl as cells finish, and the table to OUT/table.csv and
OUT/table.parquet (with kubesched-core[parquet]) at the end. Cells run on local
processes (`--jobs`, all cores by default) or on Ray (`--ray auto|ADDRESS`, with
kubesched-core[ray]). `--resume` runs only the cells OUT lacks. A bad grid or
config exits with one line before anything is written.
"""

from __future__ import annotations

from pathlib import Path

import click
from rich.console import Console

from kubesched.cli._sweep_progress import SweepProgress
from kubesched.cli.output import discovered_registry
from kubesched.experiment._cell_run import ERROR
from kubesched.experiment._grid import load_grid
from kubesched.experiment._runners import LocalRunner, Runner
from kubesched.experiment._sweep import CSV, PARQUET, Sweep
from kubesched.experiment._table import parquet_available, write_csv, write_parquet


@click.command(name="sweep")
@click.argument("grid", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    help="Directory of the results (cells.jsonl, table.csv, table.parquet); "
    "default: GRID's name with -sweep, in the current directory.",
)
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(min=1),
    help="Local processes running cells; default: every core. 1 runs them in this process.",
)
@click.option(
    "--ray",
    "ray_address",
    metavar="auto|ADDRESS",
    help="Run the cells on a Ray cluster: auto joins this machine's, or give its address "
    "(needs kubesched-core[ray]).",
)
@click.option("--resume", is_flag=True, help="Keep the rows in OUT; run only the cells missing.")
def command(
    grid: Path, out: Path | None, jobs: int | None, ray_address: str | None, resume: bool
) -> None:
    """Run every config x input x seed of GRID (a Sweep YAML file) into one table."""
    if jobs is not None and ray_address is not None:
        raise click.UsageError("--jobs and --ray cannot be used together")
    spec = load_grid(grid)
    registry = discovered_registry()
    for config in spec.configs:
        config.load(registry)  # ConfigError: exit 1, every problem, nothing written
    sweep = Sweep(spec, out or Path(f"{grid.stem}-sweep"))
    if not resume:
        sweep.check_fresh()
    runner: Runner
    if ray_address is not None:
        from kubesched.experiment._ray import RayRunner

        runner = RayRunner(ray_address)
    else:
        runner = LocalRunner(jobs)
    bar = SweepProgress(Console(stderr=True))
    try:
        rows = sweep.run(runner, bar)
    finally:
        bar.close()
        done = sweep.rows()
        write_csv(done, sweep.out / CSV)
        if parquet_available():
            write_parquet(done, sweep.out / PARQUET)
    failed = sum(1 for row in rows if row["status"] == ERROR)
    tables = f"{sweep.out / CSV}" + (
        f" and {sweep.out / PARQUET}"
        if parquet_available()
        else " (no Parquet: pip install 'kubesched-core[parquet]')"
    )
    earlier = len(rows) - sweep.ran
    resumed = f", {earlier} from an earlier sweep" if earlier else ""
    click.echo(f"{len(rows)} cells ({failed} failed{resumed}) in {tables}")
