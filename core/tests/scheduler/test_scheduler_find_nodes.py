"""Finding nodes: every node gets a turn, a nominated node is tried first (upstream tests)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from kubesched import hookimpl
from kubesched.api import Pod
from kubesched.framework import Code, CycleState, NodeInfo, Status
from kubesched.framework._profile import EffectiveProfile
from kubesched.framework._registry import Registry
from kubesched.framework._runtime import Framework
from kubesched.scheduler.algorithm import Algorithm, num_feasible_nodes_to_find
from kubesched.scheduler.cache import Cache
from kubesched.scheduler.snapshot import Snapshot
from kubesched.testing import make_node, make_pod


class CountingFilter:
    """Filter: passes every node, counting its calls; rejects the nodes named in args."""

    name = "CountingFilter"

    def __init__(self, args: Any, handle: Any) -> None:
        self.rejected = set(args or ())
        self.calls = 0

    @hookimpl
    def filter(self, node_info: NodeInfo) -> Status | None:
        self.calls += 1
        if node_info.name in self.rejected:
            return Status(Code.UNSCHEDULABLE, "nope")
        return None


def _setup(
    registry: Registry, nodes: int, rejected: set[str], percentage: int | None = None
) -> tuple[Framework, Snapshot]:
    if "CountingFilter" not in registry:
        registry.register("CountingFilter", CountingFilter)
    profile = EffectiveProfile(
        "default-scheduler",
        plugins={
            "queueSort": ("PrioritySort",),
            "filter": ("CountingFilter",),
            "score": ("ConstantScore",),
            "bind": ("DefaultBinder",),
        },
        plugin_args={"CountingFilter": rejected},
        percentage_of_nodes_to_score=percentage,
    )
    cache, snapshot = Cache(), Snapshot()
    for i in range(nodes):
        cache.add_node(make_node(str(i)).obj())
    cache.update_snapshot(snapshot)
    return Framework(profile, registry, snapshot=snapshot), snapshot


def test_every_node_gets_its_turn(registry: Registry) -> None:
    fw, snapshot = _setup(registry, 500, set(), percentage=30)
    algorithm = Algorithm(random.Random(0))
    to_find = num_feasible_nodes_to_find(30, 500)
    assert 500 % to_find != 0
    for i in range(2 * (500 // to_find + 1)):
        result = algorithm.schedule_pod(fw, CycleState(), make_pod("p").obj(), snapshot)
        assert result.feasible == to_find
        assert algorithm.next_start_node_index == (i + 1) * to_find % 500


@pytest.mark.parametrize(
    ("nominated", "rejected", "calls"),
    [
        ("1", set(), 1),
        ("1", {"1"}, 1 + 10),
        ("", set(), 10),
    ],
)
def test_nominated_node_is_filtered_first(
    registry: Registry, nominated: str, rejected: set[str], calls: int
) -> None:
    fw, snapshot = _setup(registry, 10, rejected)
    pod: Pod = make_pod("p").nominated_node_name(nominated).obj()
    result = Algorithm(random.Random(0)).schedule_pod(fw, CycleState(), pod, snapshot)
    plugin: Any = fw.plugins["CountingFilter"]
    assert plugin.calls == calls
    if nominated and not rejected:
        assert result.host == nominated
