"""Pods arrive and get bound; a pod that fits nowhere gets upstream's condition, event and
retry: `kubesched run` against the fake API server, on the wire."""

from __future__ import annotations

import time
from collections.abc import Callable

import yaml

from kubesched.testing import make_node, make_pod, simulate
from kubesched.testing.apiserver import FakeApiServer

from .conftest import SCHEDULER, Running, config_text


def node_of(apiserver: FakeApiServer, name: str) -> str:
    return str(apiserver.get("v1", "pods", "default", name)["spec"].get("nodeName") or "")


def events(apiserver: FakeApiServer, reason: str) -> list[dict[str, object]]:
    return [e for e in apiserver.items("events.k8s.io/v1", "events") if e["reason"] == reason]


def condition(apiserver: FakeApiServer, pod: str, type_: str) -> dict[str, str] | None:
    status = apiserver.get("v1", "pods", "default", pod).get("status") or {}
    return next((c for c in status.get("conditions") or [] if c["type"] == type_), None)


def test_pending_pods_are_bound_and_others_left_alone(
    apiserver: FakeApiServer, start_scheduler: Callable[..., Running]
) -> None:
    apiserver.create(make_node("n1").capacity(cpu="2", memory="4Gi").obj())
    apiserver.create(make_pod("early").scheduler_name(SCHEDULER).req(cpu="1").obj())
    apiserver.create(make_pod("not-ours").req(cpu="1").obj())
    running = start_scheduler()
    apiserver.wait_for(lambda: node_of(apiserver, "early"))
    apiserver.create(make_pod("late").scheduler_name(SCHEDULER).req(cpu="1").obj())
    assert apiserver.wait_for(lambda: node_of(apiserver, "late")) == "n1"
    scheduled = apiserver.wait_for(
        lambda: len(events(apiserver, "Scheduled")) == 2 and events(apiserver, "Scheduled")
    )
    first = next(e for e in scheduled if e["regarding"]["name"] == "early")  # type: ignore[index]
    assert first["note"] == "Successfully assigned default/early to n1"
    assert first["action"] == "Binding"
    assert first["type"] == "Normal"
    assert first["reportingController"] == SCHEDULER
    assert first["reportingInstance"] == f"{SCHEDULER}-test-host"
    assert node_of(apiserver, "not-ours") == ""
    binding = next(r for r in apiserver.requests if r.path.endswith("/binding"))
    assert binding.body["target"] == {"apiVersion": "v1", "kind": "Node", "name": "n1"}
    assert running.stop() == 0


def test_unschedulable_pod_gets_condition_event_and_a_retry(
    apiserver: FakeApiServer, start_scheduler: Callable[..., Running]
) -> None:
    small = make_node("small").capacity(cpu="1", memory="4Gi").obj()
    big = (
        make_pod("big")
        .namespace("default")
        .scheduler_name(SCHEDULER)
        .req(cpu="3")
        .priority(0)
        .obj()
    )
    apiserver.create(small)
    apiserver.create(big)
    running = start_scheduler()
    failed = apiserver.wait_for(lambda: condition(apiserver, "big", "PodScheduled"))
    message = simulate([small], [big], yaml.safe_load(config_text())).outcome("default/big").message
    assert message.startswith("0/1 nodes are available: 1 Insufficient cpu.")
    assert failed["status"] == "False"
    assert failed["reason"] == "Unschedulable"
    assert failed["message"] == message
    assert failed["lastTransitionTime"]
    event = apiserver.wait_for(lambda: events(apiserver, "FailedScheduling"))[0]
    assert (event["type"], event["action"], event["note"]) == ("Warning", "Scheduling", message)
    apiserver.create(make_node("large").capacity(cpu="4", memory="4Gi").obj())
    assert apiserver.wait_for(lambda: node_of(apiserver, "big")) == "large"
    assert condition(apiserver, "big", "PodScheduled")["status"] == "True"  # type: ignore[index]
    assert running.stop() == 0


def test_binding_cycles_run_concurrently_against_a_slow_server(
    apiserver: FakeApiServer, start_scheduler: Callable[..., Running]
) -> None:
    """Each bind takes the server 0.5 s: one at a time, 8 pods would take 4 s."""
    apiserver.create(make_node("n1").capacity(cpu="16", memory="16Gi").obj())
    running = start_scheduler()
    apiserver.wait_for(running.server.scheduling.is_set)
    apiserver.slow("POST", "/binding$", 0.5)
    names = [f"p{i}" for i in range(8)]
    for name in names:
        apiserver.create(make_pod(name).scheduler_name(SCHEDULER).req(cpu="1").obj())
    started = time.monotonic()
    apiserver.wait_for(lambda: all(node_of(apiserver, n) for n in names))
    assert time.monotonic() - started < 3.0
    apiserver.slow("POST", "/binding$", 0)
    assert running.stop() == 0
