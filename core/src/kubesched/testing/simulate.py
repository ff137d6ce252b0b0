"""Schedule a whole cluster with the profiles of a configuration, as `kubesched simulate` does.

    run = simulate(nodes, pods, config={"profiles": [...]})
    assert run.placements == {"default/web-1": "n1", "default/web-2": None}

The run is the scheduler's own `Simulation` (simulated clock, seeded
tie-breaking), with plugins registered in code next to the installed ones.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any, TypeAlias

from kubesched.api import (
    CSINode,
    Namespace,
    Node,
    PersistentVolume,
    PersistentVolumeClaim,
    Pod,
    PodDisruptionBudget,
    PriorityClass,
    StorageClass,
    VolumeAttachment,
    Workload,
)
from kubesched.cluster.memory import InMemoryCluster
from kubesched.cluster.resources import ResourceObject
from kubesched.config import (
    API_VERSION,
    KIND,
    KubeSchedulerConfiguration,
)
from kubesched.features import DEFAULT_FEATURE_GATES, FeatureGates, parse_feature_gates
from kubesched.framework import Registry, default_registry
from kubesched.framework._interface import PluginFactory
from kubesched.profile import (
    Loaded,
    build_simulation,
    effective_profiles,
    load_profiles,
    parse_profiles,
)
from kubesched.scheduler.outcome import PodOutcome
from kubesched.scheduler.scheduler import Scheduler
from kubesched.scheduler.simulation import DEFAULT_MAX_ATTEMPTS as DEFAULT_MAX_POD_ATTEMPTS
from kubesched.scheduler.simulation import Simulation, SimulationResult
from kubesched.scheduler.watchdog import DEFAULT_CYCLE_TIMEOUT

ConfigSource: TypeAlias = (
    KubeSchedulerConfiguration | Mapping[str, Any] | str | os.PathLike[str] | None
)
"""A configuration: a file path, a document as a mapping (apiVersion and kind may be left
out), a defaulted `KubeSchedulerConfiguration`, or None for the default profile."""

Simulate: TypeAlias = Callable[..., "SimulationRun"]
"""The type of `simulate`, and of the pytest fixture `kubesched_simulate`, for annotations."""

DEFAULT_MAX_ATTEMPTS = 10_000
"""Scheduling attempts after which `simulate` gives up on a simulation that never settles."""


class SimulationLimitError(AssertionError):
    """A simulation still scheduling after its maximum number of attempts (a livelock?)."""


class SimulationRun:
    """A simulation run until nothing could change any more, with the scheduler's state after.

    `placements` maps each pending pod (`namespace/name`) to its node, None if
    it was not scheduled. Change `cluster` (add a node, delete a pod) and call
    `resume()` to schedule on from there.
    """

    def __init__(
        self, simulation: Simulation, cluster: InMemoryCluster, max_attempts: int | None
    ) -> None:
        self.simulation = simulation
        self.cluster = cluster
        self.max_attempts = max_attempts
        self.result = self.resume()

    @property
    def scheduler(self) -> Scheduler:
        return self.simulation.scheduler

    @property
    def placements(self) -> dict[str, str | None]:
        return {outcome.pod: outcome.node for outcome in self.result.outcomes}

    def outcome(self, pod_key: str) -> PodOutcome:
        """The pod's outcome (status, node, message, attempts); KeyError for an unknown pod."""
        for outcome in self.result.outcomes:
            if outcome.pod == pod_key:
                return outcome
        raise KeyError(pod_key)

    def resume(self) -> SimulationResult:
        """Schedule until the simulation settles again; the new result is also `result`."""
        self.result = self.simulation.run(self._limit())
        return self.result

    def _limit(self) -> Callable[[int, int], None] | None:
        if self.max_attempts is None:
            return None
        stop = self.simulation.cycles + self.max_attempts

        def check(_decided: int, _pending: int) -> None:
            if self.simulation.cycles >= stop:
                raise SimulationLimitError(
                    f"the simulation did not settle after {self.max_attempts} scheduling "
                    f"attempts (simulated time {self.simulation.clock.now():g}s)"
                )

        return check


