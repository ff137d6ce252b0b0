"""One cell, run: a pure function of (config, input, seed) to one row of the table.

The row's metric columns depend only on the cell; its provenance columns say what
ran it (versions, runner) and how long it took (wall and CPU seconds). A cell that
fails is a row whose `status` is `error` and whose `error` says why; the sweep goes on.
"""

from __future__ import annotations

import json
import time
from typing import Any

from kubesched import __version__
from kubesched.errors import ConfigError
from kubesched.experiment._cells import Cell
from kubesched.experiment._inputs import CLUSTER, SCENARIO, cluster_objects
from kubesched.experiment._metrics import run_metrics
from kubesched.experiment._simulate import simulate
from kubesched.framework import Registry, default_registry
from kubesched.profile import Loaded

OK = "ok"
ERROR = "error"

IDENTITY = ("config", "config_hash", "input", "input_kind", "input_hash", "seed")
"""The columns that say which cell a row is."""
OUTCOME = (
    "status",
    "error",
    "pods",
    "scheduled",
    "unschedulable",
    "errors",
    "preempted",
    "other_schedulers",
    "gated",
    "skipped",
    "unschedulable_reasons",
    "simulated_seconds",
    "cycles",
)
"""The columns every run has (empty in an error row but for status and error)."""
PROVENANCE = ("kubesched_version", "plugin_versions")
"""What computed the row: the same for the same installation."""
TIMING = ("runner", "wall_seconds", "cpu_seconds")
"""How and how fast the row was computed: these differ between runs of the same cell."""

_loaded: dict[str, Loaded] = {}


def _load(cell: Cell, registry: Registry) -> Loaded:
    """The cell's config, loaded once per process."""
    if cell.config_hash not in _loaded:
        _loaded[cell.config_hash] = cell.config.load(registry)
    return _loaded[cell.config_hash]


def plugin_versions(loaded: Loaded, registry: Registry) -> str:
    """The distributions (and versions) of the plugins the config enables, as JSON text."""
    found: dict[str, str] = {}
    for profile in loaded[1]:
        for name in profile.enabled():
            if name in registry:
                spec = registry.get(name)
                if spec.distribution:
                    found[spec.distribution] = spec.version or ""
    return json.dumps(dict(sorted(found.items())), separators=(",", ":"))


def _describe(exc: BaseException) -> str:
    if isinstance(exc, ConfigError):
        return f"ConfigError: {exc}"
    return f"{type(exc).__name__}: {exc}"


def _simulate_columns(cell: Cell, registry: Registry) -> dict[str, Any]:
    loaded = _load(cell, registry)
    metrics = run_metrics(
        simulate(loaded, registry, cluster_objects(cell.input, cell.input_hash), cell.seed)
    )
    columns: dict[str, Any] = {
        "pods": metrics.pods,
        "scheduled": metrics.scheduled,
        "unschedulable": metrics.unschedulable,
        "errors": metrics.errors,
        "preempted": metrics.preempted,
        "other_schedulers": metrics.other_schedulers,
        "gated": metrics.gated,
        "skipped": metrics.skipped,
        "unschedulable_reasons": json.dumps(
            metrics.unschedulable_by_reason, separators=(",", ":"), ensure_ascii=False
        ),
        "simulated_seconds": metrics.simulated_seconds,
        "cycles": metrics.cycles,
        "plugin_versions": plugin_versions(loaded, registry),
    }
    for resource, value in metrics.utilisation.items():
        columns[f"utilisation.{resource}"] = value
    for resource, value in metrics.fragmentation.items():
        columns[f"fragmentation.{resource}"] = value
    return columns


def _replay_columns(cell: Cell, registry: Registry) -> dict[str, Any]:
    from kubesched.experiment._replay import replay_metrics, run_replay

    loaded = _load(cell, registry)
    columns: dict[str, Any] = dict(
        replay_metrics(run_replay(loaded, registry, cell.input, cell.seed))
    )
    columns["plugin_versions"] = plugin_versions(loaded, registry)
    return columns


def _columns(cell: Cell) -> dict[str, Any]:
    registry = default_registry()
    if cell.input.kind == CLUSTER:
        return _simulate_columns(cell, registry)
    if cell.input.kind == SCENARIO:
        return _replay_columns(cell, registry)
    raise ValueError(f"inputs of kind {cell.input.kind!r} cannot run in this installation")


def run_cell(cell: Cell, runner: str) -> dict[str, Any]:
    """The row of one cell: identity, status and metrics, provenance, timing."""
    wall, cpu = time.perf_counter(), time.process_time()
    row: dict[str, Any] = {
        "config": cell.config.name,
        "config_hash": cell.config_hash,
        "input": cell.input.name,
        "input_kind": cell.input.kind,
        "input_hash": cell.input_hash,
        "seed": cell.seed,
        "status": OK,
        "error": "",
        "kubesched_version": __version__,
        "plugin_versions": "",
    }
    try:
        row.update(_columns(cell))
    except Exception as exc:  # a failing cell is a row, never the end of the sweep
        row["status"], row["error"] = ERROR, _describe(exc)
    row["runner"] = runner
    row["wall_seconds"] = time.perf_counter() - wall
    row["cpu_seconds"] = time.process_time() - cpu
    return row
