"""Shared output helpers for the CLI: the JSON API version and printers."""

from __future__ import annotations

import json
from typing import Any

import click

API_VERSION = "kubesched.io/v1alpha1"
"""The `apiVersion` of every JSON document the CLI prints (a public, versioned API)."""


def echo_json(document: dict[str, Any]) -> None:
    """Print a JSON document, `apiVersion` first."""
    click.echo(json.dumps({"apiVersion": API_VERSION, **document}, indent=2))
