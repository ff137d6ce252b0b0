"""Evolving the hookspecs without silently breaking installed plugins.

A hook or hook argument that is renamed or retired stays in `hookspecs`,
marked with pluggy's own deprecation options: `warn_on_impl` (the whole hook)
or `warn_on_impl_args` (one argument), whose value comes from
`deprecated_hook` / `deprecated_argument` below. pluggy emits the warning when
a plugin implementing it is registered; `register_plugin` turns it into one
`PluginDeprecationWarning` naming the plugin, once per process.
A hook implemented under a former name (`_renames.RENAMED_HOOKS`) is called
through its new name and warned about the same way. `deprecated_uses` reads
the same markers and renames, so `kubesched plugins` flags a plugin without
running it. The policy (how long a deprecated hook keeps
working) is in docs/writing-plugins/compatibility.md.
"""

from __future__ import annotations

import inspect
import warnings
from types import ModuleType
from typing import Any

import pluggy

from kubesched.errors import PluginDeprecationWarning
from kubesched.framework import hookspecs
from kubesched.framework._registry import hooks_of
from kubesched.framework._renames import with_renamed_hooks

_warned: set[tuple[str, str]] = set()
"""(plugin name, deprecation message) pairs already warned about in this process."""


def deprecated_hook(
    hook: str, *, since: str, removal: str, replacement: str | None = None
) -> PluginDeprecationWarning:
    """The `warn_on_impl` value of a deprecated hook."""
    instead = f"; implement {replacement} instead" if replacement else ""
    return PluginDeprecationWarning(
        f"hook {hook} is deprecated since kubesched-core {since} and is removed in "
        f"{removal}{instead}"
    )


def deprecated_argument(
    hook: str, argument: str, *, since: str, removal: str, replacement: str | None = None
) -> PluginDeprecationWarning:
    """A `warn_on_impl_args` value: the warning for `hook`'s deprecated `argument`."""
    instead = f"; take {replacement} instead" if replacement else ""
    return PluginDeprecationWarning(
        f"argument {argument} of hook {hook} is deprecated since kubesched-core {since} "
        f"and is removed in {removal}{instead}"
    )


def _spec_options(module: ModuleType) -> dict[str, dict[str, Any]]:
    marker = f"{hookspecs.PROJECT_NAME}_spec"
    return {
        name: opts
        for name, fn in vars(module).items()
        if isinstance(opts := getattr(fn, marker, None), dict)
    }


def deprecated_uses(factory: Any, module: ModuleType = hookspecs) -> list[str]:
    """What deprecated hooks and arguments a plugin's hookimpls use, one message each,
    read from the hookspecs' markers (the plugin is not built)."""
    specs = _spec_options(module)
    if inspect.isclass(factory):
        target = factory
    elif inspect.isfunction(factory) and hasattr(factory, "plugin_class"):
        target = factory.plugin_class
    else:
        target = type(factory)
    found = [str(rename.warning()) for rename in with_renamed_hooks(target)[1]]
    for hook in sorted(hooks_of(factory)):
        opts = specs.get(hook)
        if opts is None:
            continue
        if opts.get("warn_on_impl") is not None:
            found.append(str(opts["warn_on_impl"]))
        impl = _impl_function(target, hook)
        by_arg = opts.get("warn_on_impl_args") or {}
        if impl is not None and by_arg:
            params = inspect.signature(impl).parameters
            found += [str(by_arg[arg]) for arg in params if arg in by_arg]
    return found


def _impl_function(target: Any, hook: str) -> Any:
    marker = f"{hookspecs.PROJECT_NAME}_impl"
    for attr_name, attr in inspect.getmembers(target):
        opts = getattr(attr, marker, None)
        if isinstance(opts, dict) and (opts.get("specname") or attr_name) == hook:
            return attr
    return None


def register_plugin(pm: pluggy.PluginManager, plugin: object, name: str, where: str) -> None:
    """`pm.register(plugin)`, with each deprecation it triggers warned once per process as a
    PluginDeprecationWarning naming the plugin (`where`: its source, for the message)."""
    registered, renames = with_renamed_hooks(plugin)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", PluginDeprecationWarning)
        for rename in renames:
            warnings.warn(rename.warning(), stacklevel=1)
        pm.register(registered, name=name)
    for w in caught:
        if not issubclass(w.category, PluginDeprecationWarning):
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
            continue
        key = (name, str(w.message))
        if key in _warned:
            continue
        _warned.add(key)
        warnings.warn(
            PluginDeprecationWarning(f"{where}: {w.message}"),
            stacklevel=2,
        )
