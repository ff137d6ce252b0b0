"""The scheduler follows cluster changes: nodes coming, going and changing; pods deleted."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kubesched.api import Pod
from kubesched.cluster.memory import InMemoryCluster
from kubesched.framework import Code, Status
from kubesched.framework._profile import EffectiveProfile
from kubesched.framework._registry import Registry
from kubesched.profile import build_simulation
from kubesched.scheduler.simulation import Simulation
from kubesched.testing import make_node, make_pod

MakeProfile = Callable[..., EffectiveProfile]


def _pod(name: str, cpu: str = "1") -> Pod:
    return make_pod(name).namespace("default").req(cpu=cpu, memory="100Mi").obj()


def _node(name: str, cpu: str = "1", **labels: str) -> Any:
    builder = make_node(name).capacity(cpu=cpu, memory="4Gi", pods=10)
    for key, value in labels.items():
        builder = builder.label(key, value)
    return builder


def _sim(
    registry: Registry, profile: EffectiveProfile, nodes: list[Any], pods: list[Pod]
) -> Simulation:
    cluster = InMemoryCluster(nodes=[n.obj() for n in nodes], pods=pods)
    return build_simulation(None, registry, cluster, profiles=[profile])


def test_a_new_node_makes_a_waiting_pod_schedulable(
    registry: Registry, make_profile: MakeProfile
) -> None:
    sim = _sim(registry, make_profile(), [_node("small")], [_pod("big", cpu="3")])
    first = sim.run()
    assert first.outcomes[0].status == "Unschedulable"
    sim.cluster.add_node(_node("large", cpu="4").obj())
    assert sim.scheduler.queue.pending_counts()["unschedulable"] == 1, "applied between cycles"
    assert sim.scheduler.sync() == 1
    assert sim.scheduler.queue.pending_counts()["backoff"] == 1
    [outcome] = sim.run().outcomes
    assert (outcome.status, outcome.node) == ("Scheduled", "large")


def test_a_node_update_that_removes_the_taint_and_a_deleted_node(
    registry: Registry, make_profile: MakeProfile
) -> None:
    tainted = _node("n1", cpu="2").taint("dedicated", "db", "NoSchedule")
    sim = _sim(registry, make_profile(), [tainted, _node("gone")], [_pod("p")])
    sim.cluster.delete_node("gone")
    assert sim.run().outcomes[0].message == (
        "0/1 nodes are available: 1 node(s) had untolerated taint(s)."
    )
    sim.cluster.update_node(_node("n1", cpu="2").obj())
    assert sim.run().outcomes[0].node == "n1"
    assert sim.scheduler.snapshot.node_table.names == ["n1"]


def test_deleting_a_pod_waiting_at_permit_ends_its_attempt(
    registry: Registry, make_profile: MakeProfile
) -> None:
    def permit(pod: Pod) -> Any:
        return (Status(Code.WAIT), 60.0) if pod.metadata.name == "a" else None

    def pre_bind(pod: Pod) -> None:
        if pod.metadata.name == "b":
            [victim] = [p for p in sim.cluster.pods() if p.metadata.name == "a"]
            sim.cluster.delete_pod(victim)

    points = ("reserve", "permit", "preBind", "postBind")
    profile = make_profile(
        extra={p: ("Recorder",) for p in points},
        args={"Recorder": {"permit": permit, "pre_bind": pre_bind}},
    )
    pods = [make_pod("a").namespace("default").priority(5).obj(), _pod("b")]
    sim = _sim(registry, profile, [_node("n1", cpu="4")], pods)
    outcomes = {o.pod: o for o in sim.run().outcomes}
    assert outcomes["default/b"].status == "Scheduled"
    assert outcomes["default/a"].status == "Unschedulable"
    assert sim.scheduler.cache.num_pods == 1 and not sim.scheduler.has_waiting_bindings()
    assert [p.metadata.name for p in sim.cluster.pods()] == ["b"]
