"""`kubesched openb`: the FGD study's experiment on the OpenB trace, policies x seeds, as a
command of `kubesched` (entry-point group `kubesched.commands`).

    kubesched openb DATA_DIR [--policies fgd,bestfit] [--seeds 42,43] [--tune 1.3]
                    [--ties first|random] [--until PCT] [-o table|json|yaml]
                    [--json OUT] [--csv OUT] [--plot OUT.png] [--per-gpu OUT]
    kubesched openb --from RUNS.json [--from MORE.json ...] [-o ...] [--json OUT] ...

It follows the core commands' conventions: `-o table` (the default) prints
unallocated GPU % at arrived = 100% per policy under a title naming the tie
rule, `-o json|yaml` the versioned document `--json` writes; a progress bar on
a terminal only; bad input is one `error:` line and exit 2, before anything is
run or written; SIGINT stops at once with exit 130. Output files are written
whole, each through a temporary file beside it.
"""

from __future__ import annotations

import importlib.util
import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
import yaml
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from kubesched.cli import DelayedProgress, output_option, stage
from kubesched.errors import InputError
from kubesched.replay import TIE_RULES, TIES_FIRST
from kubesched_gpushare.replay.output import per_gpu, plot, table, write_csv
from kubesched_gpushare.replay.profiles import POLICIES
from kubesched_gpushare.replay.run import ReplayResult
from kubesched_gpushare.replay.runs import (
    Experiment,
    MergeError,
    PolicyError,
    merged,
    run_all,
)
from kubesched_gpushare.replay.trace import TraceError


class RunsBar(DelayedProgress):
    """Replays done of the experiment's, the one running now, wall time."""

    def __init__(self, console: Console, total: int) -> None:
        super().__init__(console)
        self._total = total

    def columns(self) -> tuple[Any, ...]:
        return (
            "openb",
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("runs, now {task.fields[run]}"),
            TimeElapsedColumn(),
        )

    def first_task(self, progress: Progress) -> Any:
        return progress.add_task("runs", total=self._total, run="")

    def __call__(self, done: int, policy: str, seed: int) -> None:
        self.advance(completed=done, run=f"{policy} seed {seed}")


def _csv_list(ctx: click.Context, param: click.Parameter, value: str) -> tuple[str, ...]:
    items = tuple(item.strip() for item in value.split(","))
    if not all(items):
        raise click.BadParameter(f"{value!r} is not a comma-separated list")
    return items


def _seeds(ctx: click.Context, param: click.Parameter, value: str) -> tuple[int, ...]:
    try:
        return tuple(int(item) for item in _csv_list(ctx, param, value))
    except ValueError:
        raise click.BadParameter(f"{value!r} is not a comma-separated list of integers") from None


def _file_option(flag: str, dest: str, help: str) -> Callable[[Any], Any]:
    """An option naming a file the command writes."""
    return click.option(flag, dest, type=click.Path(path_type=Path), help=help)


def _check_output(path: Path | None, option: str) -> None:
    """InputError unless `path` can be written: its folder exists, it is no folder."""
    if path is None:
        return
    if path.is_dir():
        raise InputError(f"{option}: is a directory", file=str(path))
    if not path.parent.is_dir():
        raise InputError(f"{option}: no such directory: {path.parent}", file=str(path))


def _write_whole(path: Path, write: Callable[[Path], object]) -> None:
    """`write` to a temporary file beside `path`, then rename it over `path`."""
    descriptor, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    os.close(descriptor)
    try:
        write(Path(temporary))
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _document(
    data: Path | None, merge: tuple[Path, ...], experiment: Experiment | None
) -> tuple[dict[str, Any], list[ReplayResult]]:
    """Run the experiment, or merge earlier documents; user errors as InputError."""
    try:
        if experiment is None:
            stage("merging " + ", ".join(str(p) for p in merge))
            return merged(merge), []
        stderr = Console(stderr=True)
        bar = RunsBar(stderr, experiment.runs)

        def starts(done: int, policy: str, seed: int) -> None:
            stage(f"replaying {policy} seed {seed} ({done} of {experiment.runs} runs done)")
            bar(done, policy, seed)

        def ends(run: dict[str, Any]) -> None:
            click.echo(
                f"{run['policy']} seed {run['seed']} (ties {run['ties']}): {run['pods']} pods, "
                f"{run['failed']} failed, {run['seconds']:.1f}s ({run['cpuSeconds']:.1f}s CPU)",
                err=True,
            )

        try:
            return run_all(experiment, starts, ends)
        finally:
            bar.close()
    except PolicyError as error:
        raise InputError(str(error), field="--policies") from None
    except (TraceError, MergeError) as error:
        raise InputError(str(error)) from None


