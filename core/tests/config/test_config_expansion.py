"""Building profiles as upstream's NewFramework does: framework_test.go's tables, as data."""

from __future__ import annotations

from typing import Any

import pytest

from kubesched.config import (
    KubeSchedulerConfiguration,
    KubeSchedulerProfile,
    Plugin,
    PluginConfig,
    Plugins,
    PluginSet,
    apply_defaults,
)
from kubesched.config.defaults import merge_plugins
from kubesched.errors import ConfigError, PluginError
from kubesched.framework import EXTENSION_POINTS
from kubesched.framework._profile import EffectiveProfile
from kubesched.framework._registry import Registry
from kubesched.profile import build_profiles, effective_profiles

CONFIG_POINTS = tuple(p.name for p in EXTENSION_POINTS)

ALL_BUT_PRE_ENQUEUE = tuple(p for p in CONFIG_POINTS if p != "preEnqueue")


@pytest.fixture
def registry(make_plugin: Any) -> Registry:
    """The plugins of upstream's framework_test.go registry."""
    registry = Registry()
    for name, points in {
        "test-plugin": ALL_BUT_PRE_ENQUEUE,
        "score-plugin-1": ("preScore", "score"),
        "score-plugin-2": ("preScore", "score"),
        "score-with-normalize-plugin-1": ("score",),
        "score-with-normalize-plugin-2": ("score",),
        "plugin-not-implementing-score": (),
        "duplicate-plugin": ("preFilter",),
        "no-op-queue-sort-plugin": ("queueSort",),
        "bind-plugin": ("bind",),
    }.items():
        registry.register(name, make_plugin(name, *points))
    return registry


def ps(
    enabled: tuple[str | tuple[str, int], ...] = (), disabled: tuple[str, ...] = ()
) -> PluginSet:
    return PluginSet(
        enabled=[Plugin(p) if isinstance(p, str) else Plugin(*p) for p in enabled],
        disabled=[Plugin(n) for n in disabled],
    )


def build_one(
    plugins: Plugins, registry: Registry, **profile: Any
) -> tuple[EffectiveProfile, list[str]]:
    [built], errors = build_profiles(
        [KubeSchedulerProfile(scheduler_name="test-profile", plugins=plugins, **profile)], registry
    )
    return built, errors


def everywhere(name: str, *, but: tuple[str, ...] = ()) -> dict[str, tuple[str, ...]]:
    """`name` alone at every point test-plugin implements, except `but`."""
    return {p: (name,) for p in ALL_BUT_PRE_ENQUEUE if p not in but}


