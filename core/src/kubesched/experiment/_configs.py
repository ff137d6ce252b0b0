"""The configurations an experiment runs: a file, or a base file with plugin args changed.

A config travels as its parsed document (plain data), so a cell of a sweep can be
sent to another process or machine and rebuilt there with the same meaning.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import yaml
from attrs import frozen

from kubesched.errors import InputError
from kubesched.experiment._digest import canonical_json, document_digest
from kubesched.framework import Registry
from kubesched.profile import Loaded, parse_profiles


@frozen
class ConfigSpec:
    """A named KubeSchedulerConfiguration document and where it came from."""

    name: str
    document: dict[str, Any]
    source: str

    @property
    def digest(self) -> str:
        return document_digest(self.document)

    def load(self, registry: Registry) -> Loaded:
        """The configuration and its effective profiles; ConfigError naming the source."""
        return parse_profiles(canonical_json(self.document), registry, source=self.source)


def read_config_document(path: str | Path) -> dict[str, Any]:
    """The YAML or JSON document in a config file; InputError naming the file otherwise."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(f"cannot read the configuration: {exc.strerror}", file=str(path)) from None
    try:
        document = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" (line {mark.line + 1})" if mark is not None else ""
        raise InputError(f"not YAML{where}", file=str(path)) from None
    if not isinstance(document, dict):
        raise InputError("not a KubeSchedulerConfiguration (a mapping)", file=str(path))
    return document


def config_file(path: str | Path, name: str | None = None) -> ConfigSpec:
    """The config in a file, named `name` or after the file."""
    return ConfigSpec(name or Path(path).stem, read_config_document(path), str(path))


def _merge(base: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    """`base` with `changes` laid over it, mappings merged key by key, anything else replaced."""
    merged = dict(base)
    for key, value in changes.items():
        old = merged.get(key)
        if isinstance(old, dict) and isinstance(value, dict):
            merged[key] = _merge(old, value)
        else:
            merged[key] = copy.deepcopy(value)
    return merged


def with_plugin_args(
    base: ConfigSpec, name: str, plugin_args: dict[str, dict[str, Any]]
) -> ConfigSpec:
    """`base` with each plugin's args changed in every profile: `{Plugin: {field: value}}` is
    merged into that plugin's `pluginConfig` entry (added when the profile has none)."""
    document = copy.deepcopy(base.document)
    profiles = document.get("profiles") or [{}]
    document["profiles"] = profiles
    for profile in profiles:
        entries = profile.setdefault("pluginConfig", []) or []
        profile["pluginConfig"] = entries
        for plugin, args in plugin_args.items():
            entry = next((e for e in entries if e.get("name") == plugin), None)
            if entry is None:
                entries.append({"name": plugin, "args": copy.deepcopy(args)})
            else:
                entry["args"] = _merge(entry.get("args") or {}, args)
    return ConfigSpec(name, document, f"{base.source} ({name})")
