"""Build each profile's EffectiveProfile the way upstream's NewFramework builds a framework.

For every extension point: the explicitly enabled plugins (which must exist,
implement the point and appear once), then multiPoint expansion: a multiPoint
plugin joins every point it implements unless disabled there (or "*" is); one
also enabled explicitly at a point keeps its explicit place. Final order per
point: the explicit plugins that override multiPoint, then the multiPoint
plugins, then the other explicit ones. Then: exactly one QueueSort, at least
one Bind, Score weights (the score point's weight over multiPoint's; unset or
0 is 1) that cannot overflow, and one QueueSort (with the same args) across
profiles (pkg/scheduler/profile).

Errors use upstream's messages, each prefixed with the field path that
caused it.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from typing import Any

from kubesched.config import (
    KubeSchedulerConfiguration,
    KubeSchedulerProfile,
    Plugins,
    prepare_config,
)
from kubesched.config.defaults import WILDCARD
from kubesched.errors import ConfigError, PluginError
from kubesched.framework import MAX_NODE_SCORE, MAX_TOTAL_SCORE, PluginFactory, Registry
from kubesched.framework._points import CONSTRUCTION_ORDER, EXTENSION_POINTS, POINTS
from kubesched.framework._profile import EffectiveProfile
from kubesched.framework._registry import implements, install_hint
from kubesched.framework._runtime import Framework


def _already_registered(at: str, name: str, point: str) -> str:
    return f'{at}: plugin "{name}" already registered as "{POINTS[point].plugin_type}"'


def _does_not_exist(point: str | None, name: str, registry: Registry) -> str:
    """Upstream's `<Point>Plugin "X" does not exist`, and why, and what to do about it."""
    kind = POINTS[point].plugin_type if point is not None else "plugin"
    message = f'{kind} "{name}" does not exist'
    hint = install_hint(name)
    close = difflib.get_close_matches(name, registry.names(), n=1)
    if name in registry.held_back:
        message += f" (it is installed, but {registry.held_back[name]})"
    elif hint is not None:
        message += f" (it is not installed; install it with: {hint})"
    elif close:
        message += f', did you mean "{close[0]}"?'
    return message


_DEFAULT_FOR = {"queueSort": "PrioritySort", "bind": "DefaultBinder"}
"""The built-in plugin that fills a point a profile cannot do without."""


def _missing_builtin_hint(point: str, registry: Registry) -> str:
    """Appended to "no queue sort / bind plugin" when the built-in one is not installed: in a
    venv with kubesched-core alone, the cause is the missing built-in plugins."""
    name = _DEFAULT_FOR[point]
    if name in registry:
        return ""
    return (
        f"; the built-in plugins ({name} for {POINTS[point].title}) are not installed: "
        f'they come with "pip install kubesched" ({name} alone: "{install_hint(name)}")'
    )