# TestNewFrameworkMultiPointExpansion: (name, plugins, expected plugins per point, weights).
EXPANSION_CASES: list[tuple[str, Plugins, dict[str, tuple[str, ...]], dict[str, int]]] = [
    (
        "plugin expansion",
        Plugins(multi_point=ps([("test-plugin", 5)])),
        everywhere("test-plugin"),
        {"test-plugin": 5},
    ),
    (
        "disable MultiPoint plugin at some extension points",
        Plugins(
            multi_point=ps(["test-plugin"]),
            pre_score=ps(disabled=["test-plugin"]),
            score=ps(disabled=["test-plugin"]),
        ),
        everywhere("test-plugin", but=("preScore", "score")),
        {},
    ),
    (
        "Multiple MultiPoint plugins",
        Plugins(multi_point=ps(["test-plugin", "score-plugin-1"])),
        {
            **everywhere("test-plugin"),
            "preScore": ("test-plugin", "score-plugin-1"),
            "score": ("test-plugin", "score-plugin-1"),
        },
        {"test-plugin": 1, "score-plugin-1": 1},
    ),
    (
        "disable MultiPoint extension",
        Plugins(multi_point=ps(["test-plugin", "score-plugin-1"]), pre_score=ps(disabled=["*"])),
        {
            **everywhere("test-plugin", but=("preScore",)),
            "score": ("test-plugin", "score-plugin-1"),
        },
        {"test-plugin": 1, "score-plugin-1": 1},
    ),
    (
        "Reorder MultiPoint plugins (specified extension takes precedence)",
        Plugins(
            multi_point=ps(["score-with-normalize-plugin-1", "test-plugin", "score-plugin-1"]),
            score=ps(["score-plugin-1", "test-plugin"]),
        ),
        {
            **everywhere("test-plugin"),
            "preScore": ("test-plugin", "score-plugin-1"),
            "score": ("score-plugin-1", "test-plugin", "score-with-normalize-plugin-1"),
        },
        {"score-plugin-1": 1, "test-plugin": 1, "score-with-normalize-plugin-1": 1},
    ),
    (
        "Reorder MultiPoint plugins (specified extension only takes precedence when it exists "
        "in MultiPoint)",
        Plugins(
            multi_point=ps(["test-plugin", "score-plugin-1"]),
            score=ps(["score-with-normalize-plugin-1", "score-plugin-1", "test-plugin"]),
        ),
        {
            **everywhere("test-plugin"),
            "preScore": ("test-plugin", "score-plugin-1"),
            "score": ("score-plugin-1", "test-plugin", "score-with-normalize-plugin-1"),
        },
        {"score-plugin-1": 1, "test-plugin": 1, "score-with-normalize-plugin-1": 1},
    ),
    (
        "Override MultiPoint plugins weights",
        Plugins(
            multi_point=ps(["test-plugin", "score-plugin-1"]),
            score=ps([("score-plugin-1", 5), ("test-plugin", 3)]),
        ),
        {
            **everywhere("test-plugin"),
            "preScore": ("test-plugin", "score-plugin-1"),
            "score": ("score-plugin-1", "test-plugin"),
        },
        {"score-plugin-1": 5, "test-plugin": 3},
    ),
    (
        "disable and enable MultiPoint plugins with '*'",
        Plugins(
            multi_point=ps(
                ["no-op-queue-sort-plugin", "bind-plugin", "score-plugin-1"], disabled=["*"]
            )
        ),
        {
            "queueSort": ("no-op-queue-sort-plugin",),
            "preScore": ("score-plugin-1",),
            "score": ("score-plugin-1",),
            "bind": ("bind-plugin",),
        },
        {"score-plugin-1": 1},
    ),
    (
        "disable and enable MultiPoint plugin by name",
        Plugins(
            multi_point=ps(
                ["bind-plugin", "no-op-queue-sort-plugin", "score-plugin-1"],
                disabled=["score-plugin-1"],
            )
        ),
        {
            "queueSort": ("no-op-queue-sort-plugin",),
            "preScore": ("score-plugin-1",),
            "score": ("score-plugin-1",),
            "bind": ("bind-plugin",),
        },
        {"score-plugin-1": 1},
    ),
    (
        "Override MultiPoint plugins weights and avoid a plugin being loaded multiple times",
        Plugins(
            multi_point=ps(["test-plugin", "score-plugin-1"]),
            score=ps([("score-plugin-1", 5), ("score-plugin-2", 5), ("test-plugin", 3)]),
        ),
        {
            **everywhere("test-plugin"),
            "preScore": ("test-plugin", "score-plugin-1"),
            "score": ("score-plugin-1", "test-plugin", "score-plugin-2"),
        },
        {"score-plugin-1": 5, "test-plugin": 3, "score-plugin-2": 5},
    ),
]


@pytest.mark.parametrize(
    ("plugins", "expected", "weights"),
    [case[1:] for case in EXPANSION_CASES],
    ids=[case[0] for case in EXPANSION_CASES],
)
def test_multi_point_expansion(
    plugins: Plugins,
    expected: dict[str, tuple[str, ...]],
    weights: dict[str, int],
    registry: Registry,
) -> None:
    built, errors = build_one(plugins, registry)
    assert errors == []
    assert dict(built.plugins) == {p: expected.get(p, ()) for p in CONFIG_POINTS}
    assert dict(built.score_weights) == weights


def test_multi_point_double_registration(registry: Registry) -> None:
    _, errors = build_one(Plugins(multi_point=ps(["test-plugin", "test-plugin"])), registry)
    assert errors == [
        f'profiles[0].plugins.multiPoint.enabled: plugin "test-plugin" already registered as '
        f'"{title}Plugin"'
        for title in (
            "PreFilter", "Filter", "PostFilter", "Reserve", "PreScore", "Score", "PreBind",
            "Bind", "PostBind", "Permit", "QueueSort",
        )
    ]  # fmt: skip