@click.command(name="openb", context_settings={"help_option_names": ["-h", "--help"]})
@click.argument(
    "data", required=False, type=click.Path(file_okay=False, path_type=Path), metavar="DATA_DIR"
)
@click.option(
    "--from",
    "merge",
    multiple=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="Merge the runs of this --json document instead of running (repeatable).",
)
@click.option(
    "--pods", default="default", show_default=True, help="Pod list: openb_pod_list_<PODS>.csv."
)
@click.option(
    "--nodes",
    default="gpu_node",
    show_default=True,
    help="Node list: openb_node_list_<NODES>.csv.",
)
@click.option(
    "--policies",
    default=",".join(POLICIES),
    show_default=True,
    callback=_csv_list,
    help="Comma-separated policies.",
)
@click.option(
    "--seeds", default="42", show_default=True, callback=_seeds, help="Comma-separated seeds."
)
@click.option(
    "--tune",
    type=click.FloatRange(min=0, min_open=True),
    default=1.3,
    show_default=True,
    help="Inflate the workload to this share of GPU capacity.",
)
@click.option(
    "--ties",
    type=click.Choice(sorted(TIE_RULES)),
    default=TIES_FIRST,
    show_default=True,
    help="Tied best nodes: the first in a seeded node order (the study's) or a random one.",
)
@click.option(
    "--until",
    type=click.IntRange(min=0),
    help="Stop each run once the arrived workload passes this % of capacity (+2); the "
    "series stop there.",
)
@output_option(help="Output format: the summary table, or the document --json writes.")
@_file_option("--json", "json_file", "Write every run's series here.")
@_file_option("--csv", "csv_file", "Write unallocated GPU % per bin here.")
@_file_option("--plot", "plot_file", "Plot unallocated GPU % here (.png; needs matplotlib).")
@_file_option("--per-gpu", "per_gpu_file", "Write each node's used milli per GPU here.")
def openb(
    data: Path | None,
    merge: tuple[Path, ...],
    pods: str,
    nodes: str,
    policies: tuple[str, ...],
    seeds: tuple[int, ...],
    tune: float,
    ties: str,
    until: int | None,
    output: str,
    json_file: Path | None,
    csv_file: Path | None,
    plot_file: Path | None,
    per_gpu_file: Path | None,
) -> None:
    """Replay the OpenB trace in DATA_DIR as the FGD study does, policies x seeds, or merge
    the runs of earlier --json documents (--from)."""
    if (data is None) == (not merge):
        raise click.UsageError("give DATA_DIR (to run) or --from (to merge runs), one of the two")
    if merge and per_gpu_file is not None:
        raise click.UsageError("--per-gpu needs a run: it cannot be used with --from")
    for path, option in (
        (json_file, "--json"),
        (csv_file, "--csv"),
        (plot_file, "--plot"),
        (per_gpu_file, "--per-gpu"),
    ):
        _check_output(path, option)
    if plot_file is not None and importlib.util.find_spec("matplotlib") is None:
        raise InputError(
            "--plot needs matplotlib: install kubesched-gpushare[plot]", file=str(plot_file)
        )
    experiment = None
    if data is not None:
        experiment = Experiment(data, pods, nodes, policies, seeds, tune, ties, until)
    document, results = _document(data, merge, experiment)
    stage("writing the outputs")
    if json_file is not None:
        text = json.dumps(document, indent=1)
        _write_whole(json_file, lambda path: path.write_text(text))
    if csv_file is not None:
        _write_whole(csv_file, lambda path: write_csv(path, document["runs"]))
    if plot_file is not None:
        _write_whole(plot_file, lambda path: plot(path, document["runs"], document["ties"]))
    if per_gpu_file is not None:
        text_per_gpu = json.dumps(per_gpu(results), indent=1)
        _write_whole(per_gpu_file, lambda path: path.write_text(text_per_gpu))
    if output == "table":
        click.echo(table(document["summary"], document["ties"]))
    elif output == "json":
        click.echo(json.dumps(document, indent=2))
    else:
        click.echo(yaml.safe_dump(document, sort_keys=False, allow_unicode=True), nl=False)
