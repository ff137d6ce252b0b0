"""Plugin args: `pluginConfig[].args` structured into the args class a plugin declares.

A plugin factory may declare `args_type` (an attrs class whose field defaults
are the plugin's defaults) and `args_kind` (upstream's kind string, by
default `<plugin name>Args`). As upstream decodes args of every in-tree
plugin it knows, args are structured strictly for every installed plugin
that declares a class, enabled or not; args of a plugin that declares none,
or that is not installed, stay as written (upstream leaves out-of-tree args
to their plugin, and ignores args nobody asks for).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs
from attrs import evolve

from kubesched.api._field_errors import FieldError, child, invalid
from kubesched.config.catalog import PluginCatalog
from kubesched.config.converter import StructureError, omit_empty, structure, unstructure
from kubesched.config.types import API_VERSION, KubeSchedulerConfiguration, PluginConfig


def structure_args(name: str, catalog: PluginCatalog, raw: Any, path: str) -> Any:
    """`raw` args as the plugin's args class, defaulted; StructureError naming each bad field."""
    args_type = catalog.args_type(name)
    assert args_type is not None
    if raw is None:
        return args_type()
    if isinstance(raw, args_type):
        return raw
    kind = catalog.args_kind(name)
    if attrs.has(type(raw)):
        raise StructureError([str(invalid(path, type(raw).__name__, "has to match plugin args"))])
    if not isinstance(raw, Mapping):
        raise StructureError([str(invalid(path, raw, f"expected an object ({kind})"))])
    errors: list[FieldError] = []
    given_kind = raw.get("kind")
    if given_kind is not None and given_kind != kind:
        errors.append(invalid(path, given_kind, "has to match plugin args"))
    given_version = raw.get("apiVersion")
    if given_version is not None and given_version != API_VERSION:
        errors.append(
            invalid(child(path, "apiVersion"), given_version, f'has to be "{API_VERSION}"')
        )
    if errors:
        raise StructureError([str(e) for e in errors])
    fields = {k: v for k, v in raw.items() if k not in ("kind", "apiVersion")}
    return structure(fields, args_type, path)


def structure_plugin_args(
    cfg: KubeSchedulerConfiguration, catalog: PluginCatalog
) -> tuple[KubeSchedulerConfiguration, list[str]]:
    """Every profile's pluginConfig args structured where the plugin declares a class,
    and one line per problem. Entries that fail keep their raw args."""
    errors: list[str] = []
    profiles = []
    for i, profile in enumerate(cfg.profiles):
        entries = []
        for j, entry in enumerate(profile.plugin_config):
            if catalog.args_type(entry.name) is None:
                entries.append(entry)
                continue
            path = f"profiles[{i}].pluginConfig[{j}].args"
            try:
                entries.append(
                    evolve(entry, args=structure_args(entry.name, catalog, entry.args, path))
                )
            except StructureError as exc:
                errors += exc.errors
                entries.append(entry)
        profiles.append(evolve(profile, plugin_config=entries))
    return evolve(cfg, profiles=profiles), errors


def args_document(entry: PluginConfig, catalog: PluginCatalog) -> dict[str, Any]:
    """A pluginConfig entry as the file would carry it, typed args with apiVersion and kind."""
    document: dict[str, Any] = {"name": entry.name}
    if entry.args is None:
        return document
    if attrs.has(type(entry.args)):
        kind = catalog.args_kind(entry.name)
        fields = omit_empty(unstructure(entry.args))
        document["args"] = {"apiVersion": API_VERSION, "kind": kind, **fields}
    else:
        document["args"] = entry.args
    return document
