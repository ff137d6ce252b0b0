"""Options every command that prints a result shares, so a plugin's command spells them as
the core's do."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])


def output_option(
    *formats: str, default: str = "table", help: str = "Output format."
) -> Callable[[F], F]:
    """`--output/-o FORMAT`, one of `formats` (table, json and yaml when none are given)."""
    return click.option(
        "--output",
        "-o",
        type=click.Choice(list(formats or ("table", "json", "yaml"))),
        default=default,
        show_default=True,
        help=help,
    )


def seed_option() -> Callable[[F], F]:
    """`--seed N`: the seed of tie-breaking (0 by default)."""
    return click.option(
        "--seed", type=int, default=0, show_default=True, help="Seed of tie-breaking."
    )


def cycle_timeout_option(default: float, help: str) -> Callable[[F], F]:
    """`--cycle-timeout SECONDS`: how long one scheduling or binding cycle may take."""
    return click.option(
        "--cycle-timeout",
        type=click.FloatRange(min=0),
        default=default,
        show_default=True,
        help=help,
    )
