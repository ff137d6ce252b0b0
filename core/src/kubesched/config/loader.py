"""Load a KubeSchedulerConfiguration file: parse, check the type, structure, default, validate.

Everything wrong is reported at once, one `<field path>: <message>` line
each, in a ConfigError naming the file; nothing is half-applied.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from kubesched.api._field_errors import not_supported, required
from kubesched.config.converter import StructureError, describe_json, structure
from kubesched.config.defaults import apply_defaults
from kubesched.config.resolve import check_config
from kubesched.config.source import parse_document
from kubesched.config.types import API_VERSION, KIND, KubeSchedulerConfiguration
from kubesched.errors import ConfigError
from kubesched.framework._registry import Registry, default_registry


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
    return structure(fields, KubeSchedulerConfiguration)


def parse_config(
    text: str, *, registry: Registry | None = None, source: str | None = None
) -> KubeSchedulerConfiguration:
    """The defaulted, validated configuration in `text` (YAML or JSON); ConfigError
    (naming `source`) listing every problem."""
    registry = default_registry() if registry is None else registry
    try:
        cfg = read_configuration(parse_document(text))
    except StructureError as exc:
        raise ConfigError(exc.errors, file=source) from None
    cfg, _, errors = check_config(apply_defaults(cfg, registry), registry)
    if errors:
        raise ConfigError(errors, file=source)
    return cfg


def load_config(
    path: str | Path, *, registry: Registry | None = None
) -> KubeSchedulerConfiguration:
    """The configuration file at `path`, defaulted and validated against the installed
    plugins (`registry`, by default every discovered one); ConfigError listing every problem."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(
            [f"cannot read the file: {exc.strerror or exc}"], file=str(path)
        ) from None
    except UnicodeDecodeError:
        raise ConfigError(["cannot read the file: not UTF-8 text"], file=str(path)) from None
    return parse_config(text, registry=registry, source=str(path))
