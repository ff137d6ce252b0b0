"""Invariants of any run: no node holds more than it allocates at any sample, every pod's
record is consistent with its life, the counts add up, and a run is reproducible."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from kubesched.api import ClusterObjects
from kubesched.replay import (
    ClusterView,
    Event,
    NodeAdded,
    Observer,
    PodCreated,
    PodDeleted,
    ReplayOptions,
    Sample,
    replay,
    scenario_of,
)
from kubesched.testing import make_node, make_pod


@st.composite
def streams(draw: st.DrawFn) -> tuple[int, list[Event]]:
    nodes = draw(st.integers(1, 4))
    events: list[Event] = []
    at = 0.0
    live: list[str] = []
    for i in range(draw(st.integers(1, 25))):
        at += draw(st.sampled_from([0.0, 0.5, 1.0, 30.0, 200.0]))
        choice = draw(st.integers(0, 9))
        if choice == 0 and live:
            events.append(PodDeleted(at, live.pop(draw(st.integers(0, len(live) - 1)))))
        elif choice == 1:
            cpu = draw(st.sampled_from(["2", "4"]))
            node = make_node(f"extra-{i}").capacity(cpu=cpu, memory="8Gi").obj()
            events.append(NodeAdded(at, node))
        else:
            cpu = draw(st.sampled_from(["500m", "1", "2", "3"]))
            duration = draw(st.none() | st.sampled_from([1.0, 45.0, 400.0]))
            pod = make_pod(f"p{i}").req(cpu=cpu, memory="1Gi").obj()
            events.append(PodCreated(at, pod, duration=duration))
            live.append(pod.key)
    return nodes, events


class NoOvercommit(Observer):
    def __init__(self) -> None:
        self.worst = 0

    def on_sample(self, view: ClusterView, sample: Sample) -> None:
        for name, node in view.nodes.items():
            used = view.requested(name).get("cpu", 0)
            self.worst = max(self.worst, used - node.status.allocatable.get("cpu", 0))


@settings(max_examples=25, deadline=None)
@given(streams(), st.integers(0, 3), st.booleans())
def test_any_run_keeps_its_invariants(
    stream: tuple[int, list[Event]], seed: int, drop: bool
) -> None:
    count, events = stream
    nodes = [make_node(f"n{i}").capacity(cpu="4", memory="8Gi").obj() for i in range(count)]
    check = NoOvercommit()
    options = ReplayOptions(sample_interval=10.0, drop_unschedulable=drop, observers=[check])
    scenario = scenario_of(ClusterObjects(nodes=nodes), events)
    result = replay(scenario, seed=seed, options=options)
    assert check.worst <= 0
    c = result.totals.counters
    states = result.states()
    assert c.created == len(result.pods) == sum(1 for e in events if isinstance(e, PodCreated))
    assert c.bound == sum(1 for r in result.pods if r.bound is not None)
    assert states["Finished"] == c.finished and states["Dropped"] == c.dropped
    assert states["Running"] + states["Pending"] + states["Waiting"] == len(
        [r for r in result.pods if r.left is None]
    )
    for record in result.pods:
        if record.bound is not None:
            assert record.bound >= record.created and record.node is not None
        if record.left is not None:
            assert record.left >= record.created
        if record.state == "Finished":
            assert record.bound is not None and record.duration is not None
            assert record.left == record.bound + record.duration
    assert (
        replay(
            scenario,
            seed=seed,
            options=ReplayOptions(sample_interval=10.0, drop_unschedulable=drop),
        ).to_document()
        == result.to_document()
    )
