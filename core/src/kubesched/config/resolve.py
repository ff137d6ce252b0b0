"""From a defaulted configuration to what each profile runs, or every reason it cannot run."""

from __future__ import annotations

from kubesched.config.plugin_args import structure_plugin_args
from kubesched.config.profiles import build_profiles
from kubesched.config.types import KubeSchedulerConfiguration
from kubesched.config.validation import validate_configuration
from kubesched.errors import ConfigError
from kubesched.framework._profile import EffectiveProfile
from kubesched.framework._registry import Registry


def check_config(
    cfg: KubeSchedulerConfiguration, registry: Registry
) -> tuple[KubeSchedulerConfiguration, list[EffectiveProfile], list[str]]:
    """Plugin args structured, upstream's validation, the profiles built: the configuration
    with typed args, the effective profiles, and one `<path>: <message>` line per problem."""
    cfg, errors = structure_plugin_args(cfg, registry)
    errors += validate_configuration(cfg)
    profiles, build_errors = build_profiles(cfg.profiles, registry)
    return cfg, profiles, errors + build_errors


def effective_profiles(
    cfg: KubeSchedulerConfiguration, registry: Registry
) -> list[EffectiveProfile]:
    """What each profile of a defaulted configuration runs; ConfigError listing every problem.

    `load_config` and `default_config` return defaulted configurations; for one
    built in code, call `apply_defaults` first.
    """
    _, profiles, errors = check_config(cfg, registry)
    if errors:
        raise ConfigError(errors)
    return profiles
