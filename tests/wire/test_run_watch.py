"""Watches that drop are resumed from the last resourceVersion; a watch answered 410 Gone
lists again, and what vanished meanwhile is deleted from the scheduler's view."""

from __future__ import annotations

from collections.abc import Callable

from kubesched.testing import make_node, make_pod
from kubesched.testing.apiserver import FakeApiServer

from .conftest import SCHEDULER, Running
from .test_run_binds import node_of


def test_a_dropped_watch_resumes_where_it_was(
    apiserver: FakeApiServer, start_scheduler: Callable[..., Running]
) -> None:
    apiserver.create(make_node("n1").capacity(cpu="4", memory="4Gi").obj())
    running = start_scheduler()
    apiserver.wait_for(running.server.scheduling.is_set)
    cluster = running.server.cluster
    assert cluster is not None
    pods = cluster.reflectors["Pod"]
    apiserver.wait_for(lambda: apiserver.watches("pods"))
    seen = pods.resource_version
    apiserver.drop_watches()
    apiserver.create(make_pod("during").scheduler_name(SCHEDULER).req(cpu="1").obj())
    assert apiserver.wait_for(lambda: node_of(apiserver, "during")) == "n1"
    resumed = apiserver.watches("pods")[1]
    assert resumed.query["resourceVersion"] == seen
    assert resumed.query["allowWatchBookmarks"] == "true"
    assert resumed.query["fieldSelector"] == "status.phase!=Succeeded,status.phase!=Failed"
    assert pods.lists == 1
    assert running.stop() == 0


def test_gone_relists_and_deletes_what_vanished(
    apiserver: FakeApiServer, start_scheduler: Callable[..., Running]
) -> None:
    apiserver.create(make_node("n1").capacity(cpu="1", memory="4Gi").obj())
    apiserver.create(make_node("n2").capacity(cpu="1", memory="4Gi").obj())
    running = start_scheduler()
    apiserver.wait_for(running.server.scheduling.is_set)
    cluster, sched = running.server.cluster, running.server.scheduler
    assert cluster is not None and sched is not None
    nodes = cluster.reflectors["Node"]
    apiserver.wait_for(lambda: apiserver.watches("nodes"))
    # Both watches are cut; the node watch cannot resume: its version was compacted away.
    apiserver.fail("GET", r"/api/v1/nodes$", 503, times=3, when=lambda r: "watch" in r.query)
    apiserver.drop_watches()
    apiserver.delete("v1", "nodes", "", "n1")
    apiserver.compact()
    apiserver.wait_for(lambda: nodes.lists == 2)
    apiserver.wait_for(lambda: [n.name for n in cluster.nodes()] == ["n2"])
    apiserver.create(make_pod("after").scheduler_name(SCHEDULER).req(cpu="1").obj())
    assert apiserver.wait_for(lambda: node_of(apiserver, "after")) == "n2"
    assert sched.cache.num_nodes == 1
    assert running.stop() == 0
