"""The `--feature-gates` option the commands that build profiles share."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from kubesched.features import TRACKED_RELEASE, FeatureGateError, FeatureGates, parse_feature_gates

F = TypeVar("F", bound=Callable[..., Any])


def _convert(ctx: click.Context, param: click.Parameter, value: str | None) -> FeatureGates:
    try:
        gates = parse_feature_gates(value)
    except FeatureGateError as exc:
        raise click.BadParameter(str(exc), ctx=ctx, param=param) from None
    for warning in gates.warnings():
        click.echo(f"warning: {warning}", err=True)
    return gates


def feature_gates_option(command: F) -> F:
    """Add `--feature-gates A=true,B=false` (upstream's flag), passed as `feature_gates`."""
    return click.option(
        "--feature-gates",
        "feature_gates",
        metavar="NAME=BOOL,...",
        callback=_convert,
        help=f"Feature gates, as kube-scheduler {TRACKED_RELEASE} takes them: comma-separated "
        "Name=true|false; `kubesched config feature-gates` lists them.",
    )(command)
