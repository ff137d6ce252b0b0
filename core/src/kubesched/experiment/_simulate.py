"""One run of a config on a cluster: the composition root `simulate` uses, on a fresh
in-memory cluster, for one seed."""

from __future__ import annotations

from collections.abc import Callable

from kubesched.api import ClusterObjects, Pod
from kubesched.cluster.memory import InMemoryCluster
from kubesched.framework import Registry
from kubesched.profile import Loaded, build_simulation
from kubesched.scheduler.simulation import SimulationResult


def simulate(
    loaded: Loaded,
    registry: Registry,
    objects: ClusterObjects,
    seed: int,
    *,
    explain: bool | Callable[[Pod], bool] = False,
) -> SimulationResult:
    """Schedule the pending pods of `objects` with the loaded config, as `kubesched simulate
    --seed SEED` would; `explain` records per-node explanations (for the pods it chooses)."""
    cfg, profiles = loaded
    simulation = build_simulation(
        cfg,
        registry,
        InMemoryCluster.of(objects),
        profiles=profiles,
        seed=seed,
        explain=explain,
    )
    return simulation.run()
