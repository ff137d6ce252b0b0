"""What a harness is handed as its plugin (a class, or a plugin built already), and how it
becomes a registered factory, typed args and a hook caller of its own."""

from __future__ import annotations

import inspect
from typing import Any, TypeAlias

import pluggy

from kubesched.config.converter import StructureError
from kubesched.config.plugin_args import structure_args
from kubesched.errors import ConfigError, PluginError
from kubesched.framework import hookspecs
from kubesched.framework._deprecations import register_plugin
from kubesched.framework._interface import PluginFactory
from kubesched.framework._registry import Registry, hooks_of

PluginSource: TypeAlias = object
"""A plugin class (the factory its entry point names), or a plugin built already."""


def _factory_and_name(plugin: PluginSource, name: str | None) -> tuple[PluginFactory, str]:
    """The factory to register and the plugin's name (its `name`, else the class name)."""
    if inspect.isclass(plugin):
        return plugin, name or str(getattr(plugin, "name", plugin.__name__))
    if hooks_of(plugin):
        return _prebuilt(plugin), name or str(getattr(plugin, "name", type(plugin).__name__))
    raise PluginError(
        f"{plugin!r} is neither a plugin class nor a plugin "
        "(the framework reads a plugin's hooks from its class)"
    )


def _prebuilt(plugin: object) -> PluginFactory:
    """A factory class with the plugin's hooks that returns `plugin` itself."""

    class Prebuilt(type(plugin)):  # type: ignore[misc]
        def __new__(cls, args: Any, handle: Any) -> Any:
            return plugin

    return Prebuilt


def _typed_args(name: str, registry: Registry, args: Any) -> Any:
    """`args` as the plugin's args class, validated, the way the config layer does it."""
    if args is None or registry.args_type(name) is None:
        return args
    try:
        typed = structure_args(name, registry, args, "args")
    except StructureError as exc:
        raise ConfigError(exc.errors) from None
    validate = getattr(typed, "validate", None)
    errors = validate("args") if validate is not None else []
    if errors:
        raise ConfigError(list(errors))
    return typed


def _hook_caller(plugin: object, name: str) -> pluggy.HookRelay:
    """Hooks of this one plugin, callable by keyword with pluggy's argument matching."""
    pm = pluggy.PluginManager(hookspecs.PROJECT_NAME)
    pm.add_hookspecs(hookspecs)
    register_plugin(pm, plugin, name, f'plugin "{name}"')
    return pm.hook
