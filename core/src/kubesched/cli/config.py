"""`kubesched config`: the default configuration, and checking and explaining config files.

- `config defaults`: what kube-scheduler runs without a config file (upstream's
  shape, `kubescheduler.config.k8s.io/v1`), with the plugins installed here;
- `config validate FILE`: exit 0 with one OK line, or exit 1 with one
  `FILE: <field path>: <message>` line per problem on stderr; it builds every
  profile's plugins as a scheduler would, so what passes here runs;
- `config show FILE`: the effective profiles after defaulting, merge and
  multiPoint expansion, as an `EffectiveConfiguration` document
  (`apiVersion: kubesched.io/v1alpha1`);
- `config feature-gates`: the feature gates (`_feature_gate_list`).

Each takes `--feature-gates` as kube-scheduler does. In the tracked release no
gate kubesched honours changes the default profile (upstream adds DynamicResources
while DynamicResourceAllocation is on, and that gate is locked on), so the
gates are checked and the configuration is the same for every accepted value.
"""

from __future__ import annotations

from typing import Any, NoReturn

import click
import yaml

from kubesched.cli._feature_gate_list import feature_gates as feature_gates_list
from kubesched.cli._feature_gates import feature_gates_option
from kubesched.cli._json import dumps_indented
from kubesched.cli.output import API_VERSION, discovered_registry
from kubesched.config import (
    KubeSchedulerConfiguration,
    apply_defaults,
    config_document,
    default_config,
    read_config,
    read_text,
)
from kubesched.config.loader import source_name
from kubesched.config.plugin_args import structure_plugin_args
from kubesched.errors import ConfigError
from kubesched.features import FeatureGates
from kubesched.framework import Registry
from kubesched.profile import (
    config_warnings,
    construction_errors,
    effective_document,
    load_profiles,
    parse_profiles,
)

_OUTPUT = click.option(
    "--output",
    "-o",
    type=click.Choice(["yaml", "json"]),
    default="yaml",
    show_default=True,
    help="Output format.",
)
_FILE = click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))


def _print(document: dict[str, Any], output: str) -> None:
    if output == "json":
        click.echo(dumps_indented(document))
    else:
        click.echo(yaml.safe_dump(document, sort_keys=False, allow_unicode=True), nl=False)


def _fail(exc: ConfigError) -> NoReturn:
    """One line per problem on stderr, then exit 1."""
    prefix = f"{exc.file}: " if exc.file else ""
    for line in exc.errors:
        click.echo(f"{prefix}{line}", err=True)
    raise click.exceptions.Exit(1)


@click.group(name="config")
def command() -> None:
    """KubeSchedulerConfiguration files: defaults, validation, effective profiles; and the
    feature gates."""


command.add_command(feature_gates_list)


@command.command(name="defaults")
@_OUTPUT
@feature_gates_option
def defaults(output: str, feature_gates: FeatureGates) -> None:
    """Print the default configuration (upstream's defaults, restricted to installed plugins)."""
    registry = discovered_registry()
    _print(config_document(default_config(registry), registry), output)


@command.command(name="validate")
@_FILE
@click.option(
    "--output",
    "-o",
    type=click.Choice(["text", "json", "yaml"]),
    default="text",
    show_default=True,
    help="Output format; json and yaml print a ValidationResult document either way.",
)
@feature_gates_option
def validate(file: str, output: str, feature_gates: FeatureGates) -> None:
    """Check FILE (or - for standard input) as kube-scheduler would; exit 1 listing every
    problem. Warnings (args for a plugin that is not installed or not enabled) do not fail."""
    registry = discovered_registry()
    source = source_name(file)
    try:
        cfg, profiles = load_profiles(file, registry)
        errors = construction_errors(profiles, registry)
        if errors:
            raise ConfigError(errors, file=source)
    except ConfigError as exc:
        if output != "text":
            _print(_validation_result(source, exc.errors, []), output)
            raise click.exceptions.Exit(1) from None
        _fail(exc)
    warnings = config_warnings(cfg, profiles, registry)
    if output != "text":
        _print(_validation_result(source, [], warnings), output)
        return
    for warning in warnings:
        click.echo(f"warning: {source}: {warning}", err=True)
    names = ", ".join(p.scheduler_name or "" for p in cfg.profiles)
    count = len(cfg.profiles)
    click.echo(f"{source}: OK ({count} profile{'s' if count != 1 else ''}: {names})")


def _validation_result(file: str, errors: list[str], warnings: list[str]) -> dict[str, Any]:
    return {
        "apiVersion": API_VERSION,
        "kind": "ValidationResult",
        "file": file,
        "valid": not errors,
        "errors": errors,
        "warnings": warnings,
    }


@command.command(name="show")
@_FILE
@_OUTPUT
@feature_gates_option
def show(file: str, output: str, feature_gates: FeatureGates) -> None:
    """Print the effective profiles of FILE (or - for standard input): plugins per extension
    point, weights, args. When FILE does not validate, print it defaulted in upstream's
    form (defaulting runs before validation), then the problems, and exit 1."""
    registry = discovered_registry()
    source = source_name(file)
    try:
        text = read_text(file)
    except ConfigError as exc:
        _fail(exc)
    try:
        cfg, profiles = parse_profiles(text, registry, source=source)
    except ConfigError as exc:
        defaulted = _defaulted(text, registry)
        if defaulted is not None:
            _print(config_document(defaulted, registry), output)
        _fail(exc)
    document = {"apiVersion": API_VERSION, **effective_document(cfg, profiles, registry)}
    _print(document, output)


def _defaulted(text: str, registry: Registry) -> KubeSchedulerConfiguration | None:
    """The configuration in `text` after upstream's defaulting, if it reads at all."""
    try:
        cfg = apply_defaults(read_config(text), registry)
    except ConfigError:
        return None
    return structure_plugin_args(cfg, registry)[0]
