"""Shared output helpers for the CLI: the JSON API version and printers."""

from __future__ import annotations

from typing import Any

import click
import yaml
from rich.console import Console

from kubesched.cli._json import dumps_indented
from kubesched.framework import Registry, default_registry

API_VERSION = "kubesched.io/v1alpha1"
"""The `apiVersion` of every JSON document the CLI prints (a public, versioned API)."""


def echo_document(document: dict[str, Any], output: str) -> None:
    """Print a document as `json` or `yaml`, `apiVersion` first."""
    versioned = {"apiVersion": API_VERSION, **document}
    if output == "json":
        click.echo(dumps_indented(versioned))
    else:
        click.echo(yaml.safe_dump(versioned, sort_keys=False, allow_unicode=True), nl=False)


def discovered_registry(*, fresh: bool = False) -> Registry:
    """The installed plugins, with a warning on stderr for each environment switch that misfires.

    `fresh` discovers again instead of reusing this process's registry.
    """
    registry = Registry.discover() if fresh else default_registry()
    for warning in registry.warnings:
        click.echo(f"warning: {warning}", err=True)
    return registry


WIDE = 1_000_000
"""The width tables get when output is piped or logged: cells are never cut, only wrapped
by the reader's terminal."""


def stdout_console() -> Console:
    """A console for tables on stdout: the terminal's width, or no limit when piped."""
    console = Console()
    return console if console.is_terminal else Console(width=WIDE)
