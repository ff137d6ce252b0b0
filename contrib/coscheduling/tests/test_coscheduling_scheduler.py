"""Gangs through the real scheduler (kubesched.testing.simulate): all or nothing, no
deadlock between gangs, timeouts that reject and requeue a gang, nothing left reserved."""

from __future__ import annotations

from collections import Counter

from coscheduling_testlib import config, gang, nodes
from hypothesis import given, settings
from hypothesis import strategies as st

from kubesched.api import Pod
from kubesched.testing import SimulationRun, make_node, make_pod, simulate
from kubesched_coscheduling import POD_GROUP_LABEL


def assert_nothing_held(run: SimulationRun) -> None:
    """No pod assumed in the cache or waiting at Permit, and every CPU accounted for by a
    pod bound in the cluster."""
    assert run.scheduler.cache.num_assumed_pods == 0
    assert len(run.scheduler.waiting_pods) == 0
    bound = Counter(pod.spec.node_name for pod in run.cluster.pods() if pod.spec.node_name)
    assert {u.name: u.pods for u in run.result.summary.nodes if u.pods} == dict(bound)
    for usage in run.result.summary.nodes:
        assert usage.cpu_requested <= usage.cpu_allocatable


def placed(run: SimulationRun, group: str) -> list[str]:
    return [
        pod for pod, node in run.placements.items() if pod.startswith(f"default/{group}-") and node
    ]


def test_a_gang_of_four_with_room_for_three_places_none() -> None:
    run = simulate(nodes(3), gang("g", 4, 4), config())
    assert run.placements == dict.fromkeys([f"default/g-{i}" for i in range(4)])
    assert_nothing_held(run)
    assert not any(pod.spec.node_name for pod in run.cluster.pods())
    assert all(usage.cpu_requested == 0 for usage in run.result.summary.nodes)
    assert run.outcome("default/g-3").message.startswith("0/3 nodes are available: ")


def test_a_gang_of_four_with_room_for_four_places_all_four() -> None:
    run = simulate(nodes(4), gang("g", 4, 4), config())
    assert sorted(node for node in run.placements.values() if node) == ["n0", "n1", "n2", "n3"]
    assert_nothing_held(run)
    assert run.result.simulated_seconds == 0


def test_without_coscheduling_the_same_gang_is_partly_placed() -> None:
    run = simulate(nodes(3), gang("g", 4, 4))
    assert len(placed(run, "g")) == 3


def interleaved(*gangs: list[Pod]) -> list[Pod]:
    return [pod for members in zip(*gangs, strict=True) for pod in members]


def test_two_competing_gangs_do_not_deadlock() -> None:
    """Room for six, two gangs of four arriving interleaved: one gang completes."""
    pods = interleaved(gang("a", 4, 4), gang("b", 4, 4))
    run = simulate(nodes(6), pods, config())
    assert sorted([len(placed(run, "a")), len(placed(run, "b"))]) == [0, 4]
    assert_nothing_held(run)
    halves = simulate(nodes(6), pods)
    assert [len(placed(halves, "a")), len(placed(halves, "b"))] == [3, 3]


def test_a_higher_priority_gang_goes_first() -> None:
    low = gang("a", 4, 4)
    high = [
        make_pod(f"b-{i}")
        .namespace("default")
        .label(POD_GROUP_LABEL, "b")
        .annotation("scheduling.x-k8s.io/min-available", "4")
        .priority(100)
        .req(cpu="1")
        .obj()
        for i in range(4)
    ]
    run = simulate(nodes(6), interleaved(low, high), config())
    assert (len(placed(run, "a")), len(placed(run, "b"))) == (0, 4)


def test_a_timeout_rejects_and_requeues_the_gang_which_schedules_once_room_appears() -> None:
    pods = gang("g", 4, 4)
    run = simulate(
        nodes(3), pods, config(permitWaitingTimeSeconds=10, podGroupRejectPercentage=100)
    )
    assert run.placements == dict.fromkeys([f"default/g-{i}" for i in range(4)])
    assert run.result.simulated_seconds >= 10
    timed_out = [
        event.involved
        for event in run.simulation.recorder.events
        if "rejected due to timeout after waiting 10s at plugin Coscheduling" in event.message
    ]
    assert sorted(timed_out) == ["Pod default/g-0", "Pod default/g-1", "Pod default/g-2"]
    assert (
        "timed out at Permit) and nothing has changed since" in run.outcome("default/g-3").message
    )
    assert all(run.scheduler.queue.get(pod) is not None for pod in pods)
    assert_nothing_held(run)

    run.cluster.add_node(make_node("n3").capacity(cpu="1", memory="8Gi").obj())
    run.resume()
    assert sorted(node for node in run.placements.values() if node) == ["n0", "n1", "n2", "n3"]
    assert_nothing_held(run)


def test_a_gang_missing_members_waits_for_them() -> None:
    pods = gang("g", 3, 3)
    run = simulate(nodes(3), pods[:2], config())
    assert run.outcome("default/g-0").message.startswith(
        "0/3 nodes are available: pre-filter pod g-0 cannot find enough sibling pods, "
        "current pods number: 2, minMember of group: 3."
    )
    run.cluster.add_pod(pods[2])
    run.resume()
    assert len(placed(run, "g")) == 3


def test_pods_without_a_group_schedule_as_usual() -> None:
    lone = [make_pod(f"web-{i}").namespace("default").req(cpu="1").obj() for i in range(2)]
    run = simulate(nodes(4), [*lone, *gang("g", 2, 2)], config())
    assert all(run.placements.values())


@settings(max_examples=25, deadline=None)
@given(
    node_cpus=st.lists(st.integers(1, 3), min_size=1, max_size=4),
    gangs=st.lists(
        st.tuples(st.integers(1, 4), st.integers(0, 4), st.sampled_from(["500m", "1", "2"])),
        min_size=1,
        max_size=3,
    ),
)
def test_every_gang_is_placed_up_to_its_minimum_or_not_at_all(
    node_cpus: list[int], gangs: list[tuple[int, int, str]]
) -> None:
    cluster = [
        make_node(f"n{i}").capacity(cpu=str(cpu), memory="8Gi").obj()
        for i, cpu in enumerate(node_cpus)
    ]
    pods = [
        pod
        for g, (size, minimum, cpu) in enumerate(gangs)
        for pod in gang(f"g{g}", size, min(minimum, size), cpu)
    ]
    run = simulate(cluster, pods, config(), max_attempts=2_000)
    for g, (size, minimum, _cpu) in enumerate(gangs):
        count = len(placed(run, f"g{g}"))
        assert count == 0 or count >= min(minimum, size)
    assert_nothing_held(run)
