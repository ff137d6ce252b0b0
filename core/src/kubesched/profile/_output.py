"""Effective profiles as a printable document: kubesched's own `EffectiveConfiguration`.

Per profile, the plugins each extension point runs in order, Score weights and
the args each plugin is built with, plus notes on what upstream would run that
is not installed here. The CLI adds `apiVersion: kubesched.io/v1alpha1` to it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kubesched.config import KubeSchedulerConfiguration, PluginConfig, Plugins
from kubesched.config.defaults import enabled_plugin_names, missing_default_plugins
from kubesched.config.plugin_args import args_document
from kubesched.framework import EXTENSION_POINTS, Registry
from kubesched.framework._profile import EffectiveProfile

EFFECTIVE_KIND = "EffectiveConfiguration"


def _profile_document(profile: EffectiveProfile, registry: Registry) -> dict[str, Any]:
    plugins: dict[str, list[dict[str, Any]]] = {}
    for point in (p.name for p in EXTENSION_POINTS):
        entries: list[dict[str, Any]] = []
        for name in profile.plugins.get(point, ()):
            entry: dict[str, Any] = {"name": name}
            if point == "score":
                entry["weight"] = profile.score_weights[name]
            entries.append(entry)
        plugins[point] = entries
    args = [
        args_document(PluginConfig(name=name, args=profile.plugin_args[name]), registry)
        for name in sorted(profile.plugin_args)
    ]
    return {
        "schedulerName": profile.scheduler_name,
        "percentageOfNodesToScore": profile.percentage_of_nodes_to_score,
        "plugins": plugins,
        "pluginConfig": args,
    }


def notes(
    cfg: KubeSchedulerConfiguration, profiles: Sequence[EffectiveProfile], registry: Registry
) -> list[str]:
    """What differs from what upstream would run, and configuration nobody uses."""
    lines = []
    missing = missing_default_plugins(registry)
    if missing:
        lines.append(
            "upstream default plugins not installed here (profiles run without them): "
            + ", ".join(missing)
        )
    return lines + config_warnings(cfg, profiles, registry)


def config_warnings(
    cfg: KubeSchedulerConfiguration, profiles: Sequence[EffectiveProfile], registry: Registry
) -> list[str]:
    """What a configuration says that nothing will use (`config validate` warns about it)."""
    lines = []
    for i, (profile, effective) in enumerate(zip(cfg.profiles, profiles, strict=True)):
        enabled = set(enabled_plugin_names(profile.plugins or Plugins()))
        for j, entry in enumerate(profile.plugin_config):
            where = f"profiles[{i}].pluginConfig[{j}]"
            if entry.name not in registry:
                lines.append(f'{where}: args for "{entry.name}" are ignored: no such plugin')
            elif entry.name not in enabled:
                lines.append(
                    f'{where}: args for "{entry.name}" are not used: '
                    f'the plugin is not enabled in profile "{effective.scheduler_name}"'
                )
    return lines


def effective_document(
    cfg: KubeSchedulerConfiguration, profiles: Sequence[EffectiveProfile], registry: Registry
) -> dict[str, Any]:
    """The `EffectiveConfiguration` document `kubesched config show` prints."""
    return {
        "kind": EFFECTIVE_KIND,
        "parallelism": cfg.parallelism,
        "percentageOfNodesToScore": cfg.percentage_of_nodes_to_score,
        "podInitialBackoffSeconds": cfg.pod_initial_backoff_seconds,
        "podMaxBackoffSeconds": cfg.pod_max_backoff_seconds,
        "profiles": [_profile_document(p, registry) for p in profiles],
        "defaultPluginsNotInstalled": missing_default_plugins(registry),
        "notes": notes(cfg, profiles, registry),
    }
