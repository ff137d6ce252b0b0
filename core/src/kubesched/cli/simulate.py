"""`kubesched simulate CLUSTER`: where every pending pod goes, and why.

CLUSTER is a manifest file, a directory of them, or `-` (standard input):
nodes, pods (those with `spec.nodeName` are running, the others pending),
PodDisruptionBudgets and PriorityClasses. The pending pods are scheduled with
the profiles of `--config` (or the defaults) on a simulated clock, and the
result printed as a table or as a versioned JSON/YAML document. Bad input (a
manifest or a config that does not load) exits 2 with one line, writing nothing.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
import yaml
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from kubesched.api._manifests import load_manifests
from kubesched.cli.output import API_VERSION
from kubesched.cluster.memory import InMemoryCluster
from kubesched.errors import InputError
from kubesched.framework import default_registry
from kubesched.profile import build_simulation, load_profiles
from kubesched.scheduler.metrics import SchedulerMetrics
from kubesched.scheduler.outcome import PodOutcome
from kubesched.scheduler.report import result_document
from kubesched.scheduler.simulation import DEFAULT_MAX_ATTEMPTS, SimulationResult
from kubesched.scheduler.watchdog import DEFAULT_CYCLE_TIMEOUT

PROGRESS_AFTER_SECONDS = 2.0
"""A progress bar appears (on a terminal) once a simulation has run this long."""
STATUS_STYLES = {
    "Scheduled": "green",
    "Unschedulable": "yellow",
    "Error": "red",
    "Preempted": "magenta",
    "Deleted": "magenta",
}


class _ProgressBar:
    """A rich progress bar on stderr, shown only on a terminal and only for long runs."""

    def __init__(self, console: Console) -> None:
        self._console = console
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
                TimeElapsedColumn(),
                console=self._console,
                transient=True,
            )
            self._progress.start()
            self._task = self._progress.add_task("pods", total=pending)
        self._progress.update(self._task, completed=decided, total=pending)

    def close(self) -> None:
        if self._progress is not None:
            self._progress.stop()


def check_writable(path: Path) -> None:
    """Fail before a run, not after it, when an output file cannot be written."""
    parent = path.parent if str(path.parent) else Path(".")
    if path.is_dir():
        problem = "it is a directory"
    elif not parent.is_dir():
        problem = "its directory does not exist"
    elif not os.access(path if path.exists() else parent, os.W_OK):
        problem = "permission denied"
    else:
        return
    raise InputError(f"cannot write the metrics file: {problem}", file=str(path))


def _node_or_reason(outcome: PodOutcome) -> str:
    if outcome.node is not None:
        return outcome.node
    return outcome.message


def _print_table(console: Console, result: SimulationResult, explain: bool) -> None:
    pods = Table(title="Pending pods, in scheduling order", title_justify="left")
    pods.add_column("#", justify="right")
    pods.add_column("Pod")
    pods.add_column("Status")
    pods.add_column("Node or reason", overflow="fold")
    pods.add_column("Attempts", justify="right")
    for i, outcome in enumerate(result.outcomes, 1):
        style = STATUS_STYLES.get(outcome.status, "")
        extra = ""
        if outcome.nominated_node and outcome.node is None:
            extra = f" (nominated to {outcome.nominated_node})"
        if outcome.victims:
            extra += f" (preempted {', '.join(outcome.victims)})"
        if outcome.stopped:
            extra += f" (not retried: {outcome.stopped})"
        pods.add_row(
            str(i),
            Text(outcome.pod),
            Text(outcome.status, style=style),
            Text(_node_or_reason(outcome) + extra),
            str(outcome.attempts),
        )
    console.print(pods)
    if explain:
        for outcome in result.outcomes:
            _print_explanation(console, outcome)
    s = result.summary
    counts = (
        f"Scheduled: {s.scheduled}   Unschedulable: {s.unschedulable}   Errors: {s.errors}   "
        + (f"Preempted: {s.preempted}   " if s.preempted else "")
        + f"Pods for other schedulers (left alone): {s.other_schedulers}"
    )
    console.print(counts, markup=False, highlight=False)
    nodes = Table(title="Nodes", title_justify="left")
    for column in ("Node", "CPU requested", "Memory requested", "Pods"):
        nodes.add_column(column, justify="left" if column == "Node" else "right")
    for u in s.nodes:
        nodes.add_row(
            Text(u.name),
            _share(u.cpu_requested, u.cpu_allocatable, _cores),
            _share(u.memory_requested, u.memory_allocatable, _memory),
            f"{u.pods}/{u.pods_allowed}",
        )
    console.print(nodes)


def _cores(millicores: int) -> str:
    return f"{millicores / 1000:g}"


def _memory(amount: int) -> str:
    """Bytes in the largest binary unit that keeps a readable number (one decimal at most)."""
    for unit, size in (("Gi", 2**30), ("Mi", 2**20), ("Ki", 2**10)):
        if amount >= size:
            return f"{round(amount / size, 1):g}{unit}"
    return str(amount)


def _share(used: int, total: int, show: Callable[[int], str]) -> str:
    percent = f" ({100 * used // total}%)" if total else ""
    return f"{show(used)}/{show(total)}{percent}"


def _print_explanation(console: Console, outcome: PodOutcome) -> None:
    table = Table(title=Text(f"{outcome.pod}: last attempt"), title_justify="left")
    table.add_column("Node")
    table.add_column("Filter", overflow="fold")
    plugins = sorted({p for n in (outcome.nodes or {}).values() for p in n.scores})
    for plugin in plugins:
        table.add_column(plugin, justify="right")
    table.add_column("Total", justify="right")
    for name, node in (outcome.nodes or {}).items():
        verdict = "passed"
        if node.filter is not None:
            verdict = f"{node.filter.plugin}: {node.filter.message()}"
        scores = [str(node.scores[p][1]) if p in node.scores else "" for p in plugins]
        total = "" if node.total is None else str(node.total)
        table.add_row(Text(name), Text(verdict), *scores, total)
    console.print(table)


@click.command(name="simulate")
@click.argument("cluster", type=click.Path(allow_dash=True))
@click.option(
    "--config",
    type=click.Path(dir_okay=False, path_type=Path),
    help="A KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1); default profiles "
    "without it.",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of tie-breaking.")
@click.option(
    "--output",
    "-o",
    type=click.Choice(["table", "json", "yaml"]),
    default="table",
    show_default=True,
    help="Output format.",
)
@click.option("--explain", is_flag=True, help="Also show every node's Filter and Score results.")
@click.option(
    "--metrics",
    "metrics_file",
    type=click.Path(path_type=Path),
    help="Write the scheduler's metrics to this file (Prometheus text format).",
)
@click.option(
    "--cycle-timeout",
    type=click.FloatRange(min=0),
    default=DEFAULT_CYCLE_TIMEOUT,
    show_default=True,
    help="Wall-clock seconds a scheduling or binding cycle may take before the plugin "
    "running it fails that pod's cycle with an Error; 0 for no limit.",
)
@click.option(
    "--max-attempts",
    type=click.IntRange(min=1),
    default=DEFAULT_MAX_ATTEMPTS,
    show_default=True,
    help="Scheduling attempts per pod after which the simulation stops retrying it "
    "(kube-scheduler would retry a failing pod forever); its result says so.",
)
def command(
    cluster: str,
    config: Path | None,
    seed: int,
    output: str,
    explain: bool,
    metrics_file: Path | None,
    cycle_timeout: float,
    max_attempts: int,
) -> None:
    """Schedule the pending pods of CLUSTER (a file, a directory or -) and show the result."""
    if metrics_file is not None:
        check_writable(metrics_file)
    registry = default_registry()
    cfg, profiles = load_profiles(config, registry)  # ConfigError: exit 1, every problem
    objects = load_manifests(cluster)
    try:
        memory = InMemoryCluster(
            nodes=objects.nodes,
            pods=objects.pods,
            pod_disruption_budgets=objects.pod_disruption_budgets,
            priority_classes=objects.priority_classes,
            namespaces=objects.namespaces,
        )
    except InputError as exc:
        raise InputError(
            exc.message, file=exc.file or cluster, obj=exc.obj, field=exc.field
        ) from None
    metrics = SchedulerMetrics()
    simulation = build_simulation(
        cfg,
        registry,
        memory,
        profiles=profiles,
        seed=seed,
        explain=explain,
        metrics=metrics,
        cycle_timeout=cycle_timeout or None,
        max_attempts=max_attempts,
    )
    stderr = Console(stderr=True)
    for warning in objects.warnings:
        stderr.print(f"warning: {warning}", markup=False, highlight=False)
    bar = _ProgressBar(stderr)
    try:
        result = simulation.run(bar)
    finally:
        bar.close()
    if metrics_file is not None:
        simulation.scheduler.refresh_gauges()
        metrics_file.write_bytes(metrics.exposition())
    if output == "table":
        _print_table(Console(), result, explain)
        return
    document = {"apiVersion": API_VERSION, **result_document(result, explain)}
    if output == "json":
        click.echo(json.dumps(document, indent=2))
    else:
        sys.stdout.write(yaml.safe_dump(document, sort_keys=False, allow_unicode=True))
