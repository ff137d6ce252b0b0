"""The composition root: a configuration and a cluster wired into a scheduler.

The CLI, `kubesched.testing` and the benchmarks all build their schedulers
here, so a configuration means the same thing wherever it is run.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from kubesched.api import Pod
from kubesched.cluster import InMemoryCluster, MemoryEventRecorder
from kubesched.config import KubeSchedulerConfiguration, apply_defaults, read_config, read_text
from kubesched.config.loader import source_name
from kubesched.errors import ConfigError
from kubesched.features import DEFAULT_FEATURE_GATES, FeatureGates
from kubesched.framework import Clock, EventRecorder, Registry
from kubesched.framework._profile import EffectiveProfile
from kubesched.profile._build import check_config, effective_profiles
from kubesched.profile._extenders import build_extenders, ignore_managed_resources
from kubesched.scheduler import (
    Scheduler,
    SchedulerMetrics,
    SchedulerSettings,
    SimulatedClock,
    Simulation,
)
from kubesched.scheduler.binder import ConcurrentBinder
from kubesched.scheduler.gated_source import gated_source
from kubesched.scheduler.simulation import DEFAULT_MAX_ATTEMPTS
from kubesched.scheduler.source import ClusterSource
from kubesched.scheduler.ties import TIES_RANDOM
from kubesched.scheduler.watchdog import DEFAULT_CYCLE_TIMEOUT

Loaded = tuple[KubeSchedulerConfiguration, list[EffectiveProfile]]
"""A configuration and the effective profiles built from it."""


def _profiles_of(cfg: KubeSchedulerConfiguration, registry: Registry, source: str | None) -> Loaded:
    """A configuration as written, defaulted and checked as a whole: every problem at once."""
    cfg, ignoring = ignore_managed_resources(apply_defaults(cfg, registry))
    cfg, profiles, errors = check_config(cfg, registry)
    errors = [*ignoring, *errors]
    if errors:
        raise ConfigError(errors, file=source)
    return cfg, profiles


def load_profiles(path: str | Path | None, registry: Registry) -> Loaded:
    """The configuration file at `path` (None: the defaults) and its effective profiles;
    ConfigError naming the file and listing every problem."""
    if path is None:
        return _profiles_of(KubeSchedulerConfiguration(), registry, None)
    return parse_profiles(read_text(path), registry, source=source_name(path))


def parse_profiles(text: str, registry: Registry, *, source: str | None = None) -> Loaded:
    """The configuration in `text` (YAML or JSON) and its effective profiles; ConfigError
    (naming `source`) listing every problem."""
    return _profiles_of(read_config(text, source=source), registry, source)


def scheduler_settings(cfg: KubeSchedulerConfiguration) -> SchedulerSettings:
    """The top-level settings of a configuration the scheduling loop uses."""
    return SchedulerSettings(
        percentage_of_nodes_to_score=cfg.percentage_of_nodes_to_score,
        pod_initial_backoff_seconds=float(cfg.pod_initial_backoff_seconds),
        pod_max_backoff_seconds=float(cfg.pod_max_backoff_seconds),
    )


def build_scheduler(
    cfg: KubeSchedulerConfiguration | None,
    registry: Registry,
    cluster: ClusterSource,
    *,
    clock: Clock,
    recorder: EventRecorder,
    profiles: Sequence[EffectiveProfile] | None = None,
    seed: int = 0,
    explain: bool | Callable[[Pod], bool] = False,
    explain_nodes: int | None = None,
    metrics: SchedulerMetrics | None = None,
    cycle_timeout: float | None = DEFAULT_CYCLE_TIMEOUT,
    simulated: bool = False,
    feature_gates: FeatureGates = DEFAULT_FEATURE_GATES,
    ties: str = TIES_RANDOM,
    binder: ConcurrentBinder[Any] | None = None,
) -> Scheduler:
    """A scheduler running `cfg`'s profiles (`profiles` when already built) and its extenders
    against `cluster`; ConfigError when the configuration cannot run. Without `cfg`,
    `profiles` run with the default top-level settings. `simulated`: the cluster is
    in-memory, so a binding an extender accepted is recorded in it by the scheduler.
    `ties`: `random` (upstream's) or `first` (`kubesched.scheduler.ties`)."""
    if profiles is None:
        if cfg is None:
            raise ValueError("build_scheduler needs a configuration or profiles")
        profiles = effective_profiles(cfg, registry)
    return Scheduler(
        profiles,
        registry,
        gated_source(cluster, feature_gates),
        clock=clock,
        recorder=recorder,
        settings=scheduler_settings(cfg) if cfg is not None else SchedulerSettings(),
        seed=seed,
        metrics=metrics,
        explain=explain,
        explain_nodes=explain_nodes,
        cycle_timeout=cycle_timeout,
        extenders=build_extenders(cfg) if cfg is not None else (),
        record_extender_bindings=simulated,
        feature_gates=feature_gates,
        ties=ties,
        binder=binder,
    )


def build_simulation(
    cfg: KubeSchedulerConfiguration | None,
    registry: Registry,
    cluster: InMemoryCluster,
    *,
    profiles: Sequence[EffectiveProfile] | None = None,
    seed: int = 0,
    explain: bool | Callable[[Pod], bool] = False,
    explain_nodes: int | None = None,
    metrics: SchedulerMetrics | None = None,
    cycle_timeout: float | None = DEFAULT_CYCLE_TIMEOUT,
    max_attempts: int = DEFAULT_MAX_ATTEMPTS,
    feature_gates: FeatureGates = DEFAULT_FEATURE_GATES,
    ties: str = TIES_RANDOM,
) -> Simulation:
    """A simulation of `cfg` (or of `profiles`) on the in-memory `cluster`, on a simulated
    clock; a pod is tried `max_attempts` times at most; `ties` as in `build_scheduler`.
    `explain`: record per-node explanations for every pod, or for the pods a predicate
    chooses; `explain_nodes`: keep the chosen node and this many best-scored ones, the
    others grouped by verdict (None: every node)."""
    clock = SimulatedClock()
    scheduler = build_scheduler(
        cfg,
        registry,
        cluster,
        clock=clock,
        recorder=MemoryEventRecorder(),
        profiles=profiles,
        seed=seed,
        explain=explain,
        explain_nodes=explain_nodes,
        metrics=metrics,
        cycle_timeout=cycle_timeout,
        simulated=True,
        feature_gates=feature_gates,
        ties=ties,
    )
    return Simulation(scheduler, clock, max_attempts=max_attempts)
