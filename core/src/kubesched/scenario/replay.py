"""`replay`: one run of a scenario under a configuration and a seed."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from kubesched.config import KubeSchedulerConfiguration
from kubesched.framework import Registry, default_registry
from kubesched.profile import load_profiles, parse_profiles
from kubesched.scenario.engine import Engine, Progress
from kubesched.scenario.model import Scenario
from kubesched.scenario.options import ReplayOptions
from kubesched.scenario.result import ReplayResult


def replay(
    scenario: Scenario,
    config: str | Path | Mapping[str, Any] | KubeSchedulerConfiguration | None = None,
    seed: int = 0,
    options: ReplayOptions | None = None,
    *,
    registry: Registry | None = None,
    progress: Progress | None = None,
) -> ReplayResult:
    """Replay `scenario` under `config` (a KubeSchedulerConfiguration file, document or
    object; None: the default profiles) with `seed`; ConfigError when the configuration cannot run,
    ScenarioError at the first bad event of a streamed scenario."""
    registry = registry or default_registry()
    if isinstance(config, KubeSchedulerConfiguration):
        from kubesched.profile._compose import _profiles_of

        cfg, profiles = _profiles_of(config, registry, None)
    elif isinstance(config, Mapping):
        cfg, profiles = parse_profiles(json.dumps(config), registry, source="config")
    else:
        cfg, profiles = load_profiles(config, registry)
    engine = Engine(scenario, cfg, registry, profiles=profiles, seed=seed, options=options)
    return engine.run(progress)
