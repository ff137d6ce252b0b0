"""Tie-breaking in the replay: the study's first-in-a-seeded-order, and upstream's random."""

from __future__ import annotations

import pytest

from kubesched.framework import Registry
from kubesched.replay import TIES_FIRST, TIES_RANDOM, node_order
from kubesched_gpushare.frag import target_workload
from kubesched_gpushare.replay import replay
from kubesched_gpushare.replay.runs import PolicyError, check_policies
from kubesched_gpushare.replay.trace import TracePod
from kubesched_gpushare.resources import NO_GPU, GpuRequest
from kubesched_gpushare.testing import gpu_node


def test_node_order_is_a_seeded_permutation() -> None:
    names = [f"n{i}" for i in range(50)]
    order = node_order(names, 42)
    assert sorted(order) == sorted(names)
    assert sorted(order.values()) == list(range(50))
    assert order == node_order(list(reversed(names)), 42)  # not the listing order
    assert order != node_order(names, 43)


def _cpu_pods(n: int) -> list[TracePod]:
    return [TracePod(f"c{i}", 4000, 1024, NO_GPU) for i in range(n)]


def _placements(ties: str, seed: int, policy: str = "bestfit") -> dict[str, list[int]]:
    nodes = [gpu_node(f"n{i}", 2, cpu="16") for i in range(6)]
    pods = [*_cpu_pods(4), TracePod("g", 1000, 1024, GpuRequest(1, 1000))]
    result = replay(nodes, pods, policy, target_workload([p.spec() for p in pods]), seed, ties)
    return result.gpus


def test_first_in_order_sends_every_tie_to_the_same_node() -> None:
    """The GPU pod grows no node's fragmentation (every node keeps room for the workload's
    GPU shape), so FGD scores all six nodes alike: under the study's rule the pod goes to the
    first node of the seed's order, for every seed."""
    for seed in (7, 8, 9):
        order = node_order([f"n{i}" for i in range(6)], seed)
        first = min(order, key=order.__getitem__)
        gpus = _placements(TIES_FIRST, seed, "fgd")
        assert {node for node, used in gpus.items() if used != [0, 0]} == {first}


def test_random_ties_spread_the_pods() -> None:
    used = {
        node
        for seed in range(6)
        for node, gpu in _placements(TIES_RANDOM, seed, "fgd").items()
        if gpu != [0, 0]
    }
    assert len(used) > 1


def test_an_unknown_tie_rule_is_refused() -> None:
    with pytest.raises(ValueError, match="ties: 'lowest' is not one of first, random"):
        _placements("lowest", 1)


def test_a_policy_whose_plugin_is_missing_names_its_distribution(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("KUBESCHED_LOAD_PLUGINS", "GpuShare,kubesched-gpushare-bestfit")
    monkeypatch.setattr("kubesched_gpushare.replay.runs.default_registry", Registry.discover)
    check_policies(["bestfit"])
    with pytest.raises(
        PolicyError, match="policy fgd needs the FGDScore plugin: install kubesched-gpushare-fgd"
    ):
        check_policies(["bestfit", "fgd"])
    with pytest.raises(PolicyError, match="unknown policy 'fastest'"):
        check_policies(["fastest"])
