"""Helpers for scheduler tests: a registry with the built-in basics and small test plugins."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

import pytest

from kubesched import hookimpl
from kubesched.api import Node, Pod
from kubesched.cluster.memory import InMemoryCluster
from kubesched.framework import Code, CycleState, NodeInfo, Status
from kubesched.framework._profile import EffectiveProfile
from kubesched.framework._registry import Registry, default_registry
from kubesched.profile import build_simulation
from kubesched.scheduler.simulation import Simulation, SimulationResult

BUILT_IN = (
    "PrioritySort",
    "DefaultBinder",
    "SchedulingGates",
    "NodeResourcesFit",
    "TaintToleration",
)


class RejectNodes:
    """Filter: rejects the nodes named in its args (a set), Unschedulable."""

    name = "RejectNodes"

    def __init__(self, args: Any, handle: Any) -> None:
        self.nodes: set[str] = set(args or ())

    @hookimpl
    def filter(self, node_info: NodeInfo) -> Status | None:
        if node_info.name in self.nodes:
            return Status(Code.UNSCHEDULABLE, "rejected by test")
        return None


class Recorder:
    """Reserve/Unreserve/Permit/PreBind/PostBind: records calls; args map hook -> Status
    (or a callable returning one) to return."""

    name = "Recorder"

    def __init__(self, args: Mapping[str, Any] | None, handle: Any) -> None:
        self.returns = dict(args or {})
        self.calls: list[tuple[str, str, str]] = []
        self.handle = handle

    def _answer(self, hook: str, pod: Pod, node_name: str) -> Any:
        self.calls.append((hook, pod.metadata.name, node_name))
        value = self.returns.get(hook)
        return value(pod) if callable(value) else value

    @hookimpl
    def reserve(self, pod: Pod, node_name: str) -> Any:
        return self._answer("reserve", pod, node_name)

    @hookimpl
    def unreserve(self, pod: Pod, node_name: str) -> None:
        self._answer("unreserve", pod, node_name)

    @hookimpl
    def permit(self, pod: Pod, node_name: str) -> Any:
        return self._answer("permit", pod, node_name)

    @hookimpl
    def pre_bind(self, pod: Pod, node_name: str) -> Any:
        return self._answer("pre_bind", pod, node_name)

    @hookimpl
    def post_bind(self, pod: Pod, node_name: str) -> None:
        self._answer("post_bind", pod, node_name)


class ConstantScore:
    """Score: the score its args give per node name (default 0)."""

    name = "ConstantScore"

    def __init__(self, args: Mapping[str, int] | None, handle: Any) -> None:
        self.scores = dict(args or {})

    @hookimpl
    def score(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> int:
        return self.scores.get(node_info.name, 0)


TEST_PLUGINS = (RejectNodes, Recorder, ConstantScore)


@pytest.fixture(scope="session")
def registry() -> Registry:
    discovered = default_registry()
    reg = Registry()
    for name in BUILT_IN:
        reg.register(name, discovered.load(name), source="in-tree")
    for plugin in TEST_PLUGINS:
        reg.register(plugin.name, plugin)
    return reg


def profile(
    name: str = "default-scheduler",
    *,
    filters: Iterable[str] = ("NodeResourcesFit", "TaintToleration"),
    scores: Mapping[str, int] | None = None,
    extra: Mapping[str, tuple[str, ...]] | None = None,
    args: Mapping[str, Any] | None = None,
    percentage: int | None = None,
) -> EffectiveProfile:
    """A profile with PrioritySort, SchedulingGates, DefaultBinder, the given Filter plugins
    (NodeResourcesFit also at PreFilter) and Score plugins with weights."""
    filters = tuple(filters)
    scores = dict(scores if scores is not None else {"NodeResourcesFit": 1, "TaintToleration": 3})
    plugins: dict[str, tuple[str, ...]] = {
        "preEnqueue": ("SchedulingGates",),
        "queueSort": ("PrioritySort",),
        "preFilter": tuple(p for p in filters if p == "NodeResourcesFit"),
        "filter": filters,
        "preScore": tuple(p for p in scores if p in ("NodeResourcesFit", "TaintToleration")),
        "score": tuple(scores),
        "bind": ("DefaultBinder",),
    }
    for point, names in (extra or {}).items():
        plugins[point] = plugins.get(point, ()) + names
    return EffectiveProfile(
        name,
        plugins=plugins,
        score_weights=scores,
        plugin_args=dict(args or {}),
        percentage_of_nodes_to_score=percentage,
    )


Simulate = Callable[..., tuple[Simulation, SimulationResult]]


@pytest.fixture
def simulate(registry: Registry) -> Simulate:
    """`simulate(nodes, pods, profiles=None, **simulation_kwargs)` -> (simulation, result)."""

    def run(
        nodes: Iterable[Node],
        pods: Iterable[Pod],
        profiles: Iterable[EffectiveProfile] | None = None,
        **kwargs: Any,
    ) -> tuple[Simulation, SimulationResult]:
        cluster = InMemoryCluster(nodes=nodes, pods=pods)
        sim = build_simulation(
            None, registry, cluster, profiles=list(profiles or [profile()]), **kwargs
        )
        return sim, sim.run()

    return run


@pytest.fixture
def make_profile() -> Callable[..., EffectiveProfile]:
    return profile
