"""Scheduling and binding cycles end to end on the in-memory cluster, with small test plugins."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from kubesched import hookimpl
from kubesched.api import Node, Pod
from kubesched.cluster.memory import InMemoryCluster
from kubesched.framework import Code, CycleState, PostFilterResult, Status
from kubesched.framework._profile import EffectiveProfile
from kubesched.framework._registry import Registry
from kubesched.profile import build_simulation
from kubesched.scheduler.outcome import PodOutcome
from kubesched.scheduler.simulation import DEFAULT_MAX_ATTEMPTS
from kubesched.testing import make_node, make_pod

MakeProfile = Callable[..., EffectiveProfile]


def _nodes(count: int, cpu: str = "2") -> list[Node]:
    return [
        make_node(f"n{i}").capacity(cpu=cpu, memory="4Gi", pods=110).obj() for i in range(count)
    ]


def _pod(name: str, cpu: str = "500m") -> Pod:
    return make_pod(name).namespace("default").req(cpu=cpu, memory="100Mi").obj()


def _by_pod(outcomes: list[PodOutcome]) -> dict[str, PodOutcome]:
    return {o.pod: o for o in outcomes}


def test_fit_error_message_condition_and_events(simulate: Any) -> None:
    nodes = [
        *_nodes(2),
        make_node("gpu").capacity(cpu="8", memory="4Gi").taint("gpu", "true", "NoSchedule").obj(),
    ]
    sim, result = simulate(nodes, [_pod("big", cpu="3"), _pod("small")])
    outcomes = _by_pod(result.outcomes)
    big, small = outcomes["default/big"], outcomes["default/small"]
    message = "0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient cpu."
    assert (big.status, big.node, big.message) == ("Unschedulable", None, message)
    assert small.status == "Scheduled" and small.node in ("n0", "n1")
    live = {p.metadata.name: p for p in sim.cluster.pods()}
    [condition] = live["big"].status.conditions
    assert (condition.type, condition.status, condition.reason, condition.message) == (
        "PodScheduled",
        "False",
        "Unschedulable",
        message,
    )
    failed = sim.recorder.for_object("Pod default/big")
    assert {(e.type, e.reason, e.message) for e in failed} == {
        ("Warning", "FailedScheduling", message)
    }
    [scheduled] = sim.recorder.for_object("Pod default/small")
    assert scheduled.message == f"Successfully assigned default/small to {small.node}"
    assert (result.summary.scheduled, result.summary.unschedulable) == (1, 1)


def test_pods_fill_nodes_without_overcommit_and_explain_scores(simulate: Any) -> None:
    pods = [_pod(f"p{i}", cpu="700m") for i in range(7)]
    _, result = simulate(_nodes(3), pods, explain=True)
    assert [o.status for o in result.outcomes].count("Scheduled") == 6
    usage = {u.name: u for u in result.summary.nodes}
    assert all(u.cpu_requested <= u.cpu_allocatable for u in usage.values())
    first = result.outcomes[0]
    assert first.nodes is not None and set(first.nodes) == {"n0", "n1", "n2"}
    chosen = first.nodes[first.node or ""]
    assert chosen.filter is None and chosen.total == max(n.total or 0 for n in first.nodes.values())
    assert chosen.scores["TaintToleration"] == (100, 300)
    last = result.outcomes[-1]
    assert last.nodes is not None
    assert {n.filter.plugin for n in last.nodes.values() if n.filter} == {"NodeResourcesFit"}


def test_one_feasible_node_is_taken_without_scoring(
    simulate: Any, make_profile: MakeProfile
) -> None:
    prof = make_profile(filters=("RejectNodes",), args={"RejectNodes": {"n0", "n2"}})
    _, result = simulate(_nodes(3), [_pod("p")], [prof], explain=True)
    [outcome] = result.outcomes
    assert outcome.node == "n1" and outcome.nodes is not None
    assert outcome.nodes["n1"].total is None
    assert outcome.nodes["n0"].filter == Status(
        Code.UNSCHEDULABLE, "rejected by test", plugin="RejectNodes"
    )


def test_start_index_rotates_when_one_node_is_enough(
    simulate: Any, make_profile: MakeProfile
) -> None:
    prof = make_profile(scores={})
    _, result = simulate(_nodes(3), [_pod(f"p{i}") for i in range(5)], [prof])
    assert [o.node for o in result.outcomes] == ["n0", "n1", "n2", "n0", "n1"]


def test_ties_are_broken_by_the_seed(simulate: Any, make_profile: MakeProfile) -> None:
    prof = make_profile(filters=(), scores={"ConstantScore": 1})
    runs = {
        seed: tuple(
            o.node
            for o in simulate(_nodes(5), [_pod(f"p{i}") for i in range(6)], [prof], seed=seed)[
                1
            ].outcomes
        )
        for seed in range(6)
    }
    again = simulate(_nodes(5), [_pod(f"p{i}") for i in range(6)], [prof], seed=3)[1]
    assert tuple(o.node for o in again.outcomes) == runs[3]
    assert len(set(runs.values())) > 1


def test_ties_are_drawn_uniformly_among_the_top_scored_nodes(
    simulate: Any, make_profile: MakeProfile
) -> None:
    """Three nodes tie on the top score, one scores lower: over 300 seeds each tied node
    wins about a third of the time (a binomial's 5-sigma band) and the lower one never."""
    scores = {"n0": 5, "n1": 5, "n2": 5, "n3": 1}
    prof = make_profile(filters=(), scores={"ConstantScore": 1}, args={"ConstantScore": scores})
    seeds = 300
    wins = Counter(
        simulate(_nodes(4), [_pod("p")], [prof], seed=seed)[1].outcomes[0].node
        for seed in range(seeds)
    )
    assert set(wins) == {"n0", "n1", "n2"}
    expected, sigma = seeds / 3, (seeds * (1 / 3) * (2 / 3)) ** 0.5
    assert all(abs(wins[n] - expected) < 5 * sigma for n in ("n0", "n1", "n2")), wins


def test_highest_total_score_wins(simulate: Any, make_profile: MakeProfile) -> None:
    prof = make_profile(filters=(), scores={"ConstantScore": 2}, args={"ConstantScore": {"n2": 7}})
    _, result = simulate(_nodes(3), [_pod("p")], [prof], explain=True)
    [outcome] = result.outcomes
    assert outcome.node == "n2" and outcome.nodes is not None
    assert outcome.nodes["n2"].scores == {"ConstantScore": (7, 14)}


def _recorder_profile(make_profile: MakeProfile, returns: Mapping[str, Any]) -> EffectiveProfile:
    points = ("reserve", "permit", "preBind", "postBind")
    return make_profile(extra={p: ("Recorder",) for p in points}, args={"Recorder": returns})


def _recorder(sim: Any) -> Any:
    return sim.scheduler.frameworks["default-scheduler"].plugins["Recorder"]


def test_reserve_rejection_unreserves_and_reads_zero_of_one(
    simulate: Any, make_profile: MakeProfile
) -> None:
    prof = _recorder_profile(make_profile, {"reserve": Status(Code.UNSCHEDULABLE, "no room")})
    sim, result = simulate(_nodes(2), [_pod("p")], [prof])
    [outcome] = result.outcomes
    assert outcome.message == "0/1 nodes are available: 1 no room."
    hooks = [hook for hook, _, _ in _recorder(sim).calls]
    assert hooks[:2] == ["reserve", "unreserve"] and "pre_bind" not in hooks
    assert sim.scheduler.cache.num_pods == 0


def test_permit_rejection_and_error(simulate: Any, make_profile: MakeProfile) -> None:
    def permit(pod: Pod) -> Status:
        if pod.metadata.name == "bad":
            return Status(Code.ERROR, "exploded")
        return Status(Code.UNSCHEDULABLE, "not now")

    prof = _recorder_profile(make_profile, {"permit": permit})
    sim, result = simulate(_nodes(1), [_pod("p"), _pod("bad")], [prof])
    outcomes = _by_pod(result.outcomes)
    assert outcomes["default/p"].message == "0/1 nodes are available: 1 not now."
    bad = outcomes["default/bad"]
    assert (bad.status, bad.message) == ("Error", 'running Permit plugin "Recorder": exploded')
    live = {p.metadata.name: p for p in sim.cluster.pods()}
    assert live["bad"].status.conditions[0].reason == "SchedulerError"


def test_permit_wait_times_out_on_the_simulated_clock(
    simulate: Any, make_profile: MakeProfile
) -> None:
    prof = _recorder_profile(make_profile, {"permit": (Status(Code.WAIT), 5.0)})
    sim, result = simulate(_nodes(1), [_pod("p")], [prof])
    [outcome] = result.outcomes
    assert outcome.status == "Unschedulable"
    assert outcome.message == (
        "0/1 nodes are available: 1 rejected due to timeout after waiting 5s at plugin Recorder."
    )
    assert result.simulated_seconds >= 5.0
    assert sim.scheduler.cache.num_pods == 0 and not sim.scheduler.has_waiting_bindings()


def test_waiting_pod_binds_once_allowed_while_others_schedule(
    registry: Registry, make_profile: MakeProfile
) -> None:
    holder: dict[str, Any] = {}

    def permit(pod: Pod) -> Any:
        return (Status(Code.WAIT), 60.0) if pod.metadata.name == "a" else None

    def pre_bind(pod: Pod) -> None:
        if pod.metadata.name == "b":
            for waiting in holder["plugin"].handle.iterate_over_waiting_pods():
                waiting.allow("Recorder")

    prof = _recorder_profile(make_profile, {"permit": permit, "pre_bind": pre_bind})
    pods = [make_pod("a").namespace("default").priority(10).obj(), _pod("b")]
    sim = build_simulation(
        None, registry, InMemoryCluster(nodes=_nodes(2), pods=pods), profiles=[prof]
    )
    holder["plugin"] = _recorder(sim)
    result = sim.run()
    assert [o.status for o in result.outcomes] == ["Scheduled", "Scheduled"]
    order = [(hook, pod) for hook, pod, _ in holder["plugin"].calls if hook == "pre_bind"]
    assert order == [("pre_bind", "b"), ("pre_bind", "a")]
    assert result.simulated_seconds == 0.0


def test_prebind_error_forgets_the_pod_and_reports_error(
    simulate: Any, make_profile: MakeProfile
) -> None:
    prof = _recorder_profile(make_profile, {"pre_bind": Status(Code.ERROR, "boom")})
    sim, result = simulate(_nodes(1), [_pod("p")], [prof])
    [outcome] = result.outcomes
    assert (outcome.status, outcome.message) == ("Error", 'running PreBind plugin "Recorder": boom')
    assert sim.scheduler.cache.num_pods == 0
    hooks = [h for h, _, _ in _recorder(sim).calls]
    assert hooks.count("pre_bind") == hooks.count("unreserve") == DEFAULT_MAX_ATTEMPTS


def test_a_bind_that_fails_once_is_retried_on_backoff_and_binds(
    simulate: Any, make_profile: MakeProfile
) -> None:
    """Upstream's handleBindingCycleError: unreserve, forget, back to the queue with backoff
    (an error needs no cluster event), so the next attempt binds the pod."""
    failures = iter([Status(Code.ERROR, "transient")])

    def pre_bind(pod: Pod) -> Status | None:
        return next(failures, None)

    sim, result = simulate(
        _nodes(1), [_pod("p")], [_recorder_profile(make_profile, {"pre_bind": pre_bind})]
    )
    [outcome] = result.outcomes
    assert (outcome.status, outcome.node, outcome.attempts) == ("Scheduled", "n0", 2)
    assert outcome.stopped is None
    assert result.simulated_seconds >= 1.0, "waited out the initial backoff"
    assert [p.spec.node_name for p in sim.cluster.pods()] == ["n0"]


class Nominate:
    """PostFilter: nominates node n1 without evicting anything, or says why not."""

    name = "Nominate"

    def __init__(self, args: Any, handle: Any) -> None:
        self.nominate = bool(args)

    @hookimpl
    def post_filter(
        self, state: CycleState, pod: Pod, filtered_node_status_map: Mapping[str, Status]
    ) -> PostFilterResult | Status:
        assert len(filtered_node_status_map) == 2
        if self.nominate:
            return PostFilterResult("n1")
        return Status(Code.UNSCHEDULABLE, "preemption: not helpful")


def test_post_filter_message_and_nomination(
    simulate: Any, registry: Registry, make_profile: MakeProfile
) -> None:
    if "Nominate" not in registry:
        registry.register("Nominate", Nominate)
    quiet = make_profile(extra={"postFilter": ("Nominate",)}, args={"Nominate": False})
    _, result = simulate(_nodes(2, cpu="1"), [_pod("p", cpu="2")], [quiet])
    assert result.outcomes[0].message == (
        "0/2 nodes are available: 2 Insufficient cpu. preemption: not helpful"
    )
    eager = make_profile(extra={"postFilter": ("Nominate",)}, args={"Nominate": True})
    sim, result = simulate(_nodes(2, cpu="1"), [_pod("p", cpu="2")], [eager])
    [outcome] = result.outcomes
    assert outcome.nominated_node == "n1"
    [live] = sim.cluster.pods()
    assert live.status.nominated_node_name == "n1"
    assert [
        pi.pod.metadata.name for pi in sim.scheduler.nominator.nominated_pods_for_node("n1")
    ] == ["p"]


def test_no_nodes_and_other_schedulers(simulate: Any) -> None:
    pods = [_pod("p"), make_pod("x").scheduler_name("someone-else").obj()]
    sim, result = simulate([], pods)
    [outcome] = result.outcomes
    assert (outcome.status, outcome.message) == (
        "Unschedulable",
        "no nodes available to schedule pods",
    )
    assert result.summary.other_schedulers == 1
    assert sim.recorder.for_object("Pod /x") == []


def test_gated_pods_are_reported_gated_with_their_gate(simulate: Any) -> None:
    """Held by SchedulingGates, never attempted: `Gated`, not counted Unschedulable; the
    pod carries the API server's PodScheduled condition, reason SchedulingGated."""
    sim, result = simulate(
        _nodes(1), [make_pod("g").namespace("default").scheduling_gates("a", "b").obj()]
    )
    [outcome] = result.outcomes
    assert (outcome.status, outcome.attempts, outcome.message) == (
        "Gated",
        0,
        "waiting for scheduling gates: [a b]",
    )
    assert (result.summary.gated, result.summary.unschedulable) == (1, 0)
    [live] = sim.cluster.pods()
    [condition] = live.status.conditions
    assert (condition.type, condition.status, condition.reason, condition.message) == (
        "PodScheduled",
        "False",
        "SchedulingGated",
        "Scheduling is blocked due to non-empty scheduling gates",
    )


def test_a_pending_pod_being_deleted_is_skipped_not_unschedulable(simulate: Any) -> None:
    """Upstream's skipPodSchedule: a FailedScheduling event, no condition, never retried."""
    from datetime import datetime, timezone

    deleting = (
        make_pod("d").namespace("default")
        .deletion_timestamp(datetime(2024, 1, 1, tzinfo=timezone.utc)).obj()
    )  # fmt: skip
    sim, result = simulate(_nodes(1), [deleting])
    [outcome] = result.outcomes
    message = "skip schedule deleting pod: default/d"
    assert (outcome.status, outcome.node, outcome.message, outcome.attempts) == (
        "Skipped",
        None,
        message,
        1,
    )
    assert (result.summary.skipped, result.summary.unschedulable) == (1, 0)
    [event] = sim.recorder.for_object("Pod default/d")
    assert (event.reason, event.message) == ("FailedScheduling", message)
    [live] = sim.cluster.pods()
    assert live.status.conditions == [] and not live.spec.node_name


def test_pods_are_tried_by_priority(simulate: Any) -> None:
    pods = [make_pod(f"p{i}").namespace("default").priority(i).obj() for i in range(4)]
    _, result = simulate(_nodes(1), pods)
    assert [o.pod for o in result.outcomes] == [f"default/p{i}" for i in (3, 2, 1, 0)]


class Raiser:
    """Filter: raises for pods labelled `explode`."""

    name = "Raiser"

    def __init__(self, args: Any, handle: Any) -> None:
        pass

    @hookimpl
    def filter(self, pod: Pod) -> None:
        if "explode" in pod.metadata.labels:
            raise RuntimeError("kaboom")


def test_a_raising_plugin_fails_the_pod_with_an_error_retried_on_backoff_until_the_limit(
    simulate: Any, registry: Registry, make_profile: MakeProfile
) -> None:
    if "Raiser" not in registry:
        registry.register("Raiser", Raiser)
    prof = make_profile(filters=("NodeResourcesFit", "Raiser"))
    bad = make_pod("bad").namespace("default").priority(9).label("explode", "yes").obj()
    sim, result = simulate(_nodes(2), [bad, _pod("good")], [prof])
    outcomes = _by_pod(result.outcomes)
    failed = outcomes["default/bad"]
    assert failed.status == "Error"
    assert failed.message == 'plugin "Raiser" raised RuntimeError in filter: kaboom'
    assert outcomes["default/good"].status == "Scheduled"
    assert failed.attempts == DEFAULT_MAX_ATTEMPTS, "errors are retried on backoff, as upstream"
    assert failed.stopped == f"tried {DEFAULT_MAX_ATTEMPTS} times (--max-attempts)"
    assert outcomes["default/good"].stopped is None
    backoffs = [min(2**i, 10) for i in range(DEFAULT_MAX_ATTEMPTS - 1)]  # 1 s doubling to 10 s
    assert result.simulated_seconds >= sum(backoffs)
    live = {p.metadata.name: p for p in sim.cluster.pods()}
    assert live["bad"].status.conditions[0].reason == "SchedulerError"


def test_a_pod_requeued_forever_is_given_up_after_the_attempt_limit(
    simulate: Any, make_profile: MakeProfile
) -> None:
    counter = iter(range(10**6))

    def permit(pod: Pod) -> Status:
        return Status(Code.UNSCHEDULABLE, f"try {next(counter)}")

    prof = _recorder_profile(make_profile, {"permit": permit})
    _, result = simulate(_nodes(1), [_pod("p")], [prof])
    [outcome] = result.outcomes
    assert outcome.attempts == DEFAULT_MAX_ATTEMPTS
    assert outcome.message == f"0/1 nodes are available: 1 try {DEFAULT_MAX_ATTEMPTS - 1}."
    assert outcome.stopped == f"tried {DEFAULT_MAX_ATTEMPTS} times (--max-attempts)"
