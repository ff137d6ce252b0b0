"""Load a KubeSchedulerConfiguration file: parse, check the type, structure, default, validate.

Everything wrong is reported at once, one `<field path>: <message>` line
each, in a ConfigError naming the file; nothing is half-applied. Building the
profiles from it (which plugins exist, what they implement) is
`kubesched.profile`'s part.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from kubesched.api._field_errors import FieldError, invalid, not_supported, required
from kubesched.api._reading import ReadError, read_file, read_stdin
from kubesched.config.catalog import PluginCatalog
from kubesched.config.converter import StructureError, describe_json, structure
from kubesched.config.defaults import apply_defaults
from kubesched.config.plugin_args import structure_plugin_args
from kubesched.config.source import parse_document
from kubesched.config.types import API_VERSION, KIND, KubeSchedulerConfiguration
from kubesched.config.validation import validate_configuration
from kubesched.errors import ConfigError


def read_configuration(data: Any) -> KubeSchedulerConfiguration:
    """A parsed document as the model, as written (not defaulted, args not structured);
    StructureError listing every problem."""
    if not isinstance(data, Mapping):
        raise StructureError([f"expected a {KIND} object, got {describe_json(data)}"])
    errors = []
    for key, accepted in (("apiVersion", API_VERSION), ("kind", KIND)):
        value = data.get(key)
        if value is None:
            errors.append(str(required(key, f'must be "{accepted}"')))
        elif value != accepted:
            errors.append(str(not_supported(key, value, [accepted])))
    if errors:
        raise StructureError(errors)
    fields = {k: v for k, v in data.items() if k not in ("apiVersion", "kind")}
    cfg = structure(fields, KubeSchedulerConfiguration)
    errors = [str(e) for e in _int32_errors(cfg)]
    if errors:
        raise StructureError(errors)
    return cfg


INT32 = range(-(2**31), 2**31)


def _int32_errors(cfg: KubeSchedulerConfiguration) -> Iterator[FieldError]:
    """Fields upstream declares int32, holding what an int32 cannot (its decoder refuses)."""
    fields: list[tuple[str, int | None]] = [
        ("parallelism", cfg.parallelism),
        ("percentageOfNodesToScore", cfg.percentage_of_nodes_to_score),
    ]
    for i, profile in enumerate(cfg.profiles):
        path = f"profiles[{i}]"
        fields.append((f"{path}.percentageOfNodesToScore", profile.percentage_of_nodes_to_score))
        for point, plugins in (profile.plugins.by_point() if profile.plugins else {}).items():
            for j, plugin in enumerate(plugins.enabled):
                fields.append((f"{path}.plugins.{point}.enabled[{j}].weight", plugin.weight))
    for path, value in fields:
        if value is not None and value not in INT32:
            yield invalid(path, value, "must fit in a 32-bit integer")


def prepare_config(
    cfg: KubeSchedulerConfiguration, catalog: PluginCatalog
) -> tuple[KubeSchedulerConfiguration, list[str]]:
    """A defaulted configuration with its plugin args structured, and upstream's validation:
    the result and one `<path>: <message>` line per problem (safe to repeat)."""
    cfg, errors = structure_plugin_args(cfg, catalog)
    return cfg, errors + validate_configuration(cfg)


def read_config(text: str, *, source: str | None = None) -> KubeSchedulerConfiguration:
    """The configuration in `text` (YAML or JSON) as written: not defaulted, args not
    structured; ConfigError (naming `source`) listing every problem."""
    try:
        return read_configuration(parse_document(text))
    except StructureError as exc:
        raise ConfigError(exc.errors, file=source) from None


STDIN = "-"
"""The path that stands for standard input; errors name it `<stdin>`."""


def source_name(path: str | Path) -> str:
    """How messages name a configuration's source."""
    return "<stdin>" if str(path) == STDIN else str(path)


def read_text(path: str | Path) -> str:
    """A configuration file's text (`-`: standard input, as UTF-8); ConfigError naming the
    file when it cannot be read."""
    try:
        return read_stdin() if str(path) == STDIN else read_file(path)
    except ReadError as exc:
        raise ConfigError(
            [f"cannot read the file: {exc.message}"], file=source_name(path)
        ) from None


def parse_config(
    text: str, catalog: PluginCatalog, *, source: str | None = None
) -> KubeSchedulerConfiguration:
    """The defaulted, validated configuration in `text` (YAML or JSON), plugin args typed
    with `catalog`; ConfigError (naming `source`) listing every problem."""
    cfg = read_config(text, source=source)
    cfg, errors = prepare_config(apply_defaults(cfg, catalog), catalog)
    if errors:
        raise ConfigError(errors, file=source)
    return cfg


def load_config(path: str | Path, catalog: PluginCatalog) -> KubeSchedulerConfiguration:
    """The configuration file at `path`, defaulted and validated, plugin args typed with
    `catalog`; ConfigError listing every problem."""
    return parse_config(read_text(path), catalog, source=source_name(path))
