"""A replay's flat metrics: totals, the series' means and ends, states, observers' summaries."""

from __future__ import annotations

import math

from attrs import evolve

from kubesched.api import ClusterObjects
from kubesched.experiment._replay import replay_metrics
from kubesched.replay import Observer, PodCreated, ReplayOptions, replay, scenario_of
from kubesched.testing import make_node, make_pod


class Counting(Observer):
    """Counts attempts; its summary has a number and a text."""

    name = "counting"

    def __init__(self) -> None:
        self.attempts = 0

    def on_attempt(self, view: object, attempt: object) -> None:
        self.attempts += 1

    def summary(self) -> dict[str, int | float | str]:
        return {"attempts": self.attempts, "label": "seen"}


def test_the_metrics_summarise_the_series_and_carry_every_observer_value() -> None:
    nodes = [make_node(name).capacity(cpu="4").obj() for name in ("n1", "n2")]
    events = [
        PodCreated(at=0, pod=make_pod("a").req(cpu="2").obj(), duration=600),
        PodCreated(at=300, pod=make_pod("b").req(cpu="4").obj()),
        PodCreated(at=900, pod=make_pod("c").req(cpu="4").obj()),
    ]
    scenario = evolve(
        scenario_of(ClusterObjects(nodes=nodes), events, name="tiny"), observers=(Counting,)
    )
    result = replay(scenario, seed=1, options=ReplayOptions(sample_interval=300))
    metrics = replay_metrics(result)
    assert (metrics["created"], metrics["bound"], metrics["finished"]) == (3, 3, 1)
    assert metrics["pending_at_end"] == 0 and metrics["running_at_end"] == 2
    held = [sample.resources["cpu"].allocation for sample in result.series]
    assert metrics["utilisation_mean.cpu"] == math.fsum(held) / len(held)
    assert metrics["utilisation_end.cpu"] == held[-1]
    assert metrics["state.Running"] == 2 and metrics["state.Finished"] == 1
    assert metrics["observer.counting.attempts"] == 3
    assert metrics["observer.counting.label"] == "seen"
