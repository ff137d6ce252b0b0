"""Two instances elect one leader; the leader stepping down or failing hands over."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from kubesched.cluster.apiserver import ApiEventRecorder, ApiSession, LeaderElector
from kubesched.testing import make_node, make_pod
from kubesched.testing.apiserver import FakeApiServer, Request

from .conftest import SCHEDULER, Running
from .test_run_binds import node_of


def holder(apiserver: FakeApiServer) -> str:
    try:
        lease = apiserver.get("coordination.k8s.io/v1", "leases", "kube-system", SCHEDULER)
    except Exception:
        return ""
    return str(lease["spec"].get("holderIdentity") or "")


def binders(apiserver: FakeApiServer) -> set[str]:
    """Who sent bindings, by the pods they bound (each instance binds its own pods)."""
    return {r.path.split("/")[-2] for r in apiserver.requests if r.path.endswith("/binding")}


def start_pair(start: Callable[..., Running]) -> tuple[Running, Running]:
    return start(elect=True, identity="alpha"), start(elect=True, identity="beta")


def test_one_leader_schedules_and_hands_over_on_stop(
    apiserver: FakeApiServer, start_scheduler: Callable[..., Running]
) -> None:
    apiserver.create(make_node("n1").capacity(cpu="8", memory="8Gi").obj())
    alpha, beta = start_pair(start_scheduler)
    leader_id = apiserver.wait_for(lambda: holder(apiserver))
    leader, follower = (alpha, beta) if leader_id == "alpha" else (beta, alpha)
    apiserver.wait_for(leader.server.scheduling.is_set)
    apiserver.create(make_pod("first").scheduler_name(SCHEDULER).req(cpu="1").obj())
    apiserver.wait_for(lambda: node_of(apiserver, "first"))
    assert not follower.server.scheduling.is_set()
    lease = apiserver.get("coordination.k8s.io/v1", "leases", "kube-system", SCHEDULER)
    assert lease["spec"]["leaseDurationSeconds"] == 2
    assert leader.stop() == 0
    assert holder(apiserver) != leader_id  # released: empty, or the follower already
    apiserver.wait_for(lambda: holder(apiserver) == follower.server.options.identity)
    apiserver.wait_for(follower.server.scheduling.is_set)
    apiserver.create(make_pod("second").scheduler_name(SCHEDULER).req(cpu="1").obj())
    assert apiserver.wait_for(lambda: node_of(apiserver, "second")) == "n1"
    transitions = apiserver.get("coordination.k8s.io/v1", "leases", "kube-system", SCHEDULER)
    assert transitions["spec"]["leaseTransitions"] == 1
    assert follower.stop() == 0


def test_a_leader_that_cannot_renew_exits_and_the_other_takes_over(
    apiserver: FakeApiServer, start_scheduler: Callable[..., Running]
) -> None:
    apiserver.create(make_node("n1").capacity(cpu="8", memory="8Gi").obj())
    alpha, beta = start_pair(start_scheduler)
    leader_id = apiserver.wait_for(lambda: holder(apiserver))
    leader, follower = (alpha, beta) if leader_id == "alpha" else (beta, alpha)
    apiserver.wait_for(leader.server.scheduling.is_set)

    def from_leader(request: Request) -> bool:
        return bool(request.body and request.body["spec"]["holderIdentity"] == leader_id)

    # The leader's renewals fail from now on, as if it were cut off from the API server.
    apiserver.fail("PUT", r"/leases/", 500, times=10_000, when=from_leader)
    leader.thread.join(10)
    assert leader.status == 1
    apiserver.wait_for(lambda: holder(apiserver) == follower.server.options.identity)
    apiserver.create(make_pod("after").scheduler_name(SCHEDULER).req(cpu="1").obj())
    assert apiserver.wait_for(lambda: node_of(apiserver, "after")) == "n1"
    assert follower.stop() == 0


def test_renewals_keep_their_deadline_while_5000_events_wait_on_a_slow_server(
    apiserver: FakeApiServer, kubeconfig: Path
) -> None:
    """The leader's renewals go through a connection of their own: a backlog of 5,000
    events, each taking the server 0.2 s, does not delay them past the renew deadline."""
    apiserver.slow("POST", "/events$", 0.2)
    events = ApiSession(str(kubeconfig))
    leader = ApiSession(str(kubeconfig), request_timeout=1.5)
    events.start()
    leader.start()
    try:
        recorder = ApiEventRecorder(events, lambda obj: SCHEDULER, "host", max_queued=5000)
        events.spawn(recorder.run())
        for i in range(5000):
            pod = make_pod(f"p{i}").namespace("default").uid(f"u{i}").obj()
            recorder.event(pod, "Warning", "FailedScheduling", "Scheduling", "0/1000 nodes")
        assert recorder.pending > 4900
        elector = LeaderElector(
            leader,
            namespace="kube-system",
            name=SCHEDULER,
            lease_duration=2.0,
            renew_deadline=1.5,
            retry_period=0.25,
            identity="alpha",
        )
        leader.spawn(elector.run())
        assert elector.leading.wait(5)
        renewed_before = len(lease_writes(apiserver))
        time.sleep(4.0)  # 16 renewal periods under the backlog
        assert not elector.lost.is_set()
        assert elector.leading.is_set()
        assert len(lease_writes(apiserver)) - renewed_before >= 8
        assert recorder.pending > 4000  # the backlog was there all along
        assert recorder.dropped == 0
    finally:
        apiserver.slow("POST", "/events$", 0)
        leader.close()
        events.close()


def lease_writes(apiserver: FakeApiServer) -> list[Request]:
    return [r for r in apiserver.requests if r.method == "PUT" and "/leases/" in r.path]


def test_a_full_event_queue_drops_with_one_warning(
    apiserver: FakeApiServer, kubeconfig: Path, caplog: pytest.LogCaptureFixture
) -> None:
    session = ApiSession(str(kubeconfig))
    session.start()
    try:
        recorder = ApiEventRecorder(session, lambda obj: SCHEDULER, "host", max_queued=10)
        with caplog.at_level(logging.WARNING, "kubesched.run"):
            for i in range(30):
                pod = make_pod(f"p{i}").namespace("default").uid(f"u{i}").obj()
                recorder.event(pod, "Warning", "FailedScheduling", "Scheduling", "0/1 nodes")
        assert (recorder.pending, recorder.dropped) == (10, 20)
        assert [r.message for r in caplog.records if "dropping events" in r.message] == [
            "dropping events: 10 are waiting to be written (the API server is slow or the "
            "events rate limit is reached)"
        ]
    finally:
        session.close()
