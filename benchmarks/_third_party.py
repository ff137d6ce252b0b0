"""What one out-of-tree plugin in the simple per-node form costs each pod when it joins the
full default profile (used by dispatch.py).

The plugin is what a third party would write first: per-node `filter` (reject nodes
labelled for maintenance) and `score` (prefer emptier nodes), no batch forms. The
default profile's own plugins all have batch forms, so Filter is array operations
until this plugin joins; then every node Filter visits costs a Python call, and so
does every node scored.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from scheduling_basic import make_node, make_pod

from kubesched import hookimpl
from kubesched.cluster.memory import InMemoryCluster
from kubesched.config import KubeSchedulerConfiguration, default_config
from kubesched.config.loader import parse_config
from kubesched.framework import MAX_NODE_SCORE, Code, NodeInfo, Registry, Status
from kubesched.profile import build_simulation

NAME = "ThirdParty"
LABEL = "example.com/maintenance"
INIT_PODS = 1000
WITH_PLUGIN = f"""
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  plugins:
    filter:
      enabled: [{{name: {NAME}}}]
    score:
      enabled: [{{name: {NAME}}}]
"""


class ThirdParty:
    """Per-node Filter and Score only."""

    def __init__(self, args: object, handle: object) -> None:
        pass

    @hookimpl
    def filter(self, node_info: NodeInfo) -> Status | None:
        node = node_info.node
        if node is not None and node.metadata.labels.get(LABEL) == "true":
            return Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, "node(s) were under maintenance")
        return None

    @hookimpl
    def score(self, node_info: NodeInfo) -> int:
        return MAX_NODE_SCORE - min(len(node_info.pods), MAX_NODE_SCORE)


def registry() -> Registry:
    found = Registry.discover()
    found.register(NAME, ThirdParty)
    return found


def config(with_plugin: bool, plugins: Registry) -> KubeSchedulerConfiguration:
    return parse_config(WITH_PLUGIN, plugins) if with_plugin else default_config(plugins)


def one_run(nodes: int, pods: int, with_plugin: bool) -> tuple[float, float]:
    """Wall and CPU milliseconds per pod scheduled, after 1,000 init pods unmeasured."""
    plugins = registry()
    cluster = InMemoryCluster(
        nodes=[make_node(i) for i in range(nodes)],
        pods=[make_pod("init", i) for i in range(INIT_PODS)],
    )
    simulation = build_simulation(config(with_plugin, plugins), plugins, cluster)
    simulation.run()
    for i in range(pods):
        cluster.add_pod(make_pod("pod", i))
    start, cpu_start = time.perf_counter(), time.process_time()
    result = simulation.run()
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    scheduled = result.summary.scheduled - INIT_PODS
    assert scheduled == pods, f"{scheduled} of {pods} pods scheduled"
    return wall * 1000 / scheduled, cpu * 1000 / scheduled


def per_pod_cost(nodes: int, pods: int, repeat: int) -> dict[str, Any]:
    """The default profile alone (A) and with the plugin (B), alternated `repeat` times."""
    runs: dict[bool, list[tuple[float, float]]] = {False: [], True: []}
    for _ in range(max(repeat, 1)):
        for with_plugin in (False, True):
            runs[with_plugin].append(one_run(nodes, pods, with_plugin))

    def median(with_plugin: bool, which: int) -> float:
        return statistics.median(r[which] for r in runs[with_plugin])

    return {
        "nodes": nodes,
        "pods": pods,
        "repeat": repeat,
        "default_profile_ms_per_pod": round(median(False, 0), 3),
        "with_plugin_ms_per_pod": round(median(True, 0), 3),
        "added_ms_per_pod": round(median(True, 0) - median(False, 0), 3),
        "default_profile_cpu_ms_per_pod": round(median(False, 1), 3),
        "with_plugin_cpu_ms_per_pod": round(median(True, 1), 3),
        "added_cpu_ms_per_pod": round(median(True, 1) - median(False, 1), 3),
    }
