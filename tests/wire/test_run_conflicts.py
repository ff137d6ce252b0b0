"""A bind that conflicts, and a node deleted while pods are assumed on it."""

from __future__ import annotations

from collections.abc import Callable

from kubesched.testing import make_node, make_pod
from kubesched.testing.apiserver import FakeApiServer

from .conftest import SCHEDULER, Running
from .test_run_binds import condition, events, node_of


def test_a_pod_bound_elsewhere_meanwhile_is_dropped(
    apiserver: FakeApiServer, start_scheduler: Callable[..., Running]
) -> None:
    apiserver.create(make_node("n1").capacity(cpu="2", memory="4Gi").obj())
    apiserver.create(make_node("n2").capacity(cpu="2", memory="4Gi").obj())
    apiserver.create(make_pod("raced").scheduler_name(SCHEDULER).req(cpu="1").obj())
    # Someone else binds the pod just before our binding arrives: the server answers 409.
    apiserver.before(
        "POST",
        r"/pods/raced/binding$",
        lambda: apiserver.patch("v1", "pods", "default", "raced", {"spec": {"nodeName": "other"}}),
    )
    running = start_scheduler()
    sched = apiserver.wait_for(lambda: running.server.scheduler)
    failed = apiserver.wait_for(lambda: events(apiserver, "FailedScheduling"))[0]
    assert "already assigned to node" in str(failed["note"])
    apiserver.wait_for(lambda: sched.cache.num_pods == 1 and not sched.cache.num_assumed_pods)
    assert node_of(apiserver, "raced") == "other"
    # As upstream's handleSchedulingFailure: not requeued (the pod is bound), but the
    # failure is still reported on the pod.
    failed_condition = apiserver.wait_for(lambda: condition(apiserver, "raced", "PodScheduled"))
    assert (failed_condition["status"], failed_condition["reason"]) == ("False", "SchedulerError")
    assert sched.queue.get(make_pod("raced").obj()) is None
    bindings = [r for r in apiserver.requests if r.path.endswith("/binding")]
    assert len(bindings) == 1
    assert running.stop() == 0


def test_a_refused_bind_is_retried(
    apiserver: FakeApiServer, start_scheduler: Callable[..., Running]
) -> None:
    apiserver.create(make_node("n1").capacity(cpu="2", memory="4Gi").obj())
    apiserver.create(make_pod("retried").scheduler_name(SCHEDULER).req(cpu="1").obj())
    apiserver.fail("POST", r"/binding$", 409)
    running = start_scheduler()
    assert apiserver.wait_for(lambda: node_of(apiserver, "retried")) == "n1"
    failed = condition(apiserver, "retried", "PodScheduled")
    assert failed is not None and failed["status"] == "True"
    assert len([r for r in apiserver.requests if r.path.endswith("/binding")]) == 2
    note = events(apiserver, "FailedScheduling")[0]["note"]
    assert "injected failure 409" in str(note)
    assert running.stop() == 0


def test_a_node_deleted_under_assumed_pods(
    apiserver: FakeApiServer, start_scheduler: Callable[..., Running]
) -> None:
    apiserver.create(make_node("n1").capacity(cpu="2", memory="4Gi").obj())

    def lag() -> None:
        """The pod watch lags from the first binding on: bound pods stay assumed."""
        apiserver.fail(
            "GET", r"/api/v1/pods$", 503, times=10_000, when=lambda r: "watch" in r.query
        )
        apiserver.drop_watches()

    apiserver.before("POST", r"/pods/a/binding$", lag)
    apiserver.create(make_pod("a").scheduler_name(SCHEDULER).req(cpu="1").obj())
    apiserver.create(make_pod("b").scheduler_name(SCHEDULER).req(cpu="1").obj())
    running = start_scheduler()
    sched = apiserver.wait_for(lambda: running.server.scheduler)
    apiserver.wait_for(lambda: node_of(apiserver, "a") and node_of(apiserver, "b"))
    apiserver.wait_for(lambda: sched.cache.num_assumed_pods == 2)
    apiserver.delete("v1", "nodes", "", "n1")
    apiserver.create(make_node("n2").capacity(cpu="1", memory="4Gi").obj())
    cluster = running.server.cluster
    assert cluster is not None
    apiserver.wait_for(lambda: [n.name for n in cluster.nodes()] == ["n2"])
    apiserver.clear_failures()
    apiserver.wait_for(lambda: sched.cache.num_assumed_pods == 0)
    assert sched.cache.num_pods == 2
    apiserver.create(make_pod("c").scheduler_name(SCHEDULER).req(cpu="1").obj())
    assert apiserver.wait_for(lambda: node_of(apiserver, "c")) == "n2"
    assert running.stop() == 0
