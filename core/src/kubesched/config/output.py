"""A configuration as a printable, upstream-shaped document (what kube-scheduler reads back)."""

from __future__ import annotations

from typing import Any

from kubesched.config.catalog import PluginCatalog
from kubesched.config.converter import omit_empty, unstructure
from kubesched.config.plugin_args import args_document
from kubesched.config.types import API_VERSION, KIND, KubeSchedulerConfiguration


def config_document(cfg: KubeSchedulerConfiguration, catalog: PluginCatalog) -> dict[str, Any]:
    """The configuration as a kube-scheduler config file, typed args with their kind.

    Empty and unset fields are left out, as kube-scheduler prints them; args a
    plugin takes as written are printed as written.
    """
    document: dict[str, Any] = omit_empty(
        {"apiVersion": API_VERSION, "kind": KIND, **unstructure(cfg)}
    )
    for profile_doc, profile in zip(document.get("profiles", []), cfg.profiles, strict=True):
        entries = [args_document(e, catalog) for e in profile.plugin_config]
        if entries:
            profile_doc["pluginConfig"] = entries
    return document
