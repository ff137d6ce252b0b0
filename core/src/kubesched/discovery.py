"""What installed distributions declare, read from their metadata without importing them.

Plugin discovery (`kubesched.framework.Registry`) and plugin commands
(`kubesched <command>`) share these rules:

- the environment switches (pytest's and llm's conventions):
  `KUBESCHED_DISABLE_PLUGIN_AUTOLOAD=1` keeps out-of-tree distributions out
  unless `KUBESCHED_LOAD_PLUGINS=a,b` names them (by plugin, command or
  distribution name); `KUBESCHED_LOAD_PLUGINS` alone loads only what it names;
- which distributions are in-tree (the built-in plugins);
- the compatibility promise: a distribution states the kubesched-core versions
  it works with as a version range on `kubesched-core` in its `Requires-Dist`
  metadata (`dependencies = ["kubesched-core>=0.1,<0.3"]`). A distribution
  whose range excludes the installed core is reported, never loaded; one that
  names kubesched-core without a range supports every version.

This module imports neither the framework nor the CLI, so `kubesched --help`
stays fast.
"""

from __future__ import annotations

import importlib.metadata as md
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from packaging.requirements import Requirement

KUBERNETES_MINOR = "v1.35"
"""The Kubernetes minor whose kube-scheduler this kubesched release follows (behaviour,
defaults, messages, configuration API)."""

DISABLE_AUTOLOAD_ENV = "KUBESCHED_DISABLE_PLUGIN_AUTOLOAD"
LOAD_PLUGINS_ENV = "KUBESCHED_LOAD_PLUGINS"

IN_TREE_PLUGINS: Mapping[str, str] = {
    name: f"kubesched-{name.lower()}"
    for name in (
        "PrioritySort",
        "SchedulingGates",
        "NodeUnschedulable",
        "NodeName",
        "NodeAffinity",
        "NodeResourcesFit",
        "TaintToleration",
        "DefaultBinder",
        "DefaultPreemption",
        "VolumeRestrictions",
        "VolumeZone",
        "NodeVolumeLimits",
        "VolumeBinding",
        "PodTopologySpread",
        "NodePorts",
        "NodeResourcesBalancedAllocation",
        "ImageLocality",
        "InterPodAffinity",
        "DynamicResources",
    )
}
"""In-tree plugin name -> the distribution that ships it."""

IN_TREE_DISTRIBUTIONS = frozenset(IN_TREE_PLUGINS.values())
"""The distributions that make up upstream's in-tree registry."""


def normalize_distribution_name(name: str) -> str:
    """PEP 503 normalisation, so `Kubesched_Foo` and `kubesched-foo` are one distribution."""
    return re.sub(r"[-_.]+", "-", name).lower()


def load_list(env: Mapping[str, str]) -> set[str] | None:
    """What `KUBESCHED_LOAD_PLUGINS` names, or None when it is not set."""
    raw = env.get(LOAD_PLUGINS_ENV)
    if raw is None:
        return None
    return {item.strip() for item in raw.split(",") if item.strip()}


def autoload_disabled(env: Mapping[str, str]) -> bool:
    """Whether `KUBESCHED_DISABLE_PLUGIN_AUTOLOAD` is set to a true value."""
    return env.get(DISABLE_AUTOLOAD_ENV, "").strip().lower() in {"1", "true", "yes"}


CORE_DISTRIBUTION = "kubesched-core"


def installed_core_version() -> str:
    """The version of the installed kubesched-core ("0.0.0" when running from a bare tree)."""
    try:
        return md.version(CORE_DISTRIBUTION)
    except md.PackageNotFoundError:  # pragma: no cover - a source tree without install
        return "0.0.0"


def core_requirement(requires: list[str] | None) -> Requirement | None:
    """The distribution's requirement on kubesched-core, outside any extra, if it has one.

    A requirement line that does not parse is not ours to judge: pip reported it at
    install time; it is skipped here.
    """
    from packaging.markers import UndefinedEnvironmentName
    from packaging.requirements import InvalidRequirement, Requirement

    for line in requires or ():
        try:
            requirement = Requirement(line)
        except InvalidRequirement:
            continue
        if normalize_distribution_name(requirement.name) != CORE_DISTRIBUTION:
            continue
        if requirement.marker is not None:
            try:
                if not requirement.marker.evaluate({"extra": ""}):
                    continue
            except UndefinedEnvironmentName:
                continue
        return requirement
    return None


def incompatibility(
    distribution: str, version: str | None, requires: list[str] | None, core_version: str
) -> str | None:
    """Why `distribution` cannot run on kubesched-core `core_version`, or None when it can.

    >>> incompatibility("kubesched-foo", "1.0", ["kubesched-core>=0.3"], "0.1.0")
    'kubesched-foo 1.0 supports kubesched-core >=0.3 (its Requires-Dist), not the installed 0.1.0'
    >>> incompatibility("kubesched-foo", "1.0", ["kubesched-core>=0.1,<1"], "0.1.0") is None
    True
    """
    from packaging.version import InvalidVersion, Version

    requirement = core_requirement(requires)
    if requirement is None or not str(requirement.specifier):
        return None
    try:
        installed = Version(core_version)
    except InvalidVersion:  # pragma: no cover - our own version always parses
        return None
    if requirement.specifier.contains(installed, prereleases=True):
        return None
    label = f"{distribution} {version}" if version else distribution
    return (
        f"{label} supports {CORE_DISTRIBUTION} {requirement.specifier} (its Requires-Dist), "
        f"not the installed {core_version}"
    )
