"""v1 defaulting: upstream's default_plugins_test.go and defaults_test.go tables, as data."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from attrs import evolve

from kubesched.config import (
    UPSTREAM_DEFAULT_PLUGINS,
    ClientConnectionConfiguration,
    KubeSchedulerConfiguration,
    KubeSchedulerProfile,
    LeaderElectionConfiguration,
    Plugin,
    PluginConfig,
    Plugins,
    PluginSet,
    apply_defaults,
    default_config,
    default_plugins,
    merge_plugins,
    missing_default_plugins,
)
from kubesched.framework._registry import Registry

PluginSpec = str | tuple[str, int]


def ps(enabled: tuple[PluginSpec, ...] = (), disabled: tuple[str, ...] = ()) -> PluginSet:
    """A PluginSet from names, or (name, weight) pairs."""
    return PluginSet(
        enabled=[Plugin(p) if isinstance(p, str) else Plugin(*p) for p in enabled],
        disabled=[Plugin(name) for name in disabled],
    )


UPSTREAM_DEFAULT_LIST = [
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
    Plugin("DynamicResources"),
    Plugin("DefaultPreemption"),
    Plugin("NodeResourcesBalancedAllocation", 1),
    Plugin("ImageLocality", 1),
    Plugin("DefaultBinder"),
]


def test_upstream_default_plugin_list_with_weights() -> None:
    # TestApplyFeatureGates, DynamicResourceAllocation on (its default since GA):
    # the removed volume-limit plugins are gone, DynamicResources precedes DefaultPreemption.
    assert list(UPSTREAM_DEFAULT_PLUGINS) == UPSTREAM_DEFAULT_LIST


def test_default_plugins_all_installed(upstream_registry: Registry) -> None:
    assert default_plugins(upstream_registry) == Plugins(
        multi_point=PluginSet(enabled=UPSTREAM_DEFAULT_LIST)
    )
    assert missing_default_plugins(upstream_registry) == []


def test_default_plugins_restricted_to_installed(kubesched_registry: Registry) -> None:
    enabled = default_plugins(kubesched_registry).multi_point.enabled
    assert enabled == [
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
        Plugin("InterPodAffinity", 2),
        Plugin("DefaultPreemption"),
        Plugin("NodeResourcesBalancedAllocation", 1),
        Plugin("ImageLocality", 1),
        Plugin("DefaultBinder"),
    ]
    assert missing_default_plugins(kubesched_registry) == [
        "PodTopologySpread",
        "DynamicResources",
    ]


# TestMergePlugins: (name, custom, default, expected).
MERGE_CASES: list[tuple[str, Plugins | None, Plugins, Plugins]] = [
    (
        "AppendCustomPlugin",
        Plugins(filter=ps(["CustomPlugin"])),
        Plugins(filter=ps(["DefaultPlugin1", "DefaultPlugin2"])),
        Plugins(filter=ps(["DefaultPlugin1", "DefaultPlugin2", "CustomPlugin"])),
    ),
    (
        "InsertAfterDefaultPlugins2",
        Plugins(filter=ps(["CustomPlugin", "DefaultPlugin2"], ["DefaultPlugin2"])),
        Plugins(filter=ps(["DefaultPlugin1", "DefaultPlugin2"])),
        Plugins(
            filter=ps(["DefaultPlugin1", "CustomPlugin", "DefaultPlugin2"], ["DefaultPlugin2"])
        ),
    ),
    (
        "InsertBeforeAllPlugins",
        Plugins(filter=ps(["CustomPlugin", "DefaultPlugin1", "DefaultPlugin2"], ["*"])),
        Plugins(filter=ps(["DefaultPlugin1", "DefaultPlugin2"])),
        Plugins(filter=ps(["CustomPlugin", "DefaultPlugin1", "DefaultPlugin2"], ["*"])),
    ),
    (
        "ReorderDefaultPlugins",
        Plugins(filter=ps(["DefaultPlugin2", "DefaultPlugin1"], ["*"])),
        Plugins(filter=ps(["DefaultPlugin1", "DefaultPlugin2"])),
        Plugins(filter=ps(["DefaultPlugin2", "DefaultPlugin1"], ["*"])),
    ),
    (
        "ApplyNilCustomPlugin",
        None,
        Plugins(filter=ps(["DefaultPlugin1", "DefaultPlugin2"])),
        Plugins(filter=ps(["DefaultPlugin1", "DefaultPlugin2"])),
    ),
    (
        "CustomPluginOverrideDefaultPlugin",
        Plugins(filter=ps([("Plugin1", 2), ("Plugin3", 3)])),
        Plugins(filter=ps(["Plugin1", "Plugin2", "Plugin3"])),
        Plugins(filter=ps([("Plugin1", 2), "Plugin2", ("Plugin3", 3)])),
    ),
    (
        "OrderPreserveAfterOverride",
        Plugins(filter=ps([("Plugin2", 2), ("Plugin1", 1)])),
        Plugins(filter=ps(["Plugin1", "Plugin2", "Plugin3"])),
        Plugins(filter=ps([("Plugin1", 1), ("Plugin2", 2), "Plugin3"])),
    ),
    (
        "RepeatedCustomPlugin",
        Plugins(filter=ps(["Plugin1", ("Plugin2", 2), "Plugin3", ("Plugin2", 4)])),
        Plugins(filter=ps(["Plugin1", "Plugin2", "Plugin3"])),
        Plugins(filter=ps(["Plugin1", ("Plugin2", 4), "Plugin3", ("Plugin2", 2)])),
    ),
    (
        "Append custom MultiPoint plugin",
        Plugins(multi_point=ps(["CustomPlugin"])),
        Plugins(multi_point=ps(["DefaultPlugin1", "DefaultPlugin2"])),
        Plugins(multi_point=ps(["DefaultPlugin1", "DefaultPlugin2", "CustomPlugin"])),
    ),
    (
        "Append disabled Multipoint plugins",
        Plugins(
            multi_point=ps(["CustomPlugin", "CustomPlugin2"], ["DefaultPlugin2"]),
            score=ps(disabled=["CustomPlugin2"]),
        ),
        Plugins(multi_point=ps(["DefaultPlugin1", "DefaultPlugin2"])),
        Plugins(
            multi_point=ps(["DefaultPlugin1", "CustomPlugin", "CustomPlugin2"], ["DefaultPlugin2"]),
            score=ps(disabled=["CustomPlugin2"]),
        ),
    ),
    (
        "override default MultiPoint plugins with custom value",
        Plugins(multi_point=ps([("DefaultPlugin", 5)])),
        Plugins(multi_point=ps(["DefaultPlugin"])),
        Plugins(multi_point=ps([("DefaultPlugin", 5)])),
    ),
    (
        "disabled MultiPoint plugin in default set",
        Plugins(multi_point=ps(["CustomPlugin"])),
        Plugins(multi_point=ps(["DefaultPlugin"], ["DefaultPlugin2"])),
        Plugins(multi_point=ps(["DefaultPlugin", "CustomPlugin"], ["DefaultPlugin2"])),
    ),
    (
        "disabled MultiPoint plugin in default set for specific extension point",
        Plugins(multi_point=ps(["CustomPlugin"])),
        Plugins(multi_point=ps(["DefaultPlugin"]), score=ps(disabled=["DefaultPlugin2"])),
        Plugins(
            multi_point=ps(["DefaultPlugin", "CustomPlugin"]),
            score=ps(disabled=["DefaultPlugin2"]),
        ),
    ),
    (
        "multipoint with only disabled gets merged",
        Plugins(multi_point=ps(disabled=["DefaultPlugin"])),
        Plugins(multi_point=ps(["DefaultPlugin"])),
        Plugins(multi_point=ps(disabled=["DefaultPlugin"])),
    ),
]


@pytest.mark.parametrize(
    ("custom", "default", "expected"),
    [case[1:] for case in MERGE_CASES],
    ids=[case[0] for case in MERGE_CASES],
)
def test_merge_plugins(custom: Plugins | None, default: Plugins, expected: Plugins) -> None:
    assert merge_plugins(default, custom) == expected


DEFAULT_ARGS = PluginConfig("<the default args upstream appends>")
"""Stands for upstream's default args, sorted by plugin name; tests expand it."""
UNDECODED_ARGS = PluginConfig("<the default args, DefaultPreemption's undecoded>")
"""The same, but DefaultPreemption's args as upstream keeps args it cannot decode."""


