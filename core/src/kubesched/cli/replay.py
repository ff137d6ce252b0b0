"""`kubesched replay SCENARIO`: a scenario's events through the scheduler on a simulated clock.

SCENARIO is a scenario file (YAML or JSON, `kind: Scenario`), or a trace in a format
an installed distribution adds (`--format`, entry-point group `kubesched.scenarios`).
The result is printed as a summary table or as a versioned `ReplayResult` document;
`--series` and `--pods` write the sampled series and the per-pod log as tables (CSV or
Parquet), `--plot` draws the series. Bad input (a scenario or a
config that does not load, an output that cannot be written) exits 2 with one line,
writing nothing.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import click
import yaml
from rich.console import Console
from rich.table import Table

from kubesched.cli._feature_gates import feature_gates_option
from kubesched.cli._json import dumps_indented
from kubesched.cli._options import cycle_timeout_option, output_option, seed_option
from kubesched.cli._progress import SimulatedTimeBar, format_seconds, loading
from kubesched.cli.output import discovered_registry, stdout_console
from kubesched.cli.simulate import check_writable
from kubesched.config.duration import parse_duration
from kubesched.errors import InputError
from kubesched.features import FeatureGates
from kubesched.profile import load_profiles
from kubesched.report import ensure_available, render_html, write_html
from kubesched.scenario import (
    DEFAULT_FORMAT,
    TABLE_SUFFIXES,
    Engine,
    ReplayOptions,
    ReplayResult,
    load_scenario,
    read_scenario,
    write_plot,
    write_table,
)
from kubesched.scheduler.ties import TIE_RULES, TIES_RANDOM
from kubesched.scheduler.watchdog import DEFAULT_CYCLE_TIMEOUT

EXTRAS = {"pyarrow": "parquet", "matplotlib": "plot"}
"""The module an output needs -> the kubesched-core extra that installs it."""


def _needs(module: str, option: str, path: Path) -> None:
    if importlib.util.find_spec(module) is None:
        extra = EXTRAS[module]
        raise InputError(
            f"{option} needs {module}: pip install 'kubesched-core[{extra}]'", file=str(path)
        )


def _format_options(
    ctx: click.Context, param: click.Parameter, values: tuple[str, ...]
) -> dict[str, str]:
    options = {}
    for value in values:
        key, sep, text = value.partition("=")
        if not sep or not key:
            raise click.BadParameter(f"{value!r} is not KEY=VALUE")
        options[key] = text
    return options


def _seconds(ctx: click.Context, param: click.Parameter, value: str) -> float:
    try:
        seconds = float(value)
    except ValueError:
        try:
            seconds = parse_duration(value).total_seconds()
        except ValueError:
            raise click.BadParameter(f"{value!r} is not a duration (60s, 5m, 1h)") from None
    if seconds < 0 or (param.name == "sample_interval" and seconds == 0):
        raise click.BadParameter(f"{value!r} must be {'> 0' if seconds == 0 else '>= 0'}")
    return seconds


def _table_path(path: Path | None, option: str) -> None:
    if path is None:
        return
    if path.suffix not in TABLE_SUFFIXES:
        raise InputError(
            f"{option}: a table is written as {' or '.join(TABLE_SUFFIXES)}", file=str(path)
        )
    if path.suffix == ".parquet":
        _needs("pyarrow", option, path)
    check_writable(path)


def _plot_path(path: Path | None) -> None:
    if path is None:
        return
    if path.suffix != ".png":
        raise InputError("--plot: the plot is written as .png", file=str(path))
    _needs("matplotlib", "--plot", path)
    check_writable(path)


@click.command(name="replay")
@click.argument("scenario", type=click.Path(path_type=Path))
@click.option(
    "--format",
    "format_name",
    default=DEFAULT_FORMAT,
    show_default=True,
    help="The format of SCENARIO: scenario (a scenario file), or a trace format an "
    "installed distribution adds (entry-point group kubesched.scenarios).",
)
@click.option(
    "--format-option",
    "format_options",
    multiple=True,
    metavar="KEY=VALUE",
    callback=_format_options,
    help="An option of the trace format (repeatable).",
)
@click.option(
    "--config",
    type=click.Path(dir_okay=False, path_type=Path),
    help="A KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1); default profiles "
    "without it.",
)
@seed_option()
@click.option(
    "--ties",
    type=click.Choice(TIE_RULES),
    default=TIES_RANDOM,
    show_default=True,
    help="How a tie between the best nodes is broken: random (upstream's) or first (the "
    "first tied node of a seeded random order of node names).",
)
@click.option(
    "--sample-interval",
    default="60s",
    show_default=True,
    callback=_seconds,
    help="Simulated time between two samples of the series (seconds or 30s, 5m, 1h).",
)
@click.option(
    "--bind-latency",
    default="0s",
    show_default=True,
    callback=_seconds,
    help="Simulated time a binding takes before the pod runs.",
)
@click.option(
    "--drop-unschedulable",
    is_flag=True,
    help="Delete a pod whose first attempt fails instead of retrying it.",
)
@output_option()
@click.option(
    "--series",
    "series_file",
    type=click.Path(path_type=Path),
    help="Write the sampled series to this file (.csv or .parquet).",
)
@click.option(
    "--pods",
    "pods_file",
    type=click.Path(path_type=Path),
    help="Write the per-pod log to this file (.csv or .parquet).",
)
@click.option(
    "--plot",
    "plot_file",
    type=click.Path(path_type=Path),
    help="Draw the series to this file (.png; needs matplotlib).",
)
@click.option(
    "--until",
    default=None,
    callback=lambda ctx, param, value: None if value is None else _seconds(ctx, param, value),
    help="Stop at this simulated time (seconds or 6h, 1d is 24h); default: when nothing "
    "can change any more.",
)
@cycle_timeout_option(
    DEFAULT_CYCLE_TIMEOUT,
    "Wall-clock seconds a scheduling or binding cycle may take; 0 for no limit.",
)
@click.option(
    "--html",
    "html_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Also write the result as one self-contained HTML report (charts of the series, "
    "the pods' timeline) to this file; needs the report extra.",
)
@feature_gates_option
def command(
    scenario: Path,
    format_name: str,
    format_options: dict[str, str],
    config: Path | None,
    seed: int,
    ties: str,
    sample_interval: float,
    bind_latency: float,
    drop_unschedulable: bool,
    output: str,
    series_file: Path | None,
    pods_file: Path | None,
    plot_file: Path | None,
    until: float | None,
    cycle_timeout: float,
    html_file: Path | None,
    feature_gates: FeatureGates,
) -> None:
    """Replay SCENARIO's events on a simulated clock and show what the scheduler did."""
    _table_path(series_file, "--series")
    _table_path(pods_file, "--pods")
    _plot_path(plot_file)
    if html_file is not None:
        ensure_available()
        check_writable(html_file, "the HTML report")
    registry = discovered_registry()
    cfg, profiles = load_profiles(config, registry)  # ConfigError: exit 1, every problem
    stderr = Console(stderr=True)
    with loading(stderr, f"reading {scenario}"):
        if format_name == DEFAULT_FORMAT and not format_options:
            loaded = load_scenario(scenario, feature_gates=feature_gates)
        else:
            loaded = read_scenario(scenario, format_name, format_options)
    for warning in loaded.cluster.warnings:
        click.echo(f"warning: {warning}", err=True)
    events = loaded.events()
    horizon = events[-1].at if isinstance(events, tuple | list) and events else None
    if until is not None:
        horizon = until if horizon is None else min(horizon, until)
    options = ReplayOptions(
        ties=ties,
        drop_unschedulable=drop_unschedulable,
        sample_interval=sample_interval,
        bind_latency=bind_latency,
        cycle_timeout=cycle_timeout or None,
        feature_gates=feature_gates,
        until=until,
    )
    engine = Engine(loaded, cfg, registry, profiles=profiles, seed=seed, options=options)
    bar = SimulatedTimeBar(stderr, horizon)
    try:
        result = engine.run(bar)
    finally:
        bar.close()
    if series_file is not None:
        write_table(result.series_rows(), series_file)
    if pods_file is not None:
        write_table(result.pod_rows(), pods_file)
    if plot_file is not None:
        write_plot(result, plot_file)
    if html_file is not None:
        write_html(html_file, render_html(result.to_document()))
    if output == "table":
        _print_table(stdout_console(), result)
    elif output == "json":
        click.echo(dumps_indented(result.to_document()))
    else:
        document = result.to_document()
        sys.stdout.write(yaml.safe_dump(document, sort_keys=False, allow_unicode=True))


