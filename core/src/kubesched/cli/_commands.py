"""Commands that installed distributions add to `kubesched`, through an entry-point group.

A distribution declares, in the `kubesched.commands` group, one entry per
command: entry name = the command's name, value = a `click.Command` (a
`@click.command()` function or a group). Discovery reads metadata only, so
`kubesched --help` lists every command without importing any; a command's
module is imported when it runs. It loads inside a guard: a distribution that
fails to import, names something that is not a click command, claims a name
that another command has, or does not support the installed kubesched-core
(its Requires-Dist range) is reported with its name and version, and every
other command keeps working. The plugin environment switches apply:
`KUBESCHED_DISABLE_PLUGIN_AUTOLOAD` hides out-of-tree commands unless
`KUBESCHED_LOAD_PLUGINS` names the command or its distribution.
"""

from __future__ import annotations

import importlib.metadata as md
import os
from collections.abc import Collection, Mapping
from functools import cache
from typing import Any, NoReturn

import click
from attrs import frozen

from kubesched.discovery import (
    IN_TREE_DISTRIBUTIONS,
    autoload_disabled,
    incompatibility,
    installed_core_version,
    load_list,
    normalize_distribution_name,
)
from kubesched.errors import PluginError

COMMAND_GROUP = "kubesched.commands"
"""The entry-point group through which a distribution adds `kubesched <command>`."""


@frozen
class CommandSpec:
    """A command an installed distribution declares; `problem` says why it cannot run."""

    name: str
    distribution: str
    version: str | None
    value: str
    summary: str
    problem: str | None = None

    def describe(self) -> str:
        """`kubesched-foo 1.0`, for messages."""
        return f"{self.distribution} {self.version}" if self.version else self.distribution


def _autoloaded(name: str, dist: str, env: Mapping[str, str]) -> bool:
    wanted = load_list(env)
    if dist in IN_TREE_DISTRIBUTIONS:
        return True
    if wanted is not None:
        return name in wanted or dist in wanted
    return not autoload_disabled(env)


def discover_commands(
    reserved: Collection[str],
    environ: Mapping[str, str] | None = None,
    core_version: str | None = None,
) -> dict[str, CommandSpec]:
    """Command name -> spec for every command installed distributions declare; a name in
    `reserved` (the core's own commands) or claimed twice gets a `problem` instead."""
    env = os.environ if environ is None else environ
    core = installed_core_version() if core_version is None else core_version
    found: dict[str, list[CommandSpec]] = {}
    seen: set[str] = set()
    for dist in md.distributions():
        dist_name = normalize_distribution_name(dist.metadata["Name"] or "")
        if dist_name in seen:
            continue  # a second copy of the same distribution further down sys.path
        seen.add(dist_name)
        entries = [ep for ep in dist.entry_points if ep.group == COMMAND_GROUP]
        if not entries:
            continue
        unsupported = incompatibility(dist_name, dist.version, dist.requires, core)
        summary = ((dist.metadata.get_all("Summary") or [""])[0] or "").strip()
        for ep in entries:
            if not _autoloaded(ep.name, dist_name, env):
                continue
            spec = CommandSpec(ep.name, dist_name, dist.version, ep.value, summary, unsupported)
            found.setdefault(ep.name, []).append(spec)
    commands: dict[str, CommandSpec] = {}
    for name, specs in found.items():
        spec = specs[0]
        problem: str | None
        if name in reserved:
            problem = f"it is a kubesched command; {spec.describe()} cannot replace it"
        elif len(specs) > 1:
            sources = " and ".join(sorted(s.describe() for s in specs))
            problem = f"it is provided by more than one distribution: {sources}"
        else:
            problem = spec.problem
        commands[name] = CommandSpec(
            name, spec.distribution, spec.version, spec.value, spec.summary, problem
        )
    return commands


@cache
def installed_commands(reserved: frozenset[str]) -> dict[str, CommandSpec]:
    """`discover_commands` once per process (tests clear the cache)."""
    return discover_commands(reserved)


def load_command(spec: CommandSpec) -> click.Command:
    """Import the command a spec names; every failure is a PluginError naming it."""
    where = f'command "{spec.name}" from {spec.describe()}'
    if spec.problem is not None:
        raise PluginError(f"{where} is not loaded: {spec.problem}")
    entry_point = md.EntryPoint(spec.name, spec.value, COMMAND_GROUP)
    try:
        loaded: Any = entry_point.load()
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # SystemExit at import time included
        raise PluginError(
            f"{where} failed to load: {spec.value!r} raised {type(exc).__name__}: {exc}"
        ) from exc
    if not isinstance(loaded, click.Command):
        raise PluginError(
            f"{where}: entry point {spec.value!r} is a {type(loaded).__name__}, not a click command"
        )
    return loaded


def broken_command(spec: CommandSpec, error: PluginError) -> click.Command:
    """A stand-in for a command that does not load: it says why and exits 1."""

    def fail() -> NoReturn:
        raise click.ClickException(str(error))

    return click.Command(
        spec.name,
        callback=fail,
        help=f"Not available: {error}",
        short_help="(does not load; run it to see why)",
        context_settings={"ignore_unknown_options": True, "allow_extra_args": True},
    )


def plugin_summary(spec: CommandSpec) -> str:
    """The help line of a plugin command, from metadata only: its distribution's summary,
    and where it comes from."""
    origin = f"({spec.describe()})"
    if spec.problem is not None:
        return f"{origin} not available: {spec.problem}"
    return f"{spec.summary} {origin}" if spec.summary else origin
