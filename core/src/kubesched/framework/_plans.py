"""Call plans: a profile's hookimpls compiled into ordered lists of plain functions.

pluggy validates every hookimpl at registration and calls them in reverse
registration order; the runtime needs profile order and no per-call
overhead, so it takes the validated functions out of pluggy once, for every
hook of every extension point, and calls them directly, positionally, in the
hookspec's argument order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pluggy

from kubesched.framework._plugin_calls import HookFn, PluginCall
from kubesched.framework._points import EXTENSION_POINTS

Plans = Mapping[str, tuple[PluginCall, ...]]
"""Hook name -> the calls of the plugins enabled at its point, in profile order."""


def positional_adapter(impl: pluggy.HookImpl, spec_argnames: Sequence[str]) -> HookFn:
    """A function taking every spec argument positionally and passing `impl` the ones it wants.

    A hookimpl may take any subset of the spec's arguments, by name; when it
    takes all of them in spec order the bound method itself is returned.
    """
    fn = impl.function
    wanted = tuple(impl.argnames)
    if wanted == tuple(spec_argnames):
        return fn
    indices = tuple(spec_argnames.index(name) for name in wanted)
    # Per-node hooks run once per node and plugin: spelled out, the common arities cost
    # a fraction of building an argument list on every call.
    if len(indices) == 1:
        (a,) = indices
        return lambda *args: fn(args[a])
    if len(indices) == 2:
        a, b = indices
        return lambda *args: fn(args[a], args[b])
    if len(indices) == 3:
        a, b, c = indices
        return lambda *args: fn(args[a], args[b], args[c])

    def call(*args: Any) -> Any:
        return fn(*[args[i] for i in indices])

    return call


def compile_plan(
    pm: pluggy.PluginManager, hook: str, plugin_names: Sequence[str]
) -> tuple[PluginCall, ...]:
    """The functions implementing `hook`, for `plugin_names` in that order (absent ones skipped)."""
    caller = getattr(pm.hook, hook)
    assert caller.spec is not None
    spec_argnames = caller.spec.argnames
    by_plugin = {impl.plugin_name: impl for impl in caller.get_hookimpls()}
    return tuple(
        PluginCall(name, hook, positional_adapter(by_plugin[name], spec_argnames))
        for name in plugin_names
        if name in by_plugin
    )


def compile_plans(pm: pluggy.PluginManager, plugins: Mapping[str, Sequence[str]]) -> Plans:
    """Every hook's plan, for `plugins` (config point -> plugin names in profile order)."""
    return {
        hook: compile_plan(pm, hook, plugins.get(point.name, ()))
        for point in EXTENSION_POINTS
        for hook in point.hooks
    }
