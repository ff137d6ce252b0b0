"""The plugin Registry: plugin name -> factory, discovered from entry points.

Every distribution that declares entry points in the `kubesched.plugins`
group contributes plugins (entry name = plugin name, value = factory). The
built-in distributions are "in-tree", every other one "out-of-tree"; plugins
can also be registered in code. Discovery reads metadata only; a plugin's
module is imported when it is first loaded. A name that two sources claim is
an error naming both, never a silent override (upstream's Registry.Merge).
A distribution whose `kubesched-core` range (its Requires-Dist) excludes the
installed core is listed but not loaded, with one warning (`_compat`).

Environment switches (pytest's and llm's conventions):

- `KUBESCHED_DISABLE_PLUGIN_AUTOLOAD=1`: out-of-tree distributions are not
  loaded unless named in `KUBESCHED_LOAD_PLUGINS`;
- `KUBESCHED_LOAD_PLUGINS=a,b`: only these out-of-tree plugins (by plugin or
  distribution name) are loaded; an empty value loads none.
"""

from __future__ import annotations

import importlib
import importlib.metadata as md
import inspect
import os
from collections.abc import Iterator, Mapping
from functools import cache
from typing import Any, cast

import attrs
from attrs import frozen

from kubesched.discovery import (
    DISABLE_AUTOLOAD_ENV,
    IN_TREE_DISTRIBUTIONS,
    IN_TREE_PLUGINS,
    LOAD_PLUGINS_ENV,
    autoload_disabled,
    incompatibility,
    installed_core_version,
    load_list,
    normalize_distribution_name,
)
from kubesched.errors import PluginError
from kubesched.framework._interface import PluginFactory
from kubesched.framework._points import EXTENSION_POINTS, POINTS
from kubesched.framework._renames import implemented_name
from kubesched.framework.hookspecs import PROJECT_NAME

ENTRY_POINT_GROUP = "kubesched.plugins"
IN_TREE = "in-tree"
OUT_OF_TREE = "out-of-tree"


def install_hint(name: str) -> str | None:
    """How to install an in-tree plugin that is missing ("pip install kubesched-nodename")."""
    dist = IN_TREE_PLUGINS.get(name)
    return f"pip install {dist}" if dist else None


@frozen
class PluginSpec:
    """Where a plugin comes from; `load()` imports and returns its factory."""

    name: str
    source: str
    distribution: str | None = None
    version: str | None = None
    value: str | None = None

    def describe(self) -> str:
        """`kubesched-foo 1.0` or `registered in code`, for messages."""
        if self.distribution is None:
            return "registered in code"
        return f"{self.distribution} {self.version}" if self.version else self.distribution