def _with_sort_and_bind(plugins: Plugins) -> Plugins:
    """upstream's newFrameworkWithQueueSortAndBind."""
    queue_sort = plugins.queue_sort.enabled or [Plugin("no-op-queue-sort-plugin")]
    bind = plugins.bind.enabled or [Plugin("bind-plugin")]
    return merge_plugins(
        plugins, Plugins(queue_sort=PluginSet(enabled=queue_sort), bind=PluginSet(enabled=bind))
    )


# TestInitFrameworkWithScorePlugins: (name, score plugins, expected errors).
SCORE_INIT_CASES: list[tuple[str, tuple[str, ...] | None, list[str]]] = [
    (
        "enabled Score plugin doesn't exist in registry",
        ("notExist",),
        ['profiles[0].plugins.score.enabled[0]: ScorePlugin "notExist" does not exist'],
    ),
    (
        "enabled Score plugin doesn't extend the ScorePlugin interface",
        ("plugin-not-implementing-score",),
        [
            "profiles[0].plugins.score.enabled[0]: "
            'plugin "plugin-not-implementing-score" does not extend ScorePlugin plugin'
        ],
    ),
    ("Score plugins are nil", None, []),
    ("enabled Score plugin list is empty", (), []),
    ("enabled plugin only implements ScorePlugin interface", ("score-plugin-1",), []),
    (
        "enabled plugin implements ScoreWithNormalizePlugin interface",
        ("score-with-normalize-plugin-1",),
        [],
    ),
]


@pytest.mark.parametrize(
    ("score", "errors"),
    [case[1:] for case in SCORE_INIT_CASES],
    ids=[case[0] for case in SCORE_INIT_CASES],
)
def test_init_with_score_plugins(
    score: tuple[str, ...] | None, errors: list[str], registry: Registry
) -> None:
    plugins = Plugins() if score is None else Plugins(score=ps(score))
    built, got = build_one(_with_sort_and_bind(plugins), registry)
    assert got == errors
    if not errors:
        assert built.plugins["score"] == (score or ())


def test_duplicate_plugin_at_one_point(registry: Registry) -> None:
    # TestNewFrameworkErrors "duplicate plugin name".
    plugins = _with_sort_and_bind(
        Plugins(pre_filter=ps([("duplicate-plugin", 1), ("duplicate-plugin", 1)]))
    )
    _, errors = build_one(plugins, registry)
    assert errors == [
        "profiles[0].plugins.preFilter.enabled[1]: "
        'plugin "duplicate-plugin" already registered as "PreFilterPlugin"'
    ]


def test_unknown_multi_point_plugin_is_reported_once(registry: Registry) -> None:
    plugins = _with_sort_and_bind(Plugins(multi_point=ps(["Nope"])))
    _, errors = build_one(plugins, registry)
    # Upstream names the first extension point it expands ("PreFilterPlugin"), which
    # misleads when the plugin is meant for another point; a multiPoint entry has none.
    assert errors == ['profiles[0].plugins.multiPoint.enabled: plugin "Nope" does not exist']


def test_a_missing_built_in_plugin_says_how_to_install_it(registry: Registry) -> None:
    plugins = _with_sort_and_bind(Plugins(score=ps([("ImageLocality", 1)])))
    _, errors = build_one(plugins, registry)
    assert errors == [
        'profiles[0].plugins.score.enabled[0]: ScorePlugin "ImageLocality" does not exist '
        "(it is not installed; install it with: pip install kubesched-imagelocality)"
    ]


NO_QUEUE_SORT_HINT = (
    "; the built-in plugins (PrioritySort for QueueSort) are not installed: they come with "
    '"pip install kubesched" (PrioritySort alone: "pip install kubesched-prioritysort")'
)
NO_BIND_HINT = (
    "; the built-in plugins (DefaultBinder for Bind) are not installed: they come with "
    '"pip install kubesched" (DefaultBinder alone: "pip install kubesched-defaultbinder")'
)