def _latency(value: float | None) -> str:
    return "-" if value is None else f"{value:g}s"


def _print_table(console: Console, result: ReplayResult) -> None:
    totals = result.totals
    c = totals.counters
    console.print(
        f"Simulated: {format_seconds(totals.simulated_seconds)}   Events: {totals.events}   "
        f"Attempts: {c.attempts}",
        markup=False,
        highlight=False,
    )
    console.print("Pods", markup=False, highlight=False)
    pods = Table()
    for name in ("Created", "Bound", "Finished", "Deleted", "Preempted", "Evicted", "Dropped"):
        pods.add_column(name, justify="right")
    pods.add_row(
        *(
            str(v)
            for v in (
                c.created,
                c.bound,
                c.finished,
                c.deleted,
                c.preemptions,
                c.evictions,
                c.dropped,
            )
        )
    )
    console.print(pods)
    console.print(
        "Scheduling latency (creation to bound): "
        f"p50 {_latency(totals.latency_p50)}   p90 {_latency(totals.latency_p90)}   "
        f"p99 {_latency(totals.latency_p99)}",
        markup=False,
        highlight=False,
    )
    if result.series:
        last = result.series[-1]
        console.print(f"At the end ({format_seconds(last.at)})", markup=False, highlight=False)
        end = Table()
        for name in ("Resource", "Allocated", "Requested", "Allocatable", "Allocation"):
            end.add_column(name, justify="left" if name == "Resource" else "right")
        for name, use in sorted(last.resources.items()):
            end.add_row(
                name,
                str(use.allocated),
                str(use.requested),
                str(use.allocatable),
                f"{use.allocation:.1%}",
            )
        console.print(end)
        waiting = {reason: n for reason, n in last.pending_by_reason.items() if n}
        if waiting:
            console.print("Pending at the end", markup=False, highlight=False)
            pending = Table()
            pending.add_column("Reason")
            pending.add_column("Pods", justify="right")
            for reason, count in waiting.items():
                pending.add_row(reason, str(count))
            console.print(pending)
