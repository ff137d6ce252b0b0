"""Invariants of merging, multiPoint expansion and printing, on generated configurations."""

from __future__ import annotations

from collections import Counter
from typing import Any

import attrs
import yaml
from attrs import evolve
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from kubesched.config import (
    KubeSchedulerConfiguration,
    KubeSchedulerProfile,
    Plugin,
    PluginConfig,
    Plugins,
    PluginSet,
    apply_defaults,
    config_document,
    merge_plugin_set,
    parse_config,
)
from kubesched.framework import EXTENSION_POINTS
from kubesched.framework._registry import Registry, implements
from kubesched.profile import build_profiles, check_config

CONFIG_POINTS = tuple(p.name for p in EXTENSION_POINTS)

NAMES = ("Alpha", "Beta", "Gamma", "Delta", "Epsilon")
FIXTURES_ARE_PURE = settings(suppress_health_check=[HealthCheck.function_scoped_fixture])

weights = st.one_of(st.none(), st.integers(0, 5))
enabled_lists = st.lists(st.builds(Plugin, st.sampled_from(NAMES), weights), max_size=4)
disabled_lists = st.lists(st.builds(Plugin, st.sampled_from((*NAMES, "*"))), max_size=2)
plugin_sets = st.builds(PluginSet, enabled=enabled_lists, disabled=disabled_lists)
sparse_sets = st.one_of(st.just(PluginSet()), plugin_sets)
plugins = st.fixed_dictionaries({f.name: sparse_sets for f in attrs.fields(Plugins)}).map(
    lambda sets: Plugins(**sets)
)


@given(
    st.lists(st.sampled_from(NAMES), unique=True).map(
        lambda names: PluginSet(enabled=[Plugin(n) for n in names])
    ),
    plugin_sets,
)
def test_merge_keeps_every_custom_plugin_and_only_enabled_defaults(
    default: PluginSet, custom: PluginSet
) -> None:
    merged = merge_plugin_set(default, custom)
    disabled = {p.name for p in custom.disabled}
    assert [p.name for p in merged.disabled] == [p.name for p in custom.disabled]
    custom_names = {p.name for p in custom.enabled}
    kept = (
        []
        if "*" in disabled
        else [p for p in default.enabled if p.name not in disabled and p.name not in custom_names]
    )
    assert Counter(merged.enabled) == Counter(kept) + Counter(custom.enabled)
    # Defaults keep their relative order.
    positions = [merged.enabled.index(p) for p in kept]
    assert positions == sorted(positions)


@FIXTURES_ARE_PURE
@given(
    points=st.fixed_dictionaries(
        {name: st.lists(st.sampled_from(CONFIG_POINTS), unique=True) for name in NAMES}
    ),
    config=plugins,
)
def test_expanded_points_hold_only_plugins_that_serve_them(
    points: dict[str, list[str]], config: Plugins, make_plugin: Any
) -> None:
    registry = Registry()
    for name, served in points.items():
        registry.register(name, make_plugin(name, *served))
    [built], _ = build_profiles(
        [KubeSchedulerProfile(scheduler_name="p", plugins=config)], registry
    )
    sets = config.by_point()
    multi = {p.name for p in sets["multiPoint"].enabled}
    for point in CONFIG_POINTS:
        names = built.plugins[point]
        assert len(names) == len(set(names))
        disabled = {p.name for p in sets[point].disabled}
        explicit = {p.name for p in sets[point].enabled}
        for name in names:
            assert implements(registry.load(name), point)
            from_multi = name in multi and name not in disabled and "*" not in disabled
            assert name in explicit or from_multi
    assert set(built.score_weights) == set(built.plugins["score"])
    assert all(w >= 1 for w in built.score_weights.values())


profiles = st.lists(
    st.builds(
        KubeSchedulerProfile,
        percentage_of_nodes_to_score=st.one_of(st.none(), st.integers(0, 100)),
        plugins=st.one_of(
            st.none(),
            st.builds(
                lambda score, disabled: Plugins(
                    score=PluginSet(enabled=score), multi_point=PluginSet(disabled=disabled)
                ),
                st.lists(
                    st.builds(
                        Plugin,
                        st.sampled_from(["TaintToleration", "NodeAffinity", "NodeResourcesFit"]),
                        weights,
                    ),
                    unique_by=lambda p: p.name,
                ),
                st.lists(
                    st.builds(Plugin, st.sampled_from(["NodeName", "TaintToleration"])),
                    unique_by=lambda p: p.name,
                ),
            ),
        ),
        plugin_config=st.lists(
            st.builds(
                PluginConfig,
                st.just("DefaultPreemption"),
                st.fixed_dictionaries(
                    {"minCandidateNodesPercentage": st.integers(0, 100)},
                    optional={"minCandidateNodesAbsolute": st.integers(1, 500)},
                ),
            ),
            max_size=1,
        ),
    ),
    min_size=1,
    max_size=3,
).map(lambda ps: [evolve(p, scheduler_name=f"profile-{i}") for i, p in enumerate(ps)])


@FIXTURES_ARE_PURE
@given(
    cfg=st.builds(
        KubeSchedulerConfiguration,
        parallelism=st.integers(1, 64),
        percentage_of_nodes_to_score=st.integers(0, 100),
        pod_initial_backoff_seconds=st.integers(1, 5),
        pod_max_backoff_seconds=st.integers(5, 60),
        delay_cache_until_active=st.booleans(),
        profiles=profiles,
    )
)
def test_printed_config_loads_back_unchanged(
    cfg: KubeSchedulerConfiguration, kubesched_registry: Registry
) -> None:
    checked, _, errors = check_config(apply_defaults(cfg, kubesched_registry), kubesched_registry)
    assume(not errors)
    text = yaml.safe_dump(config_document(checked, kubesched_registry), sort_keys=False)
    assert parse_config(text, kubesched_registry) == checked
