"""The batch dry run's parts that need no scheduler: when it is turned off, a framework
without a nominator, and the victims' order by key."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta, timezone
from typing import Any

import numpy as np
from defaultpreemption_testlib import FakeHandle
from hypothesis import given
from hypothesis import strategies as st

from kubesched.api import Pod
from kubesched.errors import KubeschedError
from kubesched.framework import Code, CycleState, NodeInfo, NodeTable, PodInfo, Status
from kubesched.testing import make_node, make_pod
from kubesched_defaultpreemption import DefaultPreemption, batch_victims
from kubesched_defaultpreemption.importance import by_importance, more_important_pod

STARTED = datetime(2024, 5, 1, 10, 0, tzinfo=timezone.utc)


@contextmanager
def counting_chunks() -> Iterator[list[int]]:
    """Count the chunks the batch dry run works out."""
    calls: list[int] = []
    original = batch_victims.BatchVictims._work_out

    def spy(self: batch_victims.BatchVictims, nodes: Any) -> None:
        calls.append(len(nodes))
        original(self, nodes)

    batch_victims.BatchVictims._work_out = spy  # type: ignore[method-assign]
    try:
        yield calls
    finally:
        batch_victims.BatchVictims._work_out = original  # type: ignore[method-assign]


def test_a_replaced_select_victims_on_node_turns_batching_off() -> None:
    class Custom(DefaultPreemption):
        def select_victims_on_node(self, *args: Any, **kwargs: Any) -> Any:
            return super().select_victims_on_node(*args, **kwargs)

    assert DefaultPreemption._batches(Custom.__new__(Custom)) is False


@given(
    st.lists(
        st.tuples(st.sampled_from([-5, 0, 7]), st.one_of(st.none(), st.integers(0, 3))),
        max_size=12,
    )
)
def test_importance_by_key_is_the_comparison_order(specs: list[tuple[int, int | None]]) -> None:
    pods = []
    for i, (priority, minutes) in enumerate(specs):
        builder = make_pod(f"p{i}").uid(f"p{i}").priority(priority)
        if minutes is not None:
            builder = builder.start_time(STARTED + timedelta(minutes=minutes))
        pods.append(PodInfo(builder.obj()))

    def same_policy(a: Pod, b: Pod) -> bool:  # not the default: sorted by comparison
        return more_important_pod(a, b)

    by_key = [p.uid for p in by_importance(pods, more_important_pod)]
    assert by_key == [p.uid for p in by_importance(pods, same_policy)]


class MaskHandle(FakeHandle):
    """A handle that filters what-if tables row by row and has no pod nominator."""

    @property  # type: ignore[override]
    def nominator(self) -> Any:
        raise KubeschedError("this framework has no pod nominator")

    @nominator.setter
    def nominator(self, value: Any) -> None:
        pass

    def pre_filter_extensions_active(self, state: CycleState) -> bool:
        return False

    def feasible_mask(self, state: CycleState, pod: Pod, table: NodeTable) -> Any:
        return np.array(
            [self.run_filter_plugins(state, pod, ni) is None for ni in table.node_infos]
        )

    def run_filter_plugins_with_nominated_pods(
        self, state: CycleState, pod: Pod, node_info: NodeInfo
    ) -> Status | None:
        return self.run_filter_plugins(state, pod, node_info)


def dry_run_both_ways(
    nodes: list[Any], pods: list[Pod], preemptor: Pod
) -> dict[bool, tuple[list[tuple[str, list[str]]], int]]:
    """Candidates (node, victims) found with and without batching on a MaskHandle, each
    with the number of chunks the batch worked out."""
    found = {}
    for batch in (True, False):
        handle = MaskHandle(nodes, pods)
        plugin = DefaultPreemption(None, handle)
        plugin.batch_dry_run = batch
        with counting_chunks() as chunks:
            result = plugin.find_candidates(
                CycleState(),
                preemptor,
                handle.lister.node_infos(),
                {n.metadata.name: Status(Code.UNSCHEDULABLE, "Insufficient cpu") for n in nodes},
            )
        candidates = [
            (c.node_name, [v.metadata.name for v in c.victims]) for c in result.candidates
        ]
        found[batch] = (candidates, len(chunks))
    return found


def test_a_framework_without_a_nominator_batches_as_if_none_were_nominated() -> None:
    nodes = [make_node(f"n{i}").capacity(cpu="2", pods=10).obj() for i in range(3)]
    pods = [
        make_pod(f"low{i}").uid(f"low{i}").node(f"n{i % 3}").priority(0).req(cpu="800m").obj()
        for i in range(6)
    ]
    preemptor = make_pod("high").uid("high").priority(10).req(cpu="1500m").obj()
    found = dry_run_both_ways(nodes, pods, preemptor)
    for batch in (True, False):
        assert bool(found[batch][1]) is batch
    verdicts = {batch: candidates for batch, (candidates, _chunks) in found.items()}
    assert verdicts[True] == verdicts[False]
    assert len(verdicts[True]) == 3 and all(len(v) == 2 for _n, v in verdicts[True])


def test_per_node_filters_see_a_victim_taken_out_before_the_next_pod_is_put_back() -> None:
    """The batch's node copies follow the reprieve pod by pod: the bigger, more important
    pod goes back first and cannot stay; the smaller one after it can, so it is no victim."""
    nodes = [make_node(f"n{i}").capacity(cpu="2", pods=10).obj() for i in range(2)]
    pods = [
        make_pod(f"big{i}").uid(f"big{i}").node(f"n{i}").priority(5).req(cpu="1200m").obj()
        for i in range(2)
    ] + [
        make_pod(f"small{i}").uid(f"small{i}").node(f"n{i}").priority(0).req(cpu="300m").obj()
        for i in range(2)
    ]
    preemptor = make_pod("high").uid("high").priority(10).req(cpu="1500m").obj()
    found = dry_run_both_ways(nodes, pods, preemptor)
    verdicts = {batch: sorted(candidates) for batch, (candidates, _chunks) in found.items()}
    assert verdicts[True] == verdicts[False] == [("n0", ["big0"]), ("n1", ["big1"])]


def test_victim_orders_follow_the_node_and_the_preemptors_priority() -> None:
    """Kept while the node is unchanged; worked out again when a pod joins it or the
    preemptor's priority differs."""
    orders = batch_victims.VictimOrders()
    low, mid = (PodInfo(make_pod(n).priority(p).obj()) for n, p in (("low", 0), ("mid", 5)))
    node_info = NodeInfo(make_node("n1").obj(), [low])
    first = orders.of(node_info, 10, more_important_pod)
    assert first == ([low], [low])
    assert orders.of(node_info, 10, more_important_pod)[0] is first[0]  # kept
    node_info.add_pod_info(mid)
    assert orders.of(node_info, 10, more_important_pod) == ([low, mid], [mid, low])
    assert orders.of(node_info, 5, more_important_pod) == ([low], [low])
