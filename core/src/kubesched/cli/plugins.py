"""`kubesched plugins`: every discovered plugin, where it comes from and what it implements,
and the commands installed distributions add.

Each plugin and command is imported inside its own guard, so one broken
distribution is reported on its row and never hides the others. A plugin that
implements a deprecated hook or argument is flagged.
"""

from __future__ import annotations

from typing import Any

import click
from rich.console import Console
from rich.table import Table
from rich.text import Text

from kubesched.cli._commands import load_command
from kubesched.cli.main import plugin_commands
from kubesched.cli.output import discovered_registry, echo_document, stdout_console
from kubesched.errors import PluginError
from kubesched.framework._deprecations import deprecated_uses
from kubesched.framework._points import POINTS
from kubesched.framework._registry import Registry, hooks_of, points_of


def describe_plugins(registry: Registry) -> list[dict[str, Any]]:
    """One record per plugin: name, distribution, version, source, points, loaded, error."""
    conflicts = registry.conflicts()
    rows: list[dict[str, Any]] = []
    for name in registry:
        spec = registry.get(name)
        record: dict[str, Any] = {
            "name": name,
            "distribution": spec.distribution,
            "version": spec.version,
            "source": spec.source,
            "extensionPoints": [],
            "batchHooks": [],
            "loaded": False,
            "error": conflicts.get(name),
            "deprecatedHooks": [],
        }
        if record["error"] is None:
            try:
                factory = registry.load(name)
            except PluginError as exc:
                record["error"] = str(exc)
            else:
                hooks = hooks_of(factory)
                points = [POINTS[p].title for p in points_of(factory)]
                if "events_to_register" in hooks:
                    points.append("EnqueueExtensions")
                record["extensionPoints"] = points
                record["batchHooks"] = sorted(h for h in hooks if "_batch" in h)
                record["loaded"] = True
                record["deprecatedHooks"] = deprecated_uses(factory)
        rows.append(record)
    return rows


def describe_commands() -> list[dict[str, Any]]:
    """One record per command installed distributions add: name, distribution, version,
    loaded, error."""
    rows: list[dict[str, Any]] = []
    for name, spec in sorted(plugin_commands().items()):
        record: dict[str, Any] = {
            "name": name,
            "distribution": spec.distribution,
            "version": spec.version,
            "loaded": False,
            "error": None,
        }
        try:
            load_command(spec)
        except PluginError as exc:
            record["error"] = str(exc)
        else:
            record["loaded"] = True
        rows.append(record)
    return rows


@click.command(name="plugins")
@click.option(
    "--output",
    "-o",
    type=click.Choice(["table", "json", "yaml"]),
    default="table",
    show_default=True,
    help="Output format; json and yaml are a versioned, documented API.",
)
def command(output: str) -> None:
    """List every discovered plugin: name, distribution, version, in-tree or out-of-tree,
    the extension points it implements, and whether it loaded."""
    records = describe_plugins(discovered_registry(fresh=True))
    commands = describe_commands()
    if output != "table":
        echo_document({"plugins": records, "commands": commands}, output)
        return
    table = Table(title="kubesched plugins")
    for column in ("Name", "Distribution", "Version", "Source", "Extension points", "Loaded"):
        table.add_column(column)
    for r in records:
        loaded = Text("yes") if r["loaded"] else Text("no", style="red")
        if r["deprecatedHooks"]:
            loaded = Text("yes, deprecated hooks", style="yellow")
        points = ", ".join(r["extensionPoints"])
        if r["batchHooks"]:
            batch = ", ".join(h.replace("_batch", "") for h in r["batchHooks"])
            points += f" (batch: {batch})"
        cells = (r["name"], r["distribution"] or "-", r["version"] or "-", r["source"], points)
        table.add_row(*map(Text, cells), loaded)
    stdout_console().print(table)
    if commands:
        command_table = Table(title="Commands from plugins")
        for column in ("Command", "Distribution", "Version", "Loaded"):
            command_table.add_column(column)
        for c in commands:
            loaded = Text("yes") if c["loaded"] else Text("no", style="red")
            command_table.add_row(
                *map(Text, (c["name"], c["distribution"], c["version"] or "-")), loaded
            )
        stdout_console().print(command_table)
    errors = Console(stderr=True)
    for r in [*records, *commands]:
        if r["error"]:
            errors.print(Text("error: ", style="red") + Text(r["error"]), highlight=False)
    for r in records:
        for message in r.get("deprecatedHooks", ()):
            where = f'plugin "{r["name"]}" ({r["distribution"] or "registered in code"})'
            errors.print(
                Text("warning: ", style="yellow") + Text(f"{where}: {message}"), highlight=False
            )
