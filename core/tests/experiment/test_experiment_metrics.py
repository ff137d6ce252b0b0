"""Run metrics: failure reasons from upstream's messages, utilisation, fragmentation, spread."""

from __future__ import annotations

import math
import random

from hypothesis import given
from hypothesis import strategies as st

from kubesched.experiment import reasons, spread, usage_metrics
from kubesched.scheduler.simulation import NodeUsage

GIB = 1 << 30


def usage(name: str, cpu: tuple[int, int], memory: tuple[int, int] = (0, GIB)) -> NodeUsage:
    return NodeUsage(name, cpu[0], cpu[1], memory[0], memory[1], 1, 110)


def test_reasons_are_the_node_reasons_of_a_fit_error_without_the_preemption_part() -> None:
    message = (
        "0/5 nodes are available: 2 node(s) had untolerated taint(s), 3 Insufficient cpu, "
        "3 Insufficient memory. preemption: 0/5 nodes are available: 2 Preemption is not "
        "helpful for scheduling, 3 No preemption victims found for incoming pod."
    )
    assert reasons(message) == [
        "node(s) had untolerated taint(s)",
        "Insufficient cpu",
        "Insufficient memory",
    ]


def test_a_message_of_another_form_is_its_own_reason() -> None:
    assert reasons("pod has unbound immediate PersistentVolumeClaims") == [
        "pod has unbound immediate PersistentVolumeClaims"
    ]
    assert reasons("") == []


def test_utilisation_is_requested_over_allocatable_summed_over_nodes() -> None:
    utilisation, fragmentation = usage_metrics([usage("a", (1000, 4000)), usage("b", (3000, 4000))])
    assert utilisation["cpu"] == 0.5
    assert utilisation["pods"] == 2 / 220
    # free cpu: 3000 on a, 1000 on b; the largest block holds 3/4 of it
    assert fragmentation["cpu"] == 0.25
    assert "pods" not in fragmentation


def test_fragmentation_is_zero_when_all_free_capacity_is_on_one_node_or_none_is_free() -> None:
    _, packed = usage_metrics([usage("a", (4000, 4000)), usage("b", (0, 4000))])
    assert packed["cpu"] == 0.0
    _, full = usage_metrics([usage("a", (4000, 4000)), usage("b", (4000, 4000))])
    assert full["cpu"] == 0.0


@given(st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 10_000)), min_size=1, max_size=30))
def test_fragmentation_is_a_fraction_that_only_packing_brings_to_zero(
    nodes: list[tuple[int, int]],
) -> None:
    _, fragmentation = usage_metrics(
        [usage(f"n{i}", (min(used, alloc), alloc)) for i, (used, alloc) in enumerate(nodes)]
    )
    free = [alloc - min(used, alloc) for used, alloc in nodes]
    if "cpu" not in fragmentation:
        assert all(alloc == 0 for _, alloc in nodes)
        return
    value = fragmentation["cpu"]
    assert 0.0 <= value < 1.0
    holding = [f for f in free if f > 0]
    assert (value == 0.0) == (len(holding) <= 1)


@given(st.lists(st.floats(-1e12, 1e12), min_size=1, max_size=40), st.randoms())
def test_the_mean_over_seeds_does_not_depend_on_their_order(
    values: list[float], rng: random.Random
) -> None:
    shuffled = values[:]
    rng.shuffle(shuffled)
    assert spread(values) == spread(shuffled)
    assert spread(values).mean == math.fsum(values) / len(values)
    assert spread(values).min == min(values)
    assert spread(values).max == max(values)
