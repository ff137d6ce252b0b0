"""`scheduler_plugin_evaluation_total`: how many times each PreFilter, Filter, PreScore and
Score plugin was evaluated, counted as upstream's instrumented plugins count, read from a
scheduler serving the fake API server."""

from __future__ import annotations

import re
from collections.abc import Callable

from kubesched.testing import make_node, make_pod
from kubesched.testing.apiserver import FakeApiServer

from .conftest import SCHEDULER, Running

SERIES = re.compile(
    r'^scheduler_plugin_evaluation_total\{extension_point="(\w+)",plugin="(\w+)",'
    r'profile="([\w-]+)"\} ([0-9.]+)$'
)


def evaluations(running: Running) -> dict[tuple[str, str], float]:
    text = running.server.metrics.exposition().decode()
    found = {}
    for line in text.splitlines():
        match = SERIES.match(line)
        if match:
            point, plugin, profile, value = match.groups()
            assert profile == SCHEDULER
            found[(point, plugin)] = float(value)
    return found


def test_each_plugin_counts_the_nodes_it_was_asked_about(
    apiserver: FakeApiServer, start_scheduler: Callable[..., Running]
) -> None:
    for name, cpu in (("n1", "2"), ("n2", "2"), ("tiny", "500m")):
        apiserver.create(make_node(name).capacity(cpu=cpu, memory="4Gi").obj())
    apiserver.create(make_pod("p").scheduler_name(SCHEDULER).req(cpu="1").obj())
    running = start_scheduler()
    apiserver.wait_for(lambda: apiserver.get("v1", "pods", "default", "p")["spec"].get("nodeName"))
    seen = apiserver.wait_for(lambda: evaluations(running).get(("Score", "NodeResourcesFit")))
    assert seen
    counts = evaluations(running)
    # One cycle: every PreFilter plugin that did not return Skip, once.
    assert counts[("PreFilter", "NodeResourcesFit")] == 1
    assert ("PreFilter", "NodePorts") not in counts  # no ports: Skip is not an evaluation
    # Filter: once per node asked. TaintToleration and NodeResourcesFit are asked about all
    # three nodes; NodePorts was skipped by its PreFilter, so it is never asked.
    assert counts[("Filter", "TaintToleration")] == 3
    assert counts[("Filter", "NodeResourcesFit")] == 3
    assert ("Filter", "NodePorts") not in counts
    # Score: once per feasible node (tiny does not fit 1 CPU).
    assert counts[("Score", "NodeResourcesFit")] == 2
    assert counts[("PreScore", "NodeResourcesFit")] == 1
    assert set(point for point, _ in counts) == {"PreFilter", "Filter", "PreScore", "Score"}
    assert running.stop() == 0