def _expand_args(
    cfg: KubeSchedulerConfiguration, upstream_args: dict[str, type]
) -> KubeSchedulerConfiguration:
    defaults = [PluginConfig(name, upstream_args[name]()) for name in sorted(upstream_args)]
    undecoded = [
        PluginConfig(c.name, {"opaque": True}) if c.name == "DefaultPreemption" else c
        for c in defaults
    ]
    expansions = {id(DEFAULT_ARGS): defaults, id(UNDECODED_ARGS): undecoded}
    profiles = []
    for profile in cfg.profiles:
        entries: list[PluginConfig] = []
        for entry in profile.plugin_config:
            entries += expansions.get(id(entry), [entry])
        profiles.append(evolve(profile, plugin_config=entries))
    return evolve(cfg, profiles=profiles)


def _defaulted(**overrides: Any) -> KubeSchedulerConfiguration:
    """Upstream's expected top-level values for an otherwise empty config."""
    values: dict[str, Any] = {
        "parallelism": 16,
        "leader_election": LeaderElectionConfiguration(
            leader_elect=True,
            lease_duration=timedelta(seconds=15),
            renew_deadline=timedelta(seconds=10),
            retry_period=timedelta(seconds=2),
            resource_lock="leases",
            resource_namespace="kube-system",
            resource_name="kube-scheduler",
        ),
        "client_connection": ClientConnectionConfiguration(
            qps=50, burst=100, content_type="application/vnd.kubernetes.protobuf"
        ),
        "enable_profiling": True,
        "enable_contention_profiling": True,
        "percentage_of_nodes_to_score": 0,
        "pod_initial_backoff_seconds": 1,
        "pod_max_backoff_seconds": 10,
    }
    values.update(overrides)
    return KubeSchedulerConfiguration(**values)


