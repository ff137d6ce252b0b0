"""Profiles: from a configuration to the frameworks a scheduler runs (upstream's
pkg/scheduler/profile), and the composition root that wires a scheduler to a cluster.

    cfg, profiles = load_profiles("scheduler-config.yaml", default_registry())
    simulation = build_simulation(cfg, registry, InMemoryCluster(nodes=..., pods=...))

Building a profile resolves its plugins against the Registry (which exist,
which points they implement), expands multiPoint, checks upstream's
construction rules and weights, once, with the field path of every problem.
"""

from kubesched.framework._profile import EffectiveProfile
from kubesched.profile._build import (
    build_profiles,
    check_config,
    construction_errors,
    effective_profiles,
)
from kubesched.profile._compose import (
    Loaded,
    build_scheduler,
    build_simulation,
    load_profiles,
    parse_profiles,
    scheduler_settings,
)
from kubesched.profile._coverage import FEATURES, unchecked_features
from kubesched.profile._output import EFFECTIVE_KIND, config_warnings, effective_document, notes

__all__ = [
    "EFFECTIVE_KIND",
    "FEATURES",
    "EffectiveProfile",
    "Loaded",
    "build_profiles",
    "build_scheduler",
    "build_simulation",
    "check_config",
    "config_warnings",
    "construction_errors",
    "effective_document",
    "effective_profiles",
    "load_profiles",
    "notes",
    "parse_profiles",
    "scheduler_settings",
    "unchecked_features",
]
