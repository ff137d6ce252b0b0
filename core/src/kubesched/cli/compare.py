"""`kubesched compare A.yaml B.yaml [...] --on CLUSTER|SCENARIO`: the same input under
several configs and seeds, side by side.

Each config runs on every seed; the pods placed differently on the first seed are
explained (each config's view of the nodes the configs chose; on a scenario they
are listed only), the pods only some configs place are listed with the others'
reasons, and the metrics are shown with their spread over seeds (on a scenario:
the replay's). Bad input exits 2 with one line, writing nothing.
"""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path

import click
import yaml
from rich.console import Console

from kubesched.cli._compare_table import print_comparison
from kubesched.cli._json import dumps_indented
from kubesched.cli.output import API_VERSION, discovered_registry, stdout_console
from kubesched.errors import InputError
from kubesched.experiment import (
    ConfigSpec,
    cluster_input,
    compare,
    comparison_document,
    config_file,
)
from kubesched.experiment._grid import FieldProblem, parse_seed_list
from kubesched.experiment._inputs import InputSpec, is_scenario_file, scenario_input


def parse_seeds(text: str) -> list[int]:
    """`1,2,3` or a range `1-10` (or both, comma-separated): distinct seeds, in order."""
    try:
        return parse_seed_list(text, "--seeds")
    except FieldProblem as problem:
        raise click.BadParameter(problem.message, param_hint="--seeds") from None


def named_configs(paths: tuple[Path, ...]) -> list[ConfigSpec]:
    """The configs, named after their files (by path when two files share a name)."""
    stems = [p.stem for p in paths]
    unique = len(set(stems)) == len(stems)
    return [config_file(p, p.stem if unique else str(p)) for p in paths]


def _input(target: str, fmt: str | None, format_options: tuple[str, ...]) -> InputSpec:
    """A scenario when a format is named or `target` is a scenario file; else a cluster."""
    options = {}
    for option in format_options:
        key, equals, value = option.partition("=")
        if not equals or not key:
            raise click.BadParameter(f"{option!r} is not KEY=VALUE", param_hint="--format-option")
        options[key] = value
    if fmt is not None or is_scenario_file(target):
        return scenario_input(target, fmt or "scenario", options)
    if options:
        raise click.UsageError("--format-option needs --format (a scenario format)")
    return cluster_input(target)


def _check_writable(path: Path) -> None:
    parent = path.parent if str(path.parent) else Path(".")
    if path.is_dir() or not parent.is_dir() or not os.access(parent, os.W_OK):
        raise InputError("cannot write the plot here", file=str(path))


@click.command(name="compare")
@click.argument("configs", nargs=-1, required=True, type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--on",
    "target",
    required=True,
    type=click.Path(exists=True),
    help="What every config runs on: a cluster (a manifest file or a directory of them), "
    "or a scenario (a scenario file, or a trace in the --format given), replayed.",
)
@click.option(
    "--format",
    "fmt",
    metavar="NAME",
    help="--on is a trace in this scenario format (an installed kubesched.scenarios entry).",
)
@click.option(
    "--format-option",
    "format_options",
    multiple=True,
    metavar="KEY=VALUE",
    help="An option of the --format (repeatable).",
)
@click.option(
    "--seeds",
    default="0",
    show_default=True,
    help="Seeds of tie-breaking, comma-separated or a range (1,2,3 or 1-10); differences "
    "are explained on the first.",
)
@click.option(
    "--output",
    "-o",
    type=click.Choice(["table", "json", "yaml"]),
    default="table",
    show_default=True,
    help="Output format; json and yaml are a versioned, documented API.",
)
@click.option(
    "--plot",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Also draw the metrics to this image file (PNG, SVG, PDF; needs kubesched-core[plot]).",
)
def command(
    configs: tuple[Path, ...],
    target: str,
    fmt: str | None,
    format_options: tuple[str, ...],
    seeds: str,
    output: str,
    plot: Path | None,
) -> None:
    """Run each config (A.yaml B.yaml ...) on the same cluster or scenario and seeds; show the
    pods they place differently and why, the pods only some place, and the metrics."""
    if len(configs) < 2:
        raise click.UsageError("compare needs at least two configs")
    seed_list = parse_seeds(seeds)
    if plot is not None:
        _check_writable(plot)
    specs = named_configs(configs)
    target_input = _input(target, fmt, format_options)
    registry = discovered_registry()
    stderr = Console(stderr=True)
    spinner = stderr.status("comparing") if stderr.is_terminal else None
    with spinner or contextlib.nullcontext():

        def progress(name: str, seed: int) -> None:
            if spinner is not None:
                spinner.update(f"running {name} with seed {seed}")

        comparison = compare(specs, target_input, seed_list, registry, progress)
    if plot is not None:
        from kubesched.experiment._plot import plot_comparison

        plot_comparison(comparison, plot)
    if output == "table":
        print_comparison(stdout_console(), comparison)
        return
    document = {"apiVersion": API_VERSION, **comparison_document(comparison)}
    if output == "json":
        click.echo(dumps_indented(document))
    else:
        sys.stdout.write(yaml.safe_dump(document, sort_keys=False, allow_unicode=True))