@pytest.mark.parametrize(
    ("queue_sort", "count", "hint"),
    [((), 0, NO_QUEUE_SORT_HINT), (("no-op-queue-sort-plugin", "test-plugin"), 2, "")],
    ids=["none", "two"],
)
def test_exactly_one_queue_sort(
    queue_sort: tuple[str, ...], count: int, hint: str, registry: Registry
) -> None:
    """Upstream's message first; with none, the hint that the built-in plugins are missing."""
    _, errors = build_one(Plugins(queue_sort=ps(queue_sort), bind=ps(["bind-plugin"])), registry)
    assert errors == [
        "profiles[0].plugins.queueSort: only one queue sort plugin required for profile with "
        f'scheduler name "test-profile", but got {count}{hint}'
    ]


def test_at_least_one_bind(registry: Registry) -> None:
    _, errors = build_one(Plugins(queue_sort=ps(["no-op-queue-sort-plugin"])), registry)
    assert errors == [
        "profiles[0].plugins.bind: at least one bind plugin is needed for profile with "
        f'scheduler name "test-profile"{NO_BIND_HINT}'
    ]


def test_no_install_hint_when_the_builtin_plugins_are_installed(
    registry: Registry, make_plugin: Any
) -> None:
    """The profile disabled them: installing anything would not help, so no hint."""
    registry.register("PrioritySort", make_plugin("PrioritySort", "queueSort"))
    registry.register("DefaultBinder", make_plugin("DefaultBinder", "bind"))
    _, errors = build_one(Plugins(), registry)
    assert errors == [
        "profiles[0].plugins.queueSort: only one queue sort plugin required for profile with "
        'scheduler name "test-profile", but got 0',
        "profiles[0].plugins.bind: at least one bind plugin is needed for profile with "
        'scheduler name "test-profile"',
    ]


def test_several_bind_plugins_are_allowed(registry: Registry) -> None:
    built, errors = build_one(
        _with_sort_and_bind(Plugins(bind=ps(["bind-plugin", "test-plugin"]))), registry
    )
    assert errors == []
    assert built.plugins["bind"] == ("bind-plugin", "test-plugin")


def test_score_weights_overflow(registry: Registry) -> None:
    huge = (2**63 - 1) // 100
    plugins = _with_sort_and_bind(
        Plugins(score=ps([("score-plugin-1", huge), ("score-plugin-2", 1)]))
    )
    _, errors = build_one(plugins, registry)
    assert errors == ["profiles[0].plugins.score: total score of Score plugins could overflow"]
    _, fine = build_one(
        _with_sort_and_bind(Plugins(score=ps([("score-plugin-1", huge)]))), registry
    )
    assert fine == []


def test_score_weight_zero_means_one(registry: Registry) -> None:
    built, _ = build_one(_with_sort_and_bind(Plugins(score=ps([("score-plugin-1", 0)]))), registry)
    assert dict(built.score_weights) == {"score-plugin-1": 1}


def test_plugin_args_go_to_needed_plugins_only(registry: Registry) -> None:
    built, _ = build_one(
        _with_sort_and_bind(Plugins(score=ps(["score-plugin-1"]))),
        registry,
        plugin_config=[
            PluginConfig("score-plugin-1", {"a": 1}),
            PluginConfig("score-plugin-2", {"b": 2}),
            PluginConfig("not-installed", {"c": 3}),
        ],
    )
    assert dict(built.plugin_args) == {"score-plugin-1": {"a": 1}}


def test_documented_multi_point_hierarchy(make_plugin: Any) -> None:
    """The precedence example of upstream's scheduler configuration docs."""
    registry = Registry()
    for name, points in {
        "DefaultQueueSort": ("queueSort",),
        "CustomQueueSort": ("queueSort",),
        "DefaultPlugin1": ("score", "filter"),
        "DefaultPlugin2": ("score",),
        "CustomPlugin1": ("score", "filter"),
        "CustomPlugin2": ("score", "filter"),
        "Binder": ("bind",),
    }.items():
        registry.register(name, make_plugin(name, *points))
    defaults = Plugins(
        multi_point=ps(["DefaultQueueSort", "DefaultPlugin1", "DefaultPlugin2", "Binder"])
    )
    custom = Plugins(
        multi_point=ps(
            ["CustomQueueSort", ("CustomPlugin1", 3), "CustomPlugin2"], ["DefaultQueueSort"]
        ),
        filter=ps(disabled=["DefaultPlugin1"]),
        score=ps(["DefaultPlugin2"]),
    )
    built, errors = build_one(merge_plugins(defaults, custom), registry)
    assert errors == []
    assert built.plugins["queueSort"] == ("CustomQueueSort",)
    assert built.plugins["filter"] == ("CustomPlugin1", "CustomPlugin2")
    assert built.plugins["score"] == (
        "DefaultPlugin2",
        "DefaultPlugin1",
        "CustomPlugin1",
        "CustomPlugin2",
    )
    assert dict(built.score_weights) == {
        "DefaultPlugin2": 1,
        "DefaultPlugin1": 1,
        "CustomPlugin1": 3,
        "CustomPlugin2": 1,
    }


