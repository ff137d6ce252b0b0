"""Shared output helpers for the CLI: the JSON API version and printers."""

from __future__ import annotations

import json
from typing import Any

import click

from kubesched.framework import Registry, default_registry

API_VERSION = "kubesched.io/v1alpha1"
"""The `apiVersion` of every JSON document the CLI prints (a public, versioned API)."""


def echo_json(document: dict[str, Any]) -> None:
    """Print a JSON document, `apiVersion` first."""
    click.echo(json.dumps({"apiVersion": API_VERSION, **document}, indent=2))


def discovered_registry(*, fresh: bool = False) -> Registry:
    """The installed plugins, with a warning on stderr for each environment switch that misfires.

    `fresh` discovers again instead of reusing this process's registry.
    """
    registry = Registry.discover() if fresh else default_registry()
    for warning in registry.warnings:
        click.echo(f"warning: {warning}", err=True)
    return registry
