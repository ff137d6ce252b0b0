"""What a replay may be told besides its scenario, configuration and seed."""

from __future__ import annotations

from collections.abc import Sequence

from attrs import field, frozen, validators

from kubesched.features import DEFAULT_FEATURE_GATES, FeatureGates
from kubesched.scheduler.simulation import DEFAULT_MAX_ATTEMPTS
from kubesched.scheduler.ties import TIE_RULES, TIES_RANDOM
from kubesched.scheduler.watchdog import DEFAULT_CYCLE_TIMEOUT

DEFAULT_SAMPLE_INTERVAL = 60.0
"""Simulated seconds between two samples of the series."""


def _positive(instance: object, attribute: object, value: float) -> None:
    if not value > 0:
        raise ValueError(f"sample_interval must be > 0, got {value}")


def _not_negative(instance: object, attribute: object, value: float) -> None:
    if not value >= 0:
        raise ValueError(f"bind_latency must be >= 0, got {value}")


@frozen
class ReplayOptions:
    """How a replay runs; every field has upstream's behaviour (or none) by default."""

    ties: str = field(default=TIES_RANDOM, validator=validators.in_(TIE_RULES))
    """How a tie between the best nodes is broken: `random` (upstream's: a uniformly random
    top-scored node, seeded) or `first` (the first tied node of a seeded random order of
    the node names, the FGD study's rule; see `kubesched.scheduler.ties`)."""
    drop_unschedulable: bool = False
    """A pod whose first attempt fails is deleted and never retried (the study's
    arrival-order mode); its record says `Dropped`."""
    sample_interval: float = field(default=DEFAULT_SAMPLE_INTERVAL, validator=_positive)
    """Simulated seconds between two samples of the series (the first at 0)."""
    bind_latency: float = field(default=0.0, validator=_not_negative)
    """Simulated seconds a binding takes: the pod holds its node's resources from the
    moment it is assumed (as upstream's cache has it) and is running, its duration
    counting, this much later."""
    observers: Sequence[object] = ()
    """Observers called during the run (`kubesched.scenario.observers`)."""
    keep_pods: bool = True
    """Keep the per-pod log (one record per pod; off to hold only live pods)."""
    max_attempts: int = DEFAULT_MAX_ATTEMPTS
    """Once the events are over and no pod is left to finish, a pod is not retried after
    this many attempts (a pod that errors forever would keep the run going forever)."""
    cycle_timeout: float | None = DEFAULT_CYCLE_TIMEOUT
    """Wall-clock seconds a cycle may take before the plugin running it fails it."""
    feature_gates: FeatureGates = DEFAULT_FEATURE_GATES
    until: float | None = None
    """Stop at this simulated time (events after it are not read); None: once nothing
    can change any more."""
