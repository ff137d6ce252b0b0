"""Fake plugins for config tests: classes with hookimpls for chosen points, registered in code.

Fixtures: `upstream_registry` holds every upstream default plugin (with
upstream's extension points and args defaults), so tests can check "what
upstream would run"; `kubesched_registry` holds only the ones kubesched
ships, to check the restriction to installed plugins; `make_plugin`,
`registry_of` and `upstream_args` give tests the helpers themselves.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from attrs import field, frozen

from kubesched import hookimpl
from kubesched.framework._points import POINTS
from kubesched.framework._registry import Registry


def _make_plugin(
    name: str, *points: str, args_type: type | None = None, args_kind: str | None = None
) -> type:
    """A plugin class named `name` implementing `points` (config names, e.g. "filter")."""

    def __init__(self: Any, args: Any, handle: Any) -> None:
        self.args = args

    namespace: dict[str, Any] = {"name": name, "__init__": __init__}
    if args_type is not None:
        namespace["args_type"] = args_type
    if args_kind is not None:
        namespace["args_kind"] = args_kind
    for point in points:
        hook = POINTS[point].hook

        def impl(self: Any) -> None:
            return None

        impl.__name__ = hook
        namespace[hook] = hookimpl(impl)
    return type(name, (), namespace)


def _percent(path: str, field_name: str, value: int) -> list[str]:
    if 0 <= value <= 100:
        return []
    return [f"{path}.{field_name}: Invalid value: {value}: not in valid range [0, 100]"]


@frozen
class DefaultPreemptionArgs:
    min_candidate_nodes_percentage: int = 10
    min_candidate_nodes_absolute: int = 100

    def validate(self, path: str) -> list[str]:
        return _percent(path, "minCandidateNodesPercentage", self.min_candidate_nodes_percentage)


@frozen
class InterPodAffinityArgs:
    hard_pod_affinity_weight: int = 1
    ignore_preferred_terms_of_existing_pods: bool = False


@frozen
class NodeAffinityArgs:
    added_affinity: dict[str, Any] | None = None


@frozen
class ResourceSpec:
    name: str
    weight: int = 1


def _default_resources() -> list[ResourceSpec]:
    return [ResourceSpec("cpu", 1), ResourceSpec("memory", 1)]


@frozen
class NodeResourcesBalancedAllocationArgs:
    resources: list[ResourceSpec] = field(factory=_default_resources)


@frozen
class ScoringStrategy:
    type: str = "LeastAllocated"
    resources: list[ResourceSpec] = field(factory=_default_resources)
    requested_to_capacity_ratio: dict[str, Any] | None = None


@frozen
class NodeResourcesFitArgs:
    ignored_resources: list[str] = field(factory=list)
    ignored_resource_groups: list[str] = field(factory=list)
    scoring_strategy: ScoringStrategy = field(factory=ScoringStrategy)

    def validate(self, path: str) -> list[str]:
        supported = ("LeastAllocated", "MostAllocated", "RequestedToCapacityRatio")
        if self.scoring_strategy.type in supported:
            return []
        values = ", ".join(f'"{s}"' for s in supported)
        return [
            f"{path}.scoringStrategy.type: Unsupported value: "
            f'"{self.scoring_strategy.type}": supported values: {values}'
        ]


@frozen
class PodTopologySpreadArgs:
    default_constraints: list[dict[str, Any]] = field(factory=list)
    defaulting_type: str = "System"


@frozen
class VolumeBindingArgs:
    bind_timeout_seconds: int = 600


@frozen
class DynamicResourcesArgs:
    filter_timeout: timedelta = timedelta(seconds=10)


UPSTREAM_PLUGINS: dict[str, tuple[tuple[str, ...], type | None]] = {
    "SchedulingGates": (("preEnqueue",), None),
    "PrioritySort": (("queueSort",), None),
    "NodeUnschedulable": (("filter",), None),
    "NodeName": (("filter",), None),
    "TaintToleration": (("filter", "preScore", "score"), None),
    "NodeAffinity": (("preFilter", "filter", "preScore", "score"), NodeAffinityArgs),
    "NodePorts": (("preFilter", "filter"), None),
    "NodeResourcesFit": (("preFilter", "filter", "preScore", "score"), NodeResourcesFitArgs),
    "VolumeRestrictions": (("preFilter", "filter"), None),
    "NodeVolumeLimits": (("preFilter", "filter"), None),
    "VolumeBinding": (
        ("preFilter", "filter", "reserve", "preBind", "preScore", "score"),
        VolumeBindingArgs,
    ),
    "VolumeZone": (("preFilter", "filter"), None),
    "PodTopologySpread": (("preFilter", "filter", "preScore", "score"), PodTopologySpreadArgs),
    "InterPodAffinity": (("preFilter", "filter", "preScore", "score"), InterPodAffinityArgs),
    "DynamicResources": (
        ("preEnqueue", "preFilter", "filter", "postFilter", "score", "reserve", "preBind"),
        DynamicResourcesArgs,
    ),
    "DefaultPreemption": (("postFilter",), DefaultPreemptionArgs),
    "NodeResourcesBalancedAllocation": (("preScore", "score"), NodeResourcesBalancedAllocationArgs),
    "ImageLocality": (("score",), None),
    "DefaultBinder": (("bind",), None),
}
"""Every upstream default plugin: its extension points and its args class."""

KUBESCHED_PLUGINS = (
    "SchedulingGates",
    "PrioritySort",
    "NodeUnschedulable",
    "NodeName",
    "TaintToleration",
    "NodeAffinity",
    "NodePorts",
    "NodeResourcesFit",
    "VolumeRestrictions",
    "NodeVolumeLimits",
    "VolumeBinding",
    "VolumeZone",
    "InterPodAffinity",
    "DefaultPreemption",
    "NodeResourcesBalancedAllocation",
    "ImageLocality",
    "DefaultBinder",
)
"""The upstream plugins kubesched ships as built-in distributions."""


def _registry_of(names: tuple[str, ...] | list[str], *extra: type) -> Registry:
    """A registry with fakes of these upstream plugins plus `extra` plugin classes."""
    registry = Registry()
    for name in names:
        points, args_type = UPSTREAM_PLUGINS[name]
        registry.register(name, _make_plugin(name, *points, args_type=args_type))
    for cls in extra:
        registry.register(cls.name, cls)  # type: ignore[attr-defined]
    return registry


@pytest.fixture
def upstream_registry() -> Registry:
    return _registry_of(list(UPSTREAM_PLUGINS))


@pytest.fixture
def kubesched_registry() -> Registry:
    return _registry_of(KUBESCHED_PLUGINS)


@pytest.fixture
def make_plugin() -> Any:
    """`make_plugin(name, *points, args_type=None, args_kind=None) -> plugin class`."""
    return _make_plugin


@pytest.fixture
def registry_of() -> Any:
    """`registry_of(upstream_names, *extra_plugin_classes) -> Registry`."""
    return _registry_of


@pytest.fixture
def upstream_args() -> dict[str, type]:
    """Upstream plugin name -> its (fake) args class."""
    return {name: args for name, (_, args) in UPSTREAM_PLUGINS.items() if args is not None}