class Registry:
    """Plugin name -> PluginSpec, with lazily loaded, cached factories."""

    def __init__(self) -> None:
        self._specs: dict[str, PluginSpec] = {}
        self._factories: dict[str, PluginFactory] = {}
        self._conflicts: dict[str, list[PluginSpec]] = {}
        self.held_back: dict[str, str] = {}
        """Installed plugins the environment switches kept out -> which switch, and how."""
        self.incompatible: dict[str, str] = {}
        """Plugins of distributions that do not support the installed kubesched-core -> why."""
        self.warnings: list[str] = []
        """What a user should hear once: switches that make no sense, incompatible
        distributions."""

    @classmethod
    def discover(
        cls, environ: Mapping[str, str] | None = None, *, core_version: str | None = None
    ) -> Registry:
        """Every plugin that installed distributions declare, filtered by the env switches;
        `core_version` (default: the installed kubesched-core) is what ranges are checked
        against."""
        env = os.environ if environ is None else environ
        core = installed_core_version() if core_version is None else core_version
        wanted = load_list(env)
        autoload = not autoload_disabled(env)
        registry = cls()
        seen: set[str] = set()
        matched: set[str] = set()
        for dist in md.distributions():
            dist_name = normalize_distribution_name(dist.metadata["Name"] or "")
            if dist_name in seen:
                continue  # a second copy of the same distribution further down sys.path
            seen.add(dist_name)
            unsupported: str | None = None
            checked = False
            for ep in dist.entry_points:
                if ep.group != ENTRY_POINT_GROUP:
                    continue
                source = IN_TREE if dist_name in IN_TREE_DISTRIBUTIONS else OUT_OF_TREE
                named = wanted is not None and (ep.name in wanted or dist_name in wanted)
                if named:
                    matched.update({ep.name, dist_name})
                if source == OUT_OF_TREE and (wanted is not None or not autoload) and not named:
                    unnamed = f"{LOAD_PLUGINS_ENV} does not name it"
                    registry.held_back[ep.name] = (
                        unnamed
                        if wanted is not None
                        else f"{DISABLE_AUTOLOAD_ENV} is set and {unnamed}"
                    )
                    continue
                spec = PluginSpec(ep.name, source, dist_name, dist.version, ep.value)
                registry._add(spec)
                if not checked:
                    checked = True
                    unsupported = incompatibility(dist_name, dist.version, dist.requires, core)
                    if unsupported:
                        registry.warnings.append(f"{unsupported}: its plugins are not loaded")
                if unsupported:
                    registry.incompatible[ep.name] = unsupported
        for unknown in sorted((wanted or set()) - matched):
            registry.warnings.append(
                f"{LOAD_PLUGINS_ENV} names {unknown!r}: no installed plugin or distribution"
            )
        return registry

    def _add(self, spec: PluginSpec, factory: PluginFactory | None = None) -> None:
        existing = self._specs.get(spec.name)
        if existing is not None:
            self._conflicts.setdefault(spec.name, [existing]).append(spec)
            return
        self._specs[spec.name] = spec
        if factory is not None:
            self._factories[spec.name] = factory

    def names(self) -> list[str]:
        """Every plugin name, sorted (for suggestions)."""
        return sorted(self._specs)

    def register(self, name: str, factory: PluginFactory, *, source: str = OUT_OF_TREE) -> None:
        """Register a plugin in code (upstream's app.WithPlugin); a taken name is an error."""
        if name in self._specs:
            raise PluginError(
                f'a plugin named "{name}" already exists ({self._specs[name].describe()})'
            )
        self._add(PluginSpec(name, source), factory)

    def merge(self, other: Registry) -> None:
        """Add every plugin of `other`; a name both have is an error naming both sources."""
        for name, spec in other._specs.items():
            if name in self._specs:
                raise PluginError(_conflict_message(name, [self._specs[name], spec]))
            self._add(spec, other._factories.get(name))

    def __contains__(self, name: object) -> bool:
        return name in self._specs

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(self._specs))

    def __len__(self) -> int:
        return len(self._specs)

    def get(self, name: str) -> PluginSpec:
        return self._specs[name]

    def conflicts(self) -> dict[str, str]:
        """Plugin name -> error message, for every name claimed more than once."""
        return {name: _conflict_message(name, specs) for name, specs in self._conflicts.items()}

    def load(self, name: str) -> PluginFactory:
        """Import the plugin's factory (once); every failure is a PluginError naming it."""
        if name in self._conflicts:
            raise PluginError(_conflict_message(name, self._conflicts[name]))
        if name in self.incompatible:
            raise PluginError(f'plugin "{name}" is not loaded: {self.incompatible[name]}')
        factory = self._factories.get(name)
        if factory is not None:
            return factory
        spec = self._specs.get(name)
        if spec is None:
            hint = install_hint(name)
            suffix = f"; install it with: {hint}" if hint else ""
            raise PluginError(f'plugin "{name}" is not installed{suffix}')
        assert spec.value is not None
        entry_point = md.EntryPoint(name, spec.value, ENTRY_POINT_GROUP)
        try:
            module = importlib.import_module(entry_point.module)
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # SystemExit at import time included
            raise PluginError(
                f'plugin "{name}" from {spec.describe()} failed to load: importing '
                f"{entry_point.module} raised {type(exc).__name__}: {exc}"
            ) from exc
        loaded: Any = module
        for attr in (entry_point.attr or "").split("."):
            loaded = getattr(loaded, attr, None) if attr else loaded
        if loaded is None:
            raise PluginError(
                f'plugin "{name}" from {spec.describe()}: entry point {spec.value!r} names '
                f"{entry_point.attr!r}, which module {entry_point.module} does not define"
            )
        if not callable(loaded):
            raise PluginError(
                f'plugin "{name}" from {spec.describe()}: entry point {spec.value!r} '
                "is not a factory (a class or a callable (args, handle) -> plugin)"
            )
        factory = cast(PluginFactory, loaded)
        self._factories[name] = factory
        return factory

    def loadable(self, name: str) -> PluginFactory | None:
        """The plugin's factory, or None when it is not installed or does not load
        (building a profile that needs it reports why)."""
        if name not in self._specs:
            return None
        try:
            return self.load(name)
        except PluginError:
            return None

    def args_type(self, name: str) -> type | None:
        """The attrs class the plugin declares for its args (`args_type`), if any."""
        declared = getattr(self.loadable(name), "args_type", None)
        return declared if isinstance(declared, type) and attrs.has(declared) else None

    def args_kind(self, name: str) -> str:
        """The `kind` of the plugin's args: what it declares (`args_kind`), else upstream's
        `<Name>Args`."""
        declared = getattr(self.loadable(name), "args_kind", None)
        return declared if isinstance(declared, str) and declared else f"{name}Args"


def _conflict_message(name: str, specs: list[PluginSpec]) -> str:
    sources = " and ".join(sorted(s.describe() for s in specs))
    return f'plugin "{name}" is provided by more than one source: {sources}; uninstall one of them'


@cache
def default_registry() -> Registry:
    """The registry discovered from this process's environment (once per process)."""
    return Registry.discover()


def hooks_of(factory: Any) -> frozenset[str]:
    """The hook names a plugin implements with `@hookimpl` (a renamed hook's new name for
    an implementation under its former one).

    `factory` is a plugin class, a plugin instance, or a factory function that
    names the class it builds in a `plugin_class` attribute.
    """
    marker = f"{PROJECT_NAME}_impl"
    if inspect.isclass(factory):
        target = factory
    elif inspect.isfunction(factory) and hasattr(factory, "plugin_class"):
        target = factory.plugin_class
    else:
        target = type(factory)
    found: set[str] = set()
    for attr_name, attr in inspect.getmembers(target):
        opts = getattr(attr, marker, None)
        if isinstance(opts, dict):
            found.add(implemented_name(opts.get("specname") or attr_name))
    return frozenset(found)


def implements(factory: Any, point: str) -> bool:
    """Does the plugin serve config point `point` ("filter", "score", ...)?"""
    return POINTS[point].hook in hooks_of(factory)


def points_of(factory: Any) -> list[str]:
    """The config points a plugin serves, in pipeline order."""
    hooks = hooks_of(factory)
    return [p.name for p in EXTENSION_POINTS if p.hook in hooks]