def _default_profile(**overrides: Any) -> KubeSchedulerProfile:
    values: dict[str, Any] = {
        "scheduler_name": "default-scheduler",
        "plugins": Plugins(multi_point=PluginSet(enabled=UPSTREAM_DEFAULT_LIST)),
        "plugin_config": [DEFAULT_ARGS],
    }
    values.update(overrides)
    return KubeSchedulerProfile(**values)


# TestSchedulerDefaults: (name, config, expected).
SCHEDULER_DEFAULTS_CASES: list[
    tuple[str, KubeSchedulerConfiguration, KubeSchedulerConfiguration]
] = [
    ("empty config", KubeSchedulerConfiguration(), _defaulted(profiles=[_default_profile()])),
    (
        "no scheduler name",
        KubeSchedulerConfiguration(profiles=[KubeSchedulerProfile()]),
        _defaulted(profiles=[_default_profile()]),
    ),
    (
        "two profiles",
        KubeSchedulerConfiguration(
            profiles=[
                KubeSchedulerProfile(plugin_config=[PluginConfig("FooPlugin")]),
                KubeSchedulerProfile(
                    scheduler_name="custom-scheduler",
                    plugins=Plugins(bind=ps(["BarPlugin"], ["DefaultBinder"])),
                ),
            ]
        ),
        _defaulted(
            profiles=[
                _default_profile(
                    scheduler_name=None, plugin_config=[PluginConfig("FooPlugin"), DEFAULT_ARGS]
                ),
                _default_profile(
                    scheduler_name="custom-scheduler",
                    plugins=Plugins(
                        multi_point=PluginSet(enabled=UPSTREAM_DEFAULT_LIST),
                        bind=ps(["BarPlugin"], ["DefaultBinder"]),
                    ),
                ),
            ]
        ),
    ),
    (
        "Prallelism with no port",
        KubeSchedulerConfiguration(parallelism=16),
        _defaulted(profiles=[_default_profile()]),
    ),
    (
        "set non default parallelism",
        KubeSchedulerConfiguration(parallelism=8),
        _defaulted(parallelism=8, profiles=[_default_profile()]),
    ),
    (
        "set non default delayCacheUntilActive",
        KubeSchedulerConfiguration(delay_cache_until_active=True),
        _defaulted(delay_cache_until_active=True, profiles=[_default_profile()]),
    ),
    (
        "set non default global percentageOfNodesToScore",
        KubeSchedulerConfiguration(percentage_of_nodes_to_score=50),
        _defaulted(percentage_of_nodes_to_score=50, profiles=[_default_profile()]),
    ),
    (
        "set non default profile percentageOfNodesToScore",
        KubeSchedulerConfiguration(
            profiles=[KubeSchedulerProfile(percentage_of_nodes_to_score=50)]
        ),
        _defaulted(profiles=[_default_profile(percentage_of_nodes_to_score=50)]),
    ),
    (
        "set non default global and profile percentageOfNodesToScore",
        KubeSchedulerConfiguration(
            percentage_of_nodes_to_score=10,
            profiles=[KubeSchedulerProfile(percentage_of_nodes_to_score=50)],
        ),
        _defaulted(
            percentage_of_nodes_to_score=10,
            profiles=[_default_profile(percentage_of_nodes_to_score=50)],
        ),
    ),
    (
        # Args upstream cannot decode are kept as written, not defaulted.
        "unknown plugin config",
        KubeSchedulerConfiguration(profiles=[KubeSchedulerProfile(plugin_config=[UNDECODED_ARGS])]),
        _defaulted(profiles=[_default_profile(plugin_config=[UNDECODED_ARGS])]),
    ),
]