def _profiles(*specs: tuple[str, str, Any]) -> list[KubeSchedulerProfile]:
    """Profiles (name, queue sort plugin, its args) with a binder."""
    return [
        KubeSchedulerProfile(
            scheduler_name=name,
            plugins=Plugins(queue_sort=ps([sort]), bind=ps(["bind-plugin"])),
            plugin_config=[PluginConfig(sort, args)] if args is not None else [],
        )
        for name, sort, args in specs
    ]


def test_profiles_share_one_queue_sort(registry: Registry) -> None:
    _, errors = build_profiles(
        _profiles(("a", "no-op-queue-sort-plugin", None), ("b", "test-plugin", None)), registry
    )
    assert errors == [
        'profiles[1]: different queue sort plugins for profile "b": "test-plugin", '
        'first: "no-op-queue-sort-plugin"'
    ]


def test_profiles_share_queue_sort_args(registry: Registry) -> None:
    _, errors = build_profiles(
        _profiles(
            ("a", "no-op-queue-sort-plugin", {"x": 1}), ("b", "no-op-queue-sort-plugin", {"x": 2})
        ),
        registry,
    )
    assert errors == ['profiles[1]: different queue sort plugin args for profile "b"']


class _BrokenRegistry(Registry):
    """A registry where "Broken" is installed but fails to import."""

    def load(self, name: str) -> Any:
        if name == "Broken":
            raise PluginError(
                'plugin "Broken" from kubesched-broken 1.0 failed to load: ImportError: boom'
            )
        return super().load(name)


def test_plugin_that_fails_to_load_names_profile_and_distribution(make_plugin: Any) -> None:
    registry = _BrokenRegistry()
    for name, point in (("Sort", "queueSort"), ("Bind", "bind"), ("Broken", "filter")):
        registry.register(name, make_plugin(name, point))
    plugins = Plugins(queue_sort=ps(["Sort"]), bind=ps(["Bind"]), filter=ps(["Broken"]))
    _, errors = build_one(plugins, registry)
    assert errors == [
        'profiles[0]: plugin "Broken" from kubesched-broken 1.0 failed to load: ImportError: boom '
        '(needed by profile "test-profile")'
    ]


def test_effective_profiles_raise_config_error_listing_every_problem(
    kubesched_registry: Registry,
) -> None:
    with pytest.raises(ConfigError) as info:
        effective_profiles(KubeSchedulerConfiguration(parallelism=0), kubesched_registry)
    assert info.value.errors == [
        "parallelism: Invalid value: 0: should be an integer value greater than zero",
        "profiles: Required value",
    ]
    # Defaulted, the same configuration only has its own mistake left.
    with pytest.raises(ConfigError) as info:
        effective_profiles(
            apply_defaults(KubeSchedulerConfiguration(parallelism=0), kubesched_registry),
            kubesched_registry,
        )
    assert info.value.errors == [
        "parallelism: Invalid value: 0: should be an integer value greater than zero"
    ]


def test_missing_in_tree_plugin_says_how_to_install_it(registry: Registry) -> None:
    plugins = Plugins(
        queue_sort=ps(("no-op-queue-sort-plugin",)),
        bind=ps(("bind-plugin",)),
        filter=ps(("TaintToleration",)),
    )
    _, errors = build_one(plugins, registry)
    assert errors == [
        'profiles[0].plugins.filter.enabled[0]: FilterPlugin "TaintToleration" does not exist '
        "(it is not installed; install it with: pip install kubesched-tainttoleration)"
    ]
