"""Renamed hooks: a plugin written against a hook's former name keeps being called.

When a release renames a hook (or some of its arguments), `RENAMED_HOOKS`
gains an entry: the former name -> the hook it is now, and the former names
of the arguments that changed. A plugin that still implements the former name
is registered with pluggy through `with_renamed_hooks`: that hookimpl is
offered under the new hook, taking the new argument names (positionally the
same arguments), so the runtime calls it wherever it calls the new hook, and
`register_plugin` warns once per process, naming the plugin. An argument that
has no counterpart under the new hook cannot be aliased; such a change is a
retirement (`deprecated_hook` / `deprecated_argument`), not a rename.

No hook has been renamed yet, so the table is empty.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from typing import Any

from attrs import field, frozen

from kubesched.errors import PluginDeprecationWarning
from kubesched.framework import hookspecs


@frozen
class HookRename:
    """Hook `old` is now `new` (the same name when only arguments were renamed); `arguments`
    maps each renamed argument's former name to its new one. `since` renamed it; `removal`
    stops serving the former names."""

    old: str
    new: str
    since: str
    removal: str
    arguments: Mapping[str, str] = field(factory=dict)

    def warning(self) -> PluginDeprecationWarning:
        """What a plugin implementing the former name (or arguments) is told."""
        renamed = ", ".join(f"{a} is now {b}" for a, b in self.arguments.items())
        arguments = f" ({renamed})" if renamed else ""
        if self.old == self.new:
            return PluginDeprecationWarning(
                f"arguments of hook {self.new} were renamed{arguments} in kubesched-core "
                f"{self.since}; the former names are served until {self.removal}: take the "
                "new ones instead"
            )
        return PluginDeprecationWarning(
            f"hook {self.old} was renamed {self.new}{arguments} in kubesched-core {self.since}; "
            f"the plugin is called through {self.new} until {self.removal}: implement "
            f"{self.new} instead"
        )


RENAMED_HOOKS: dict[str, HookRename] = {}
"""Former hook name -> its rename; read on every registration (tests add entries)."""

_MARKER = f"{hookspecs.PROJECT_NAME}_impl"


def implemented_name(hook: str) -> str:
    """The hook a hookimpl named `hook` is called through: the new name of a renamed hook."""
    rename = RENAMED_HOOKS.get(hook)
    return hook if rename is None else rename.new


def _alias(method: Callable[..., Any], opts: Mapping[str, Any], rename: HookRename) -> Any:
    """`method` (a hookimpl under the former name) as a hookimpl of the new hook: the same
    positional arguments under their new names (pluggy reads a hookimpl's argument names
    from its code, so the function is made with them)."""
    names = [rename.arguments.get(p, p) for p in inspect.signature(method).parameters]
    if not all(name.isidentifier() for name in names):
        raise ValueError(f"renamed hook {rename.old}: {names} are not argument names")
    arguments = ", ".join(names)
    call: Any = eval(f"lambda {arguments}: method({arguments})", {"method": method})
    call.__name__ = call.__qualname__ = rename.new
    setattr(call, _MARKER, {**opts, "specname": rename.new})
    return call


class _Aliased:
    """What pluggy registers for a plugin implementing former hook names: its hookimpls,
    those under a former name offered under the new one."""


def _relies_on(hook: str, method: Callable[..., Any], hooks: set[str]) -> HookRename | None:
    """The rename a hookimpl `method` of `hook` relies on, if any: a former hook name whose
    new hook the plugin does not implement itself, or a former argument name."""
    rename = RENAMED_HOOKS.get(hook)
    if rename is None:
        return None
    if rename.new != hook:
        return None if rename.new in hooks else rename
    taken = set(inspect.signature(method).parameters)
    return rename if taken & set(rename.arguments) else None


def with_renamed_hooks(plugin: object) -> tuple[object, list[HookRename]]:
    """The object to register for `plugin` and the renames it relies on (`plugin` itself
    and none when it relies on none). A former name whose new hook the plugin implements
    too is left out (not registered at all): the plugin's own implementation of the new
    hook is used."""
    impls: dict[str, tuple[str, Any, dict[str, Any]]] = {}
    for attr_name in dir(plugin):
        # Statically, as pluggy looks: a property of the plugin is never run here.
        raw = inspect.getattr_static(plugin, attr_name, None)
        opts = getattr(getattr(raw, "__func__", raw), _MARKER, None)
        if isinstance(opts, dict):
            value = getattr(plugin, attr_name)
            impls[attr_name] = (opts.get("specname") or attr_name, value, opts)
    hooks = {hook for hook, _, _ in impls.values()}
    relied = {
        attr_name: rename
        for attr_name, (hook, method, _) in impls.items()
        if (rename := _relies_on(hook, method, hooks)) is not None
    }
    former = {hook for hook in hooks if implemented_name(hook) != hook}
    if not relied and not former:
        return plugin, []
    aliased = _Aliased()
    for attr_name, (hook, method, opts) in impls.items():
        if attr_name in relied:
            setattr(aliased, attr_name, _alias(method, opts, relied[attr_name]))
        elif hook not in former:
            setattr(aliased, attr_name, method)
    by_name = {rename.old: rename for rename in relied.values()}
    return aliased, [by_name[old] for old in sorted(by_name)]