class _ProfileBuilder:
    """The state of building one profile: its factories and the errors found."""

    def __init__(self, profile: KubeSchedulerProfile, path: str, registry: Registry) -> None:
        self.profile = profile
        self.registry = registry
        self.path = path
        self.name = profile.scheduler_name or ""
        self.sets = (profile.plugins or Plugins()).by_point()
        self.errors: list[str] = []
        self.factories: dict[str, PluginFactory] = {}
        self.broken: set[str] = set()
        self.registry = registry
        self._load_needed(registry)

    def _load_needed(self, registry: Registry) -> None:
        needed = dict.fromkeys(p.name for s in self.sets.values() for p in s.enabled)
        for name in needed:
            if name not in registry:
                continue
            try:
                self.factories[name] = registry.load(name)
            except PluginError as exc:
                self.broken.add(name)
                self.errors.append(f'{self.path}: {exc} (needed by profile "{self.name}")')

    def _explicit(self, point: str) -> list[str]:
        """The point's own enabled list, checked as upstream's updatePluginList does."""
        names: list[str] = []
        for j, plugin in enumerate(self.sets[point].enabled):
            at = f"{self.path}.plugins.{point}.enabled[{j}]"
            factory = self.factories.get(plugin.name)
            if factory is None:
                if plugin.name not in self.broken:
                    self.errors.append(
                        f"{at}: {_does_not_exist(point, plugin.name, self.registry)}"
                    )
            elif not implements(factory, point):
                kind = POINTS[point].plugin_type
                self.errors.append(f'{at}: plugin "{plugin.name}" does not extend {kind} plugin')
            elif plugin.name in names:
                self.errors.append(_already_registered(at, plugin.name, point))
            else:
                names.append(plugin.name)
        return names

    def _expand(self, point: str, explicit: list[str], reported: set[str]) -> list[str]:
        """multiPoint expansion into one point (upstream's expandMultiPointPlugins)."""
        disabled = {p.name for p in self.sets[point].disabled}
        if WILDCARD in disabled:
            return explicit
        at = f"{self.path}.plugins.multiPoint.enabled"
        overrides: set[str] = set()
        multi: list[str] = []
        for plugin in self.sets["multiPoint"].enabled:
            factory = self.factories.get(plugin.name)
            if factory is None:
                if plugin.name not in self.broken and plugin.name not in reported:
                    reported.add(plugin.name)
                    self.errors.append(f"{at}: {_does_not_exist(None, plugin.name, self.registry)}")
                continue
            if not implements(factory, point) or plugin.name in disabled:
                continue
            if plugin.name in explicit:
                overrides.add(plugin.name)
            elif plugin.name in multi:
                self.errors.append(_already_registered(at, plugin.name, point))
            else:
                multi.append(plugin.name)
        first = [n for n in explicit if n in overrides]
        rest = [n for n in explicit if n not in overrides]
        return [*first, *multi, *rest]

    def _score_weights(self, score_plugins: Sequence[str]) -> dict[str, int]:
        """Weights from the score point, then multiPoint (upstream's getScoreWeights)."""
        weights: dict[str, int] = {}
        total = 0
        for plugin in (*self.sets["score"].enabled, *self.sets["multiPoint"].enabled):
            factory = self.factories.get(plugin.name)
            if factory is None or not implements(factory, "score") or plugin.name in weights:
                continue
            weight = plugin.weight or 1
            weights[plugin.name] = weight
            if weight * MAX_NODE_SCORE > MAX_TOTAL_SCORE - total:
                self.errors.append(
                    f"{self.path}.plugins.score: total score of Score plugins could overflow"
                )
                break
            total += weight * MAX_NODE_SCORE
        return {name: weights[name] for name in score_plugins if name in weights}

    def build(self) -> EffectiveProfile:
        """The effective profile; `errors` says what is wrong with it."""
        plugins: dict[str, list[str]] = {}
        reported: set[str] = set()
        for point in CONSTRUCTION_ORDER:
            plugins[point.name] = self._expand(point.name, self._explicit(point.name), reported)
        if len(plugins["queueSort"]) != 1:
            hint = "" if plugins["queueSort"] else _missing_builtin_hint("queueSort", self.registry)
            self.errors.append(
                f"{self.path}.plugins.queueSort: only one queue sort plugin required for profile "
                f'with scheduler name "{self.name}", but got {len(plugins["queueSort"])}' + hint
            )
        if not plugins["bind"]:
            self.errors.append(
                f"{self.path}.plugins.bind: at least one bind plugin is needed for profile "
                f'with scheduler name "{self.name}"' + _missing_builtin_hint("bind", self.registry)
            )
        weights = self._score_weights(plugins["score"])
        needed = set(self.factories)
        args = {e.name: e.args for e in self.profile.plugin_config if e.name in needed}
        return EffectiveProfile(
            scheduler_name=self.name,
            plugins={p.name: tuple(plugins[p.name]) for p in EXTENSION_POINTS},
            score_weights=weights,
            plugin_args={name: a for name, a in args.items() if a is not None},
            percentage_of_nodes_to_score=self.profile.percentage_of_nodes_to_score,
        )


def build_profiles(
    profiles: Sequence[KubeSchedulerProfile], registry: Registry
) -> tuple[list[EffectiveProfile], list[str]]:
    """Every profile built, and one line per construction problem."""
    built: list[EffectiveProfile] = []
    errors: list[str] = []
    for i, profile in enumerate(profiles):
        builder = _ProfileBuilder(profile, f"profiles[{i}]", registry)
        built.append(builder.build())
        errors += builder.errors
    errors += _queue_sort_consistency(built)
    return built, errors


def _queue_sort_consistency(profiles: Sequence[EffectiveProfile]) -> list[str]:
    """One scheduling queue: every profile sorts it with the same plugin and args."""
    errors = []
    first: tuple[str, Any] | None = None
    for i, profile in enumerate(profiles):
        if len(profile.plugins.get("queueSort", ())) != 1:
            continue
        name = profile.plugins["queueSort"][0]
        current = (name, profile.plugin_args.get(name))
        if first is None:
            first = current
        elif current[0] != first[0]:
            errors.append(
                f"profiles[{i}]: different queue sort plugins for profile "
                f'"{profile.scheduler_name}": "{current[0]}", first: "{first[0]}"'
            )
        elif current[1] != first[1]:
            errors.append(
                f"profiles[{i}]: different queue sort plugin args for profile "
                f'"{profile.scheduler_name}"'
            )
    return errors


def check_config(
    cfg: KubeSchedulerConfiguration, registry: Registry
) -> tuple[KubeSchedulerConfiguration, list[EffectiveProfile], list[str]]:
    """A defaulted configuration's plugin args structured, upstream's validation, the profiles
    built: the configuration with typed args, the effective profiles, and one
    `<path>: <message>` line per problem."""
    cfg, errors = prepare_config(cfg, registry)
    profiles, build_errors = build_profiles(cfg.profiles, registry)
    return cfg, profiles, errors + build_errors


def effective_profiles(
    cfg: KubeSchedulerConfiguration, registry: Registry
) -> list[EffectiveProfile]:
    """What each profile of a configuration runs; ConfigError listing every problem."""
    _, profiles, errors = check_config(cfg, registry)
    if errors:
        raise ConfigError(errors)
    return profiles


def construction_errors(profiles: Sequence[EffectiveProfile], registry: Registry) -> list[str]:
    """Build every profile's framework as a scheduler would (each plugin constructed with
    its args, its hookimpls checked against the hookspecs): one line per failure."""
    errors = []
    for i, profile in enumerate(profiles):
        try:
            Framework(profile, registry)
        except PluginError as exc:
            errors.append(f"profiles[{i}]: {exc}")
    return errors
