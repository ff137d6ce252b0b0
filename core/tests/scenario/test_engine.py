"""The engine in simulated time: upstream's timing holds, and a scenario whose pods all
arrive at t=0 and never finish places every pod as `simulate` does."""

from __future__ import annotations

import random

import pytest

from kubesched.api import ClusterObjects, Node, Pod, Taint
from kubesched.replay import (
    Attempt,
    ClusterView,
    Event,
    NodeAdded,
    NodeCordoned,
    NodeRemoved,
    NodeTainted,
    Observer,
    PodCreated,
    PodDeleted,
    ReplayOptions,
    ReplayResult,
    Summary,
    node_order,
    replay,
    scenario_of,
)
from kubesched.testing import make_node, make_pod, simulate


def node(name: str, cpu: str = "4", memory: str = "8Gi") -> Node:
    return make_node(name).capacity(cpu=cpu, memory=memory).obj()


def pod(name: str, cpu: str = "1", memory: str = "1Gi") -> Pod:
    return make_pod(name).req(cpu=cpu, memory=memory).obj()


def run(nodes: list[Node], events: list[Event], seed: int = 0, **options: object) -> ReplayResult:
    scenario = scenario_of(ClusterObjects(nodes=nodes), events)
    return replay(scenario, seed=seed, options=ReplayOptions(**options))  # type: ignore[arg-type]


def records(result: ReplayResult) -> dict[str, tuple[float | None, str | None, str]]:
    return {r.pod: (r.bound, r.node, r.state) for r in result.pods}


def random_cluster(seed: int) -> tuple[list[Node], list[Pod]]:
    rng = random.Random(seed)
    nodes = [
        make_node(f"n{i}")
        .capacity(cpu=str(rng.choice([2, 4, 8])), memory=f"{rng.choice([4, 8, 16])}Gi")
        .label("zone", f"z{i % 3}")
        .obj()
        for i in range(rng.randint(3, 12))
    ]
    pods = []
    for i in range(rng.randint(10, 60)):
        builder = make_pod(f"p{i}").req(
            cpu=f"{rng.choice([100, 250, 500, 1000, 2000])}m", memory=f"{rng.choice([1, 2, 4])}Gi"
        )
        if rng.random() < 0.2:
            builder = builder.node_selector({"zone": f"z{rng.randrange(3)}"})
        if rng.random() < 0.1:
            builder = builder.priority(rng.choice([0, 100, 1000]))
        pods.append(builder.obj())
    return nodes, pods


@pytest.mark.parametrize("cluster", [0, 1, 2, 3, 4])
@pytest.mark.parametrize("seed", [0, 7])
def test_pods_at_t0_that_never_finish_are_placed_as_simulate_places_them(
    cluster: int, seed: int
) -> None:
    nodes, pods = random_cluster(cluster)
    expected = simulate(nodes, pods, seed=seed).placements
    result = run(nodes, [PodCreated(0.0, p) for p in pods], seed=seed)
    placed = {r.pod: r.node for r in result.pods}
    assert placed == expected
    assert result.totals.simulated_seconds == 0.0 or any(v is None for v in expected.values())


def test_a_completion_lets_a_waiting_pod_bind_at_that_moment() -> None:
    events: list[Event] = [
        PodCreated(0.0, pod("first", cpu="4"), duration=100.0),
        PodCreated(0.0, pod("second", cpu="4")),
    ]
    result = run([node("n1")], events)
    got = records(result)
    assert got["default/first"] == (0.0, "n1", "Finished")
    assert got["default/second"] == (100.0, "n1", "Running")
    assert [r.left for r in result.pods] == [100.0, None]


def test_a_node_added_later_receives_the_pending_pods() -> None:
    events: list[Event] = [
        PodCreated(0.0, pod("a", cpu="3")),
        PodCreated(0.0, pod("b", cpu="3")),
        NodeAdded(600.0, node("late")),
    ]
    got = records(run([node("n1")], events))
    assert sorted(got.values()) == [(0.0, "n1", "Running"), (600.0, "late", "Running")]


def test_a_deleted_pod_frees_its_node_and_its_record_says_so() -> None:
    events: list[Event] = [
        PodCreated(0.0, pod("a", cpu="4")),
        PodCreated(10.0, pod("b", cpu="4")),
        PodDeleted(50.0, "default/a"),
    ]
    result = run([node("n1")], events)
    got = records(result)
    assert got["default/a"] == (0.0, "n1", "Deleted")
    assert got["default/b"] == (50.0, "n1", "Running")
    assert result.pods[1].latency == 40.0
    assert result.totals.counters.deleted == 1


def test_removing_a_node_evicts_its_pods_and_a_cordon_keeps_new_pods_away() -> None:
    events: list[Event] = [
        PodCreated(0.0, make_pod("a").req(cpu="1").node_selector({"k": "one"}).obj()),
        NodeCordoned(5.0, "n2"),
        PodCreated(6.0, pod("b")),
        NodeRemoved(20.0, "n1"),
    ]
    nodes = [make_node("n1").capacity(cpu="4", memory="8Gi").label("k", "one").obj(), node("n2")]
    result = run(nodes, events)
    got = records(result)
    assert got["default/a"] == (0.0, "n1", "Evicted")
    assert got["default/b"] == (6.0, "n1", "Evicted")
    assert result.totals.counters.evictions == 2
    assert result.series[-1].nodes == 1


