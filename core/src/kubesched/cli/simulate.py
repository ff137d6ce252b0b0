"""`kubesched simulate CLUSTER`: where every pending pod goes, and why.

CLUSTER is a manifest file, a directory of them, or `-` (standard input); or,
with `--kubeconfig` instead, a live cluster read once, read-only, with the
list code of `kubesched run`:
nodes, pods (those with `spec.nodeName` are running, the others pending),
PodDisruptionBudgets, PriorityClasses, and the Services and controllers that
select pods. The pending pods are scheduled with
the profiles of `--config` (or the defaults) on a simulated clock, and the
result printed as a table or as a versioned JSON/YAML document. Bad input (a
manifest or a config that does not load) exits 2 with one line, writing nothing.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import click
import yaml
from rich.console import Console

from kubesched.api._manifests import ClusterObjects, load_manifests
from kubesched.cli._explain_nodes import SUMMARY, explain_nodes
from kubesched.cli._feature_gates import feature_gates_option
from kubesched.cli._interrupt import progress, stage, write_atomically
from kubesched.cli._json import dumps_indented, write_indented
from kubesched.cli._options import cycle_timeout_option, seed_option
from kubesched.cli._progress import ProgressBar, loading
from kubesched.cli._selection import (
    NODE_CHOICES,
    NODES_SHOWN,
    Selection,
    nodes_to_show,
    parse_label_selector,
)
from kubesched.cli._simulate_table import print_result
from kubesched.cli.output import API_VERSION, discovered_registry, stdout_console
from kubesched.cluster.memory import InMemoryCluster
from kubesched.errors import InputError
from kubesched.features import FeatureGates
from kubesched.profile import (
    build_simulation,
    effective_document,
    load_profiles,
    unchecked_features,
)
from kubesched.report import ensure_available, render_html, write_html
from kubesched.scheduler.metrics import SchedulerMetrics
from kubesched.scheduler.outcome import PodOutcome
from kubesched.scheduler.report import (
    KIND,
    SIMULATION_API_VERSION,
    outcome_document,
    result_document,
    summary_document,
)
from kubesched.scheduler.simulation import DEFAULT_MAX_ATTEMPTS
from kubesched.scheduler.watchdog import DEFAULT_CYCLE_TIMEOUT


def check_writable(path: Path, what: str = "the metrics file") -> None:
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
    raise InputError(f"cannot write {what}: {problem}", file=str(path))


def _selection(
    namespace: str | None,
    selector: str,
    only_failed: bool,
    explain: bool,
    explain_pods: tuple[str, ...],
    nodes: str = NODES_SHOWN,
) -> Selection:
    return Selection(
        namespace=namespace,
        selector=parse_label_selector(selector),
        only_failed=only_failed,
        explain_all=explain,
        explain_pods=frozenset(p if "/" in p else f"default/{p}" for p in explain_pods),
        nodes=nodes,
    )


def _read(cluster: str, feature_gates: FeatureGates, stderr: Console) -> ClusterObjects:
    """The objects of a manifest file, a directory or standard input."""
    reading = f"reading {'standard input' if cluster == '-' else cluster}"
    stage(reading)
    with loading(stderr, reading) as watch:
        return load_manifests(cluster, feature_gates=feature_gates, progress=watch)


@click.command(name="simulate")
@click.argument("cluster", type=click.Path(allow_dash=True), required=False)
@click.option(
    "--kubeconfig",
    type=click.Path(dir_okay=False),
    help="Read the pods, nodes and the rest from this live cluster instead of CLUSTER "
    "(list only, nothing is written; the kinds and credentials of kubesched run).",
)
@click.option("--context", help="With --kubeconfig: this context instead of the current one.")
@click.option(
    "--config",
    type=click.Path(dir_okay=False, allow_dash=True, path_type=Path),
    help="A KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1), or - for standard "
    "input; default profiles without it.",
)
@seed_option()
@click.option(
    "--output",
    "-o",
    type=click.Choice(["table", "wide", "json", "yaml"]),
    default="table",
    show_default=True,
    help="Output format; wide is the table with each pod's profile.",
)
@click.option(
    "--namespace", "-n", help="Show only the pods of this namespace (all are still scheduled)."
)
@click.option(
    "--selector",
    "-l",
    default="",
    help="Show only the pods whose labels match this selector (kubectl's syntax: a=b, a!=b, "
    "a in (x,y), a notin (x), a, !a; comma-separated).",
)
@click.option("--only-failed", is_flag=True, help="Show only the pods that were not scheduled.")
@click.option(
    "--nodes",
    "nodes",
    type=click.Choice(NODE_CHOICES),
    default=NODES_SHOWN,
    show_default=True,
    help="The node table: the nodes the pods shown went to, were nominated to or had victims "
    "on (every node when -n, -l and --only-failed leave no pod out), every node, or none.",
)
@click.option(
    "--explain",
    is_flag=True,
    help="Also show each pod's effective request and its nodes' Filter and Score results "
    "and free amounts (see --explain-nodes).",
)
@click.option(
    "--explain-pod",
    "explain_pods",
    multiple=True,
    metavar="NAMESPACE/NAME",
    help="Explain only this pod (repeatable); a name without a namespace is in default.",
)
@click.option(
    "--explain-nodes",
    callback=explain_nodes,
    default=SUMMARY,
    show_default=True,
    metavar="summary|all|N",
    help="The nodes an explanation shows: the chosen node and the 3 best-scored ones "
    "(summary) or the N best-scored ones, the others counted in groups by verdict with a "
    "few names each; or every node (all).",
)
@click.option(
    "--metrics",
    "metrics_file",
    type=click.Path(path_type=Path),
    help="Write the scheduler's metrics to this file (Prometheus text format).",
)
@cycle_timeout_option(
    DEFAULT_CYCLE_TIMEOUT,
    "Wall-clock seconds a scheduling or binding cycle may take before the plugin "
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
@click.option(
    "--html",
    "html_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Also write the result as one self-contained HTML report to this file (needs the "
    "report extra); add --explain for each pod's per-node explanation in it.",
)
@feature_gates_option
def command(
    cluster: str | None,
    kubeconfig: str | None,
    context: str | None,
    config: Path | None,
    seed: int,
    output: str,
    namespace: str | None,
    selector: str,
    only_failed: bool,
    nodes: str,
    explain: bool,
    explain_pods: tuple[str, ...],
    explain_nodes: int | None,
    metrics_file: Path | None,
    cycle_timeout: float,
    max_attempts: int,
    html_file: Path | None,
    feature_gates: FeatureGates,
) -> None:
    """Schedule the pending pods of CLUSTER (a file, a directory or -), or of the live cluster
    of --kubeconfig, and show the result."""
    if (cluster is None) == (kubeconfig is None):
        raise click.UsageError("give either CLUSTER or --kubeconfig (a live cluster), not both")
    if context is not None and kubeconfig is None:
        raise click.UsageError("--context goes with --kubeconfig")
    if cluster == "-" and str(config) == "-":
        raise click.UsageError("CLUSTER and --config cannot both be standard input (-)")
    selection = _selection(namespace, selector, only_failed, explain, explain_pods, nodes)
    if metrics_file is not None:
        check_writable(metrics_file)
    if html_file is not None:
        ensure_available()
        check_writable(html_file, "the HTML report")
    registry = discovered_registry()
    cfg, profiles = load_profiles(config, registry)  # ConfigError: exit 1, every problem
    stderr = Console(stderr=True)
    if kubeconfig is not None:
        from kubesched.cli._live import read_live_cluster

        stage(f"listing the cluster of {kubeconfig}")
        objects, cluster = read_live_cluster(kubeconfig, context)
    else:
        assert cluster is not None
        objects = _read(cluster, feature_gates, stderr)
    try:
        memory = InMemoryCluster.of(objects)
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
        explain=selection.explains,
        explain_nodes=explain_nodes,
        metrics=metrics,
        cycle_timeout=cycle_timeout or None,
        max_attempts=max_attempts,
        feature_gates=feature_gates,
    )
    by_name = {p.scheduler_name: p for p in profiles}
    warnings = [*objects.warnings, *unchecked_features(objects.pods, by_name)]
    if not objects.nodes:
        source = "<stdin>" if cluster == "-" else cluster
        warnings.append(f"{source}: no nodes: every pending pod is unschedulable")
    for warning in warnings:
        click.echo(f"warning: {warning}", err=True)
    bar = ProgressBar(stderr, lambda: simulation.cycles)

    def report(decided: int, pending: int) -> None:
        progress(decided, pending)
        bar(decided, pending)

    stage("scheduling")
    progress(0, sum(1 for pod in objects.pods if not pod.spec.node_name))
    try:
        result = simulation.run(report)
    finally:
        bar.close()
    stage("writing the output")
    if metrics_file is not None:
        simulation.scheduler.refresh_gauges()
        write_atomically(metrics_file, metrics.exposition())
    pods = {pod.key: pod for pod in objects.pods}
    shown = selection.shown(result.outcomes, pods)
    for key in sorted(selection.explain_pods - {o.pod for o in result.outcomes}):
        warning = f"--explain-pod {key}: no pending pod of a profile here has that name"
        click.echo(f"warning: {warning}", err=True)
        warnings.append(warning)
    if output == "json" and html_file is None:  # written one pod's result at a time
        head = {"apiVersion": SIMULATION_API_VERSION, "kind": KIND}
        tail = {
            "summary": summary_document(result.summary, result.simulated_seconds),
            "warnings": warnings,
        }
        write_indented(sys.stdout.write, head, "results", _released(shown, selection), tail)
        return
    document = {
        "apiVersion": SIMULATION_API_VERSION,
        **result_document(result, selection.explained, shown),
        "warnings": warnings,
    }
    if html_file is not None:
        configuration = {"apiVersion": API_VERSION, **effective_document(cfg, profiles, registry)}
        write_html(html_file, render_html(document, configuration=configuration))
    if output in ("table", "wide"):
        names = [u.name for u in result.summary.nodes]
        rows = nodes_to_show(selection, names, shown, result.outcomes, pods)
        table = stdout_console()
        print_result(table, result, shown, selection.explained, wide=output == "wide", nodes=rows)
    elif output == "json":
        click.echo(dumps_indented(document))
    else:
        sys.stdout.write(yaml.safe_dump(document, sort_keys=False, allow_unicode=True))


def _released(outcomes: Iterable[PodOutcome], selection: Selection) -> Iterator[dict[str, Any]]:
    """Each outcome's document; its explanation is let go once written."""
    for outcome in outcomes:
        yield outcome_document(outcome, selection.explained(outcome))
        outcome.nodes = outcome.not_shown = None
