"""The `kubesched` command group; each subcommand lives in its own module, loaded on use."""

from __future__ import annotations

import importlib
import os
import sys
import warnings
from typing import Any, TextIO

import click

from kubesched import __version__
from kubesched.cli._commands import (
    CommandSpec,
    broken_command,
    installed_commands,
    load_command,
    plugin_summary,
)
from kubesched.cli._interrupt import Interrupted, interrupted_message, signals_stop
from kubesched.errors import (
    ConfigError,
    InputError,
    KubeschedError,
    PluginCrash,
    PluginDeprecationWarning,
    PluginError,
)

SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "plugins": ("kubesched.cli.plugins", "List every discovered plugin and what it implements."),
    "config": ("kubesched.cli.config", "KubeSchedulerConfiguration files: defaults, validation."),
    "simulate": ("kubesched.cli.simulate", "Schedule the pending pods of manifests; show why."),
    "replay": ("kubesched.cli.replay", "Replay a scenario's timed events on a simulated clock."),
    "compare": ("kubesched.cli.compare", "Run several configs on one input; show what differs."),
    "sweep": ("kubesched.cli.sweep", "Run a grid of configs, inputs and seeds into one table."),
    "report": ("kubesched.cli.report", "Render a saved result document as one HTML page."),
    "run": ("kubesched.cli.run", "Schedule the pods of a live cluster named for our profiles."),
    "new-plugin": ("kubesched.cli.new_plugin", "Create a plugin distribution from the template."),
}
"""Subcommand name -> (module defining a click command named `command`, its summary), so
`kubesched --help` lists them without importing any."""


def plugin_commands() -> dict[str, CommandSpec]:
    """The commands installed distributions add (`kubesched.commands` entry points)."""
    return installed_commands(frozenset(SUBCOMMANDS))


class LazyGroup(click.Group):
    """A group that imports a subcommand's module only when it is used."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        added = [name for name, spec in plugin_commands().items() if name not in SUBCOMMANDS]
        return sorted([*SUBCOMMANDS, *added])

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, SUBCOMMANDS[name][1]) for name in sorted(SUBCOMMANDS)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)
        added = plugin_commands()
        rows = [(n, plugin_summary(added[n])) for n in sorted(added) if n not in SUBCOMMANDS]
        if rows:
            with formatter.section("Commands from plugins"):
                formatter.write_dl(rows)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in SUBCOMMANDS:
            spec = plugin_commands().get(cmd_name)
            if spec is None:
                return None
            try:
                return load_command(spec)
            except PluginError as exc:
                return broken_command(spec, exc)
        module_name = SUBCOMMANDS[cmd_name][0]
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name == module_name:
                return None
            raise
        command: click.Command = module.command
        return command


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="kubesched")
def cli() -> None:
    """kubesched: the Kubernetes scheduling framework as a Python plugin ecosystem."""


COMPLETE_VAR = "_KUBESCHED_COMPLETE"
"""Set by the shell completion scripts click generates (see docs/reference/cli.md)."""


def _invoke(command: click.Command, args: list[str], prog_name: str) -> Any:
    """Run the command line, letting an interruption through as itself (click's own main
    would turn it into "Aborted!") and flushing standard output, so that a write that fails
    fails here."""
    if COMPLETE_VAR in os.environ and command is cli:
        return cli.main(args=args, prog_name="kubesched", standalone_mode=False)
    try:
        with command.make_context(prog_name, list(args)) as ctx:
            result = command.invoke(ctx)
    except click.exceptions.Exit as exc:  # as click's own main returns it
        result = exc.exit_code
    sys.stdout.flush()
    return result


def _silence_stdout() -> None:
    """Point standard output at the null device, so that exiting does not retry the failed
    write and print a second error."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


_show_warning = warnings.showwarning


def show_warning(
    message: Warning | str,
    category: type[Warning],
    filename: str,
    lineno: int,
    file: TextIO | None = None,
    line: str | None = None,
) -> None:
    """A plugin deprecation as one `warning:` line on stderr; other warnings as Python
    shows them."""
    if issubclass(category, PluginDeprecationWarning):
        click.echo(f"warning: {message}", err=True)
    else:
        _show_warning(message, category, filename, lineno, file, line)


def main(argv: list[str] | None = None) -> Any:
    """Entry point: run the CLI, turning user errors into one line and an exit code."""
    args = sys.argv[1:] if argv is None else argv
    warnings.showwarning = show_warning
    if not args and COMPLETE_VAR not in os.environ:  # the command alone: help, and success
        with click.Context(cli, info_name="kubesched", **cli.context_settings) as ctx:
            click.echo(ctx.get_help())
        return 0
    return run_command(cli, args, "kubesched")


def run_command(command: click.Command, args: list[str], prog_name: str) -> Any:
    """Run a click command as `kubesched` runs its own: a user's mistake is one `error:`
    line and an exit code (2 for bad input and usage, 1 for a configuration), SIGINT and
    SIGTERM stop at once with one line and 130 or 143, plugin deprecations are one
    `warning:` line. A plugin's stand-alone console script calls it with its command.
    """
    warnings.showwarning = show_warning
    try:
        with signals_stop():
            return _invoke(command, args, prog_name)
    except Interrupted as exc:
        click.echo(f"error: {interrupted_message(exc)}", err=True)
        sys.exit(exc.exit_code)
    except OSError as exc:  # an output that could not be written (a full disk, a closed pipe)
        _silence_stdout()
        where = f"{exc.filename}: " if exc.filename else ""
        click.echo(f"error: {where}cannot write the output: {exc.strerror or exc}", err=True)
        sys.exit(2)
    except click.exceptions.Abort:
        click.echo("Aborted!", err=True)
        sys.exit(1)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.UsageError as exc:
        path = exc.ctx.command_path if exc.ctx is not None else prog_name
        click.echo(f"error: {exc.format_message()} (see: {path} --help)", err=True)
        sys.exit(exc.exit_code)
    except click.ClickException as exc:
        click.echo(f"error: {exc.format_message()}", err=True)
        sys.exit(exc.exit_code)
    except ConfigError as exc:
        prefix = f"{exc.file}: " if exc.file else ""
        for line in exc.errors:
            click.echo(f"error: {prefix}{line}", err=True)
        sys.exit(1)
    except (InputError, PluginCrash) as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
    except KubeschedError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(1)
