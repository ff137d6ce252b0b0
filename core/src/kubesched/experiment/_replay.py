"""Scenario inputs: read with their format, replayed by `kubesched.replay` under a config
and a seed, summarised as flat metrics (a sweep's columns, a comparison's metrics).

The metrics of one replay, in this order:

- the run's totals: `events`, `simulated_seconds`, the cumulative counters
  (`created`, `bound`, `finished`, `deleted`, `attempts`, `preemptions`,
  `evictions`, `dropped`) and scheduling latency over all bound pods
  (`latency_p50`, `latency_p90`, `latency_p99`; empty when no pod was bound);
- the series: `pending_at_end` and `running_at_end` (the last sample), and per
  resource R `utilisation_mean.R` (the mean over samples of what bound pods hold
  over allocatable) and `utilisation_end.R`;
- `state.S`: pods of the log whose life ended in state S (`Running`, `Pending`, ...);
- `observer.NAME.KEY`: each value of each observer's `summary()`.
"""

from __future__ import annotations

import math

from kubesched import replay as api
from kubesched.errors import InputError
from kubesched.experiment._grid import DEFAULT_FORMAT, REPLAY_FIELDS
from kubesched.experiment._inputs import InputSpec, for_seed
from kubesched.framework import Registry
from kubesched.profile import Loaded
from kubesched.scenario.result import ReplayResult

Metrics = dict[str, int | float | str | None]


def read_scenario_input(spec: InputSpec) -> api.Scenario:
    """The scenario of an input, read by its format; InputError (or ScenarioError) otherwise."""
    if spec.format == DEFAULT_FORMAT and not spec.options:
        return api.load_scenario(spec.path)
    reader = getattr(api, "read_scenario", None)
    if reader is None:
        raise InputError(
            f"format {spec.format!r}: this installation reads scenario files only",
            file=spec.path,
        )
    scenario: api.Scenario = reader(spec.path, spec.format, spec.options)
    return scenario


def replay_options(spec: InputSpec) -> api.ReplayOptions:
    """The input's `replay` settings as ReplayOptions; InputError naming the field otherwise."""
    values = {REPLAY_FIELDS[key]: value for key, value in spec.replay.items()}
    try:
        return api.ReplayOptions(**values)
    except (TypeError, ValueError) as exc:
        raise InputError(f"replay options {spec.replay}: {exc}", file=spec.path) from None


def run_replay(loaded: Loaded, registry: Registry, spec: InputSpec, seed: int) -> ReplayResult:
    """One replay of the input (its `{seed}` options given `seed`) under the loaded config."""
    cfg, profiles = loaded
    engine = api.Engine(
        read_scenario_input(for_seed(spec, seed)),
        cfg,
        registry,
        profiles=profiles,
        seed=seed,
        options=replay_options(spec),
    )
    return engine.run()


def replay_metrics(result: ReplayResult) -> Metrics:
    """The flat metrics of one replay; see the module docstring."""
    totals = result.totals
    counters = totals.counters
    metrics: Metrics = {
        "events": totals.events,
        "simulated_seconds": totals.simulated_seconds,
    }
    for name in ("created", "bound", "finished", "deleted", "attempts"):
        metrics[name] = getattr(counters, name)
    for name in ("preemptions", "evictions", "dropped"):
        metrics[name] = getattr(counters, name)
    metrics["latency_p50"] = totals.latency_p50
    metrics["latency_p90"] = totals.latency_p90
    metrics["latency_p99"] = totals.latency_p99
    series = list(result.series)
    last = series[-1] if series else None
    metrics["pending_at_end"] = last.pending if last is not None else 0
    metrics["running_at_end"] = last.running if last is not None else 0
    resources = sorted({name for sample in series for name in sample.resources})
    for resource in resources:
        held = [s.resources[resource].allocation for s in series if resource in s.resources]
        metrics[f"utilisation_mean.{resource}"] = math.fsum(held) / len(held)
    for resource in resources:
        use = last.resources.get(resource) if last is not None else None
        metrics[f"utilisation_end.{resource}"] = use.allocation if use is not None else 0.0
    if result.pods:
        for state, count in result.states().items():
            metrics[f"state.{state}"] = count
    for observer, summary in sorted(result.observers.items()):
        for key, value in summary.items():
            metrics[f"observer.{observer}.{key}"] = value
    return metrics
