"""v1 defaulting: top-level defaults, the default profile and plugins, default plugin args.

Upstream enables every default plugin through `multiPoint` (in execution
order, with Score weights), then merges each profile's plugin sets into that
default set, point by point (`mergePlugins` in default_plugins.go). Here the
default set is upstream's, restricted to the plugins that are installed.
"""

from __future__ import annotations

from datetime import timedelta

from attrs import evolve, fields

from kubesched.config.catalog import PluginCatalog
from kubesched.config.types import (
    DEFAULT_SCHEDULER_NAME,
    ClientConnectionConfiguration,
    KubeSchedulerConfiguration,
    KubeSchedulerProfile,
    LeaderElectionConfiguration,
    Plugin,
    PluginConfig,
    Plugins,
    PluginSet,
)

UPSTREAM_DEFAULT_PLUGINS: tuple[Plugin, ...] = (
    Plugin("SchedulingGates"),
    Plugin("PrioritySort"),
    Plugin("NodeUnschedulable"),
    Plugin("NodeName"),
    Plugin("TaintToleration", 3),
    Plugin("NodeAffinity", 2),
    Plugin("NodePorts"),
    Plugin("NodeResourcesFit", 1),
    Plugin("VolumeRestrictions"),
    Plugin("NodeVolumeLimits"),
    Plugin("VolumeBinding"),
    Plugin("VolumeZone"),
    Plugin("PodTopologySpread", 2),
    Plugin("InterPodAffinity", 2),
    # Inserted before DefaultPreemption while the DynamicResourceAllocation gate is on
    # (on by default since it went GA): better to free an idle claim than to evict a pod.
    Plugin("DynamicResources"),
    Plugin("DefaultPreemption"),
    Plugin("NodeResourcesBalancedAllocation", 1),
    Plugin("ImageLocality", 1),
    Plugin("DefaultBinder"),
)
"""Upstream's default `multiPoint.enabled` list (v1, Kubernetes 1.34+), in order."""

WILDCARD = "*"


def default_plugins(catalog: PluginCatalog) -> Plugins:
    """Upstream's default plugins that are installed, all through multiPoint."""
    enabled = [p for p in UPSTREAM_DEFAULT_PLUGINS if p.name in catalog]
    return Plugins(multi_point=PluginSet(enabled=enabled))


def missing_default_plugins(catalog: PluginCatalog) -> list[str]:
    """Upstream's default plugins that are not installed here, in upstream order."""
    return [p.name for p in UPSTREAM_DEFAULT_PLUGINS if p.name not in catalog]


def merge_plugin_set(default: PluginSet, custom: PluginSet) -> PluginSet:
    """The default set with the custom one applied (upstream's mergePluginSet).

    Disabled names (custom first, then default) are kept, so multiPoint expansion
    can tell; unless "*" is disabled, the default plugins that are not disabled
    come first, a custom entry with the same name taking the default's place (the
    last such entry wins); the other custom entries follow in order, duplicates
    included (building the profile rejects those).
    """
    disabled = [Plugin(p.name) for p in (*custom.disabled, *default.disabled)]
    disabled_names = {p.name for p in disabled}
    custom_by_name = {p.name: (i, p) for i, p in enumerate(custom.enabled)}
    replaced: set[int] = set()
    enabled: list[Plugin] = []
    if WILDCARD not in disabled_names:
        for plugin in default.enabled:
            if plugin.name in disabled_names:
                continue
            if plugin.name in custom_by_name:
                position, plugin = custom_by_name[plugin.name]
                replaced.add(position)
            enabled.append(plugin)
    enabled += [p for i, p in enumerate(custom.enabled) if i not in replaced]
    return PluginSet(enabled=enabled, disabled=disabled)


def merge_plugins(default: Plugins, custom: Plugins | None) -> Plugins:
    """Every extension point (and multiPoint) merged; no custom plugins means the defaults."""
    if custom is None:
        return default
    merged = {
        f.name: merge_plugin_set(getattr(default, f.name), getattr(custom, f.name))
        for f in fields(Plugins)
    }
    return Plugins(**merged)


def enabled_plugin_names(plugins: Plugins) -> list[str]:
    """Every plugin enabled at a point or through multiPoint, sorted (upstream's pluginsNames)."""
    return sorted({p.name for s in plugins.by_point().values() for p in s.enabled})


def _default_profile(profile: KubeSchedulerProfile, catalog: PluginCatalog) -> KubeSchedulerProfile:
    plugins = merge_plugins(default_plugins(catalog), profile.plugins)
    configured = {entry.name for entry in profile.plugin_config}
    appended = []
    for name in enabled_plugin_names(plugins):
        args_type = catalog.args_type(name)
        if name not in configured and args_type is not None:
            appended.append(PluginConfig(name=name, args=args_type()))
    return evolve(profile, plugins=plugins, plugin_config=[*profile.plugin_config, *appended])


def _default_leader_election(le: LeaderElectionConfiguration) -> LeaderElectionConfiguration:
    """Zero values upstream replaces (its fields are not pointers)."""
    default = LeaderElectionConfiguration()
    zero = timedelta(0)
    return evolve(
        le,
        lease_duration=le.lease_duration if le.lease_duration != zero else default.lease_duration,
        renew_deadline=le.renew_deadline if le.renew_deadline != zero else default.renew_deadline,
        retry_period=le.retry_period if le.retry_period != zero else default.retry_period,
        resource_lock=le.resource_lock or default.resource_lock,
        resource_name=le.resource_name or default.resource_name,
        resource_namespace=le.resource_namespace or default.resource_namespace,
    )


def _default_client_connection(cc: ClientConnectionConfiguration) -> ClientConnectionConfiguration:
    default = ClientConnectionConfiguration()
    return evolve(
        cc,
        content_type=cc.content_type or default.content_type,
        qps=cc.qps or default.qps,
        burst=cc.burst or default.burst,
    )


def apply_defaults(
    cfg: KubeSchedulerConfiguration, catalog: PluginCatalog
) -> KubeSchedulerConfiguration:
    """The configuration as upstream's v1 defaulting leaves it.

    A port of SetDefaults_KubeSchedulerConfiguration and setDefaults_KubeSchedulerProfile.

    Apply once: merging is not idempotent for plugin lists that repeat a name.
    """
    profiles = list(cfg.profiles) or [KubeSchedulerProfile()]
    if len(profiles) == 1 and profiles[0].scheduler_name is None:
        profiles[0] = evolve(profiles[0], scheduler_name=DEFAULT_SCHEDULER_NAME)
    contention = cfg.enable_contention_profiling
    if contention is None and cfg.enable_profiling:
        contention = True
    return evolve(
        cfg,
        profiles=[_default_profile(p, catalog) for p in profiles],
        leader_election=_default_leader_election(cfg.leader_election),
        client_connection=_default_client_connection(cfg.client_connection),
        enable_contention_profiling=contention,
    )


def default_config(catalog: PluginCatalog) -> KubeSchedulerConfiguration:
    """What kube-scheduler runs without a config file, with the plugins installed here."""
    return apply_defaults(KubeSchedulerConfiguration(), catalog)