@pytest.mark.parametrize(
    ("given", "expected"),
    [case[1:] for case in SCHEDULER_DEFAULTS_CASES],
    ids=[case[0] for case in SCHEDULER_DEFAULTS_CASES],
)
def test_scheduler_defaults(
    given: KubeSchedulerConfiguration,
    expected: KubeSchedulerConfiguration,
    upstream_registry: Registry,
    upstream_args: dict[str, type],
) -> None:
    applied = apply_defaults(_expand_args(given, upstream_args), upstream_registry)
    assert applied == _expand_args(expected, upstream_args)


def test_zero_values_upstream_replaces_are_defaulted(upstream_registry: Registry) -> None:
    cfg = KubeSchedulerConfiguration(
        leader_election=LeaderElectionConfiguration(
            lease_duration=timedelta(0),
            renew_deadline=timedelta(0),
            retry_period=timedelta(0),
            resource_lock="",
            resource_name="",
            resource_namespace="",
        ),
        client_connection=ClientConnectionConfiguration(content_type="", qps=0, burst=0),
    )
    defaulted = apply_defaults(cfg, upstream_registry)
    assert defaulted.leader_election == LeaderElectionConfiguration()
    assert defaulted.client_connection == ClientConnectionConfiguration()


def test_explicit_values_are_kept(upstream_registry: Registry) -> None:
    cfg = KubeSchedulerConfiguration(
        leader_election=LeaderElectionConfiguration(leader_elect=False, resource_lock="endpoints"),
        client_connection=ClientConnectionConfiguration(qps=5.5, burst=7),
        enable_profiling=False,
        pod_initial_backoff_seconds=0,
    )
    defaulted = apply_defaults(cfg, upstream_registry)
    assert defaulted.leader_election.leader_elect is False
    assert defaulted.leader_election.resource_lock == "endpoints"
    assert (defaulted.client_connection.qps, defaulted.client_connection.burst) == (5.5, 7)
    # Contention profiling defaults to true only when profiling is on.
    assert defaulted.enable_contention_profiling is None
    assert defaulted.pod_initial_backoff_seconds == 0


def test_default_config_with_kubesched_plugins(kubesched_registry: Registry) -> None:
    cfg = default_config(kubesched_registry)
    [profile] = cfg.profiles
    assert profile.scheduler_name == "default-scheduler"
    assert profile.plugins == default_plugins(kubesched_registry)
    # Default args only for installed plugins that declare an args class.
    assert [c.name for c in profile.plugin_config] == [
        "DefaultPreemption",
        "InterPodAffinity",
        "NodeAffinity",
        "NodeResourcesBalancedAllocation",
        "NodeResourcesFit",
        "VolumeBinding",
    ]


def test_default_args_skip_configured_and_disabled_plugins(
    upstream_registry: Registry, upstream_args: dict[str, type]
) -> None:
    custom = KubeSchedulerProfile(
        plugins=Plugins(multi_point=ps(disabled=["NodeAffinity", "VolumeBinding"])),
        plugin_config=[PluginConfig("DefaultPreemption", {"raw": 1})],
    )
    cfg = apply_defaults(KubeSchedulerConfiguration(profiles=[custom]), upstream_registry)
    names = [c.name for c in cfg.profiles[0].plugin_config]
    assert names == [
        "DefaultPreemption",
        "DynamicResources",
        "InterPodAffinity",
        "NodeResourcesBalancedAllocation",
        "NodeResourcesFit",
        "PodTopologySpread",
    ]
    assert cfg.profiles[0].plugin_config[0].args == {"raw": 1}
