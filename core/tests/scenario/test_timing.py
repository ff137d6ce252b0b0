"""Upstream's timers in simulated time: error backoff (default and configured), Permit
timeouts, and PopFromBackoffQ taking a rejected pod early when activeQ is empty."""

from __future__ import annotations

from typing import Any

from kubesched import hookimpl
from kubesched.api import ClusterObjects, Node, Pod
from kubesched.framework import Code, Registry, Status, default_registry
from kubesched.replay import (
    Attempt,
    ClusterView,
    Event,
    NodeAdded,
    Observer,
    PodCreated,
    ReplayOptions,
    ReplayResult,
    replay,
    scenario_of,
)
from kubesched.testing import make_node, make_pod


class FailFirstPreBind:
    """PreBind: an Error for each pod's first binding cycle, success afterwards."""

    name = "FailFirstPreBind"

    def __init__(self, args: Any, handle: Any) -> None:
        self.seen: set[str] = set()

    @hookimpl
    def pre_bind(self, pod: Pod, node_name: str) -> Status | None:
        if pod.uid in self.seen:
            return None
        self.seen.add(pod.uid)
        return Status(Code.ERROR, "volume not ready yet")


class WaitForever:
    """Permit: holds every pod for 30 s, and nobody allows it."""

    name = "WaitForever"

    def __init__(self, args: Any, handle: Any) -> None:
        pass

    @hookimpl
    def permit(self, pod: Pod, node_name: str) -> tuple[Status, float]:
        return Status(Code.WAIT), 30.0


def registry() -> Registry:
    merged = Registry()
    merged.merge(default_registry())
    merged.register("FailFirstPreBind", FailFirstPreBind)
    merged.register("WaitForever", WaitForever)
    return merged


def config(point: str, plugin: str, **settings: Any) -> dict[str, Any]:
    return {
        "apiVersion": "kubescheduler.config.k8s.io/v1",
        "kind": "KubeSchedulerConfiguration",
        **settings,
        "profiles": [{"plugins": {point: {"enabled": [{"name": plugin}]}}}],
    }


class Attempts(Observer):
    def __init__(self) -> None:
        self.seen: list[tuple[float, str]] = []

    def on_attempt(self, view: ClusterView, attempt: Attempt) -> None:
        self.seen.append((attempt.at, attempt.status))


def node(name: str, cpu: str = "4") -> Node:
    return make_node(name).capacity(cpu=cpu, memory="8Gi").obj()


def run(
    cfg: dict[str, Any] | None, nodes: list[Node], events: list[Event]
) -> tuple[ReplayResult, list[tuple[float, str]]]:
    observer = Attempts()
    result = replay(
        scenario_of(ClusterObjects(nodes=nodes), events),
        cfg,
        options=ReplayOptions(observers=[observer]),
        registry=registry(),
    )
    return result, observer.seen


def test_a_pod_failing_with_an_error_at_t0_is_retried_after_the_1s_backoff() -> None:
    # The backoff ends at 1 s; upstream's backoffQ pops a pod once the ordering window its
    # expiry falls in (1 s wide, KEP-5142) is over: the retry is at 2 s.
    pod = make_pod("p").req(cpu="1").obj()
    result, seen = run(config("preBind", "FailFirstPreBind"), [node("n1")], [PodCreated(0.0, pod)])
    assert seen == [(0.0, "Error"), (2.0, "Scheduled")]
    assert result.pods[0].bound == 2.0


def test_the_configured_initial_backoff_is_waited() -> None:
    cfg = config("preBind", "FailFirstPreBind", podInitialBackoffSeconds=4)
    pod = make_pod("p").req(cpu="1").obj()
    _, seen = run(cfg, [node("n1")], [PodCreated(0.0, pod)])
    assert seen == [(0.0, "Error"), (5.0, "Scheduled")]


def test_a_permit_timeout_rejects_the_pod_at_its_deadline() -> None:
    pod = make_pod("p").req(cpu="1").obj()
    result, seen = run(config("permit", "WaitForever"), [node("n1")], [PodCreated(0.0, pod)])
    assert seen[:2] == [(0.0, "Waiting"), (30.0, "Waiting")]
    assert result.pods[0].bound is None


def test_a_rejected_pod_an_event_moves_is_popped_at_once_when_activeq_is_empty() -> None:
    # KEP-5142 (SchedulerPopFromBackoffQ): with nothing else to do, the scheduler takes a
    # rejected pod from backoffQ before its backoff is over.
    pod = make_pod("p").req(cpu="2").obj()
    events: list[Event] = [PodCreated(0.0, pod), NodeAdded(0.5, node("big"))]
    result, seen = run(None, [node("small", cpu="1")], events)
    assert seen[-1] == (0.5, "Scheduled")
    assert result.pods[0].node == "big"