def simulate(
    nodes: Iterable[Node],
    pods: Iterable[Pod],
    config: ConfigSource = None,
    *,
    priority_classes: Iterable[PriorityClass] = (),
    pod_disruption_budgets: Iterable[PodDisruptionBudget] = (),
    persistent_volumes: Iterable[PersistentVolume] = (),
    persistent_volume_claims: Iterable[PersistentVolumeClaim] = (),
    storage_classes: Iterable[StorageClass] = (),
    csi_nodes: Iterable[CSINode] = (),
    volume_attachments: Iterable[VolumeAttachment] = (),
    namespaces: Iterable[Namespace] = (),
    workloads: Iterable[Workload] = (),
    resources: Iterable[ResourceObject] = (),
    plugins: Mapping[str, PluginFactory] | None = None,
    seed: int = 0,
    explain: bool = False,
    max_attempts: int | None = DEFAULT_MAX_ATTEMPTS,
    max_pod_attempts: int = DEFAULT_MAX_POD_ATTEMPTS,
    cycle_timeout: float | None = DEFAULT_CYCLE_TIMEOUT,
    feature_gates: FeatureGates | str = DEFAULT_FEATURE_GATES,
) -> SimulationRun:
    """Schedule every pending pod of `pods` onto `nodes` with the profiles of `config`.

    Pods with `spec.nodeName` run already; PriorityClasses resolve the pods'
    `priorityClassName`, PodDisruptionBudgets guard pods from preemption, the
    storage objects are what the volume plugins read, Namespaces' labels are
    what pod affinity's namespaceSelector matches, and `workloads` (Services,
    ReplicationControllers, ReplicaSets, StatefulSets) give PodTopologySpread's
    default constraints their selector; `resources` are the resource.k8s.io objects
    (DeviceClasses, ResourceClaims, templates, ResourceSlices) DynamicResources reads.

    `plugins` (name -> factory) are registered in code next to the installed
    ones, so a profile can enable them; a name an installed plugin already
    has is an error unless it is the same factory. The run is the scheduler's
    own `Simulation` (simulated clock, seeded tie-breaking): a pod is tried
    `max_pod_attempts` times at most (as `--max-attempts`), a cycle may take
    `cycle_timeout` seconds (as `--cycle-timeout`; None for no limit), and the
    run stops with SimulationLimitError after `max_attempts` attempts in all
    (None: never). `feature_gates` are the scheduler's (a FeatureGates, or a
    `--feature-gates` value such as "PodLevelResources=false").
    """
    registry = _registry(plugins or {})
    cluster = InMemoryCluster(
        nodes=nodes,
        pods=pods,
        priority_classes=priority_classes,
        pod_disruption_budgets=pod_disruption_budgets,
        persistent_volumes=persistent_volumes,
        persistent_volume_claims=persistent_volume_claims,
        storage_classes=storage_classes,
        csi_nodes=csi_nodes,
        volume_attachments=volume_attachments,
        namespaces=namespaces,
        workloads=workloads,
        resources=resources,
    )
    cfg, profiles = _configuration(config, registry)
    simulation = build_simulation(
        cfg,
        registry,
        cluster,
        profiles=profiles,
        seed=seed,
        explain=explain,
        cycle_timeout=cycle_timeout,
        max_attempts=max_pod_attempts,
        feature_gates=(
            parse_feature_gates(feature_gates) if isinstance(feature_gates, str) else feature_gates
        ),
    )
    return SimulationRun(simulation, cluster, max_attempts)


def _registry(plugins: Mapping[str, PluginFactory]) -> Registry:
    discovered = default_registry()
    if not plugins:
        return discovered
    registry = Registry()
    registry.merge(discovered)
    for name, factory in plugins.items():
        if name in registry and registry.load(name) is factory:
            continue
        registry.register(name, factory)
    return registry


def _configuration(config: ConfigSource, registry: Registry) -> Loaded:
    """The configuration and its profiles; ConfigError naming where it came from."""
    if config is None:
        return load_profiles(None, registry)
    if isinstance(config, KubeSchedulerConfiguration):
        return config, effective_profiles(config, registry)
    if isinstance(config, Mapping):
        document = {"apiVersion": API_VERSION, "kind": KIND, **config}
        return parse_profiles(json.dumps(document), registry, source="config")
    return load_profiles(Path(config), registry)
