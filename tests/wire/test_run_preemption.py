"""Preemption on the wire: the victim gets upstream's DisruptionTarget condition and is
deleted, the preemptor is nominated, then bound once the victim is gone."""

from __future__ import annotations

from collections.abc import Callable

from kubesched.testing import make_node, make_pod
from kubesched.testing.apiserver import FakeApiServer

from .conftest import SCHEDULER, Running
from .test_run_binds import events, node_of


def test_a_high_priority_pod_preempts_a_running_one(
    apiserver: FakeApiServer, start_scheduler: Callable[..., Running]
) -> None:
    apiserver.create(make_node("n1").capacity(cpu="2", memory="4Gi").obj())
    apiserver.create(make_pod("victim").node("n1").priority(1).req(cpu="2").phase("Running").obj())
    apiserver.create(make_pod("vip").scheduler_name(SCHEDULER).priority(1000).req(cpu="2").obj())
    patches: list[dict[str, object]] = []
    apiserver.before(
        "DELETE",
        r"/pods/victim$",
        lambda: patches.append(apiserver.get("v1", "pods", "default", "victim")),
    )
    running = start_scheduler()
    assert apiserver.wait_for(lambda: node_of(apiserver, "vip")) == "n1"
    victim_before_deletion = patches[0]
    disruption = next(
        c
        for c in victim_before_deletion["status"]["conditions"]  # type: ignore[index]
        if c["type"] == "DisruptionTarget"
    )
    assert disruption["status"] == "True"
    assert disruption["reason"] == "PreemptionByScheduler"
    assert disruption["message"] == f"{SCHEDULER}: preempting to accommodate a higher priority pod"
    assert not [p for p in apiserver.items("v1", "pods") if p["metadata"]["name"] == "victim"]
    nominations = [
        r.body["status"]["nominatedNodeName"]
        for r in apiserver.requests
        if r.method == "PATCH"
        and r.path.endswith("/pods/vip/status")
        and "nominatedNodeName" in r.body["status"]
    ]
    assert nominations[0] == "n1"
    preempted = apiserver.wait_for(lambda: events(apiserver, "Preempted"))[0]
    assert preempted["regarding"]["name"] == "victim"  # type: ignore[index]
    assert preempted["action"] == "Preempting"
    assert str(preempted["note"]).startswith("Preempted by pod ")
    assert running.stop() == 0