def test_a_no_execute_taint_evicts_the_pods_that_do_not_tolerate_it() -> None:
    tolerant = make_pod("t").req(cpu="1").toleration("gone", operator="Exists").obj()
    events: list[Event] = [
        PodCreated(0.0, tolerant),
        PodCreated(0.0, pod("x")),
        NodeTainted(30.0, "n1", (Taint(key="gone", effect="NoExecute"),)),
    ]
    got = records(run([node("n1")], events))
    assert got["default/t"][2] == "Running"
    assert got["default/x"][2] == "Evicted"


def test_the_first_tie_rule_sends_every_tie_to_the_first_node_of_the_seeded_order() -> None:
    names = [f"n{i}" for i in range(8)]
    for seed in range(6):
        result = run([node(n) for n in names], [PodCreated(0.0, pod("p"))], seed=seed, ties="first")
        order = node_order(names, seed)
        assert result.pods[0].node == min(names, key=order.__getitem__)
    firsts = {
        run([node(n) for n in names], [PodCreated(0.0, pod("p"))], seed=s, ties="first")
        .pods[0]
        .node
        for s in range(6)
    }
    assert len(firsts) > 1  # the order depends on the seed


def test_the_random_tie_rule_is_the_default_and_stays_upstreams() -> None:
    names = [f"n{i}" for i in range(8)]
    nodes = [node(n) for n in names]
    pods = [pod(f"p{i}") for i in range(5)]
    for seed in range(3):
        expected = simulate(nodes, pods, seed=seed).placements
        assert {r.pod: r.node for r in run(nodes, [PodCreated(0, p) for p in pods], seed).pods} == (
            expected
        )


def test_dropping_unschedulable_pods_never_retries_them() -> None:
    events: list[Event] = [
        PodCreated(0.0, pod("a", cpu="4"), duration=10.0),
        PodCreated(1.0, pod("b", cpu="4")),
        PodCreated(20.0, pod("c", cpu="4")),
    ]
    result = run([node("n1")], events, drop_unschedulable=True)
    got = records(result)
    assert got["default/b"] == (None, None, "Dropped")
    assert got["default/c"] == (20.0, "n1", "Running")
    assert result.totals.counters.dropped == 1
    assert result.totals.counters.attempts == 3


def test_observers_see_every_event_and_their_summaries_are_carried() -> None:
    class Peak(Observer):
        name = "peak"

        def __init__(self) -> None:
            self.events = 0
            self.peak = 0

        def on_event(self, view: ClusterView, event: Event) -> None:
            self.events += 1

        def on_attempt(self, view: ClusterView, attempt: Attempt) -> None:
            self.peak = max(self.peak, len(view.bound_pods))

        def summary(self) -> Summary:
            return {"events": self.events, "peakRunning": self.peak}

    events: list[Event] = [PodCreated(float(i), pod(f"p{i}"), duration=2.5) for i in range(6)]
    result = run([node("n1")], events, observers=[Peak()])
    assert result.observers == {"peak": {"events": 6, "peakRunning": 3}}
    assert result.to_document()["observers"] == {"peak": {"events": 6, "peakRunning": 3}}


def test_the_series_is_sampled_at_the_interval_with_latency_percentiles() -> None:
    events: list[Event] = [
        PodCreated(0.0, pod("a", cpu="4"), duration=90.0),
        PodCreated(0.0, pod("b", cpu="4"), duration=30.0),
        PodCreated(0.0, pod("c", cpu="4")),
    ]
    result = run([node("n1")], events, sample_interval=60.0)
    assert [s.at for s in result.series] == [0.0, 60.0, 120.0]
    first = result.series[0]
    assert first.resources["cpu"].allocated == 4000
    assert first.resources["cpu"].requested == 12000
    assert first.pending_by_reason == {"NodeResourcesFit": 2}
    assert (first.latency_p50, first.latency_p99) == (0.0, 0.0)
    assert result.series[2].latency_p50 == 90.0  # b bound at 90
    assert result.series[-1].counters.bound == 3
    assert result.totals.latency_p99 == 120.0  # c bound at 120, when b finished


def test_bind_latency_delays_running_but_holds_the_node_at_once() -> None:
    events: list[Event] = [
        PodCreated(0.0, pod("a", cpu="4"), duration=10.0),
        PodCreated(0.0, pod("b", cpu="4")),
    ]
    got = records(run([node("n1")], events, bind_latency=2.0))
    assert got["default/a"] == (2.0, "n1", "Finished")
    assert got["default/b"] == (14.0, "n1", "Running")


def test_a_run_is_the_same_for_the_same_seed() -> None:
    nodes, pods = random_cluster(3)
    rng = random.Random(5)
    events: list[Event] = [
        PodCreated(float(i * 10), p, duration=float(rng.randint(5, 400)))
        for i, p in enumerate(pods)
    ]
    first = run(nodes, events, seed=3).to_document()
    assert run(nodes, events, seed=3).to_document() == first


@pytest.mark.parametrize("interval", [7.0, 30.0, 60.0, 3600.0])
def test_the_sample_interval_changes_what_is_recorded_not_what_happens(interval: float) -> None:
    nodes, pods = random_cluster(2)
    rng = random.Random(9)
    events: list[Event] = [
        PodCreated(float(i * 20), p, duration=float(rng.randint(30, 900)))
        for i, p in enumerate(pods)
    ]
    reference = run(nodes, events, seed=1, sample_interval=10_000.0)
    result = run(nodes, events, seed=1, sample_interval=interval)
    assert result.pod_rows() == reference.pod_rows()
    assert result.totals.counters == reference.totals.counters
