"""Upstream scheduler_perf's shapes with a churn op, each with upstream's threshold beside it.

scheduler_perf's `churn` op runs beside the measured pods and, on a ticker,
creates objects from its templates (mode `create`: one of each per tick) or
alternately creates and deletes them (mode `recreate`: each tick deletes the
object a slot holds, else creates one into it).

- PreemptionAsync: nodes full of low-priority pods (4 per node, cpu 900m, as
  PreemptionBasic); every 200 ms a high-priority pod (cpu 3) is created, which
  fits only by preempting three of them; the measured pods are default pods
  (cpu 100m, memory 500Mi), which always fit.
- SchedulingWithMixedChurn: every second, mode `recreate` with one slot: a node
  (upstream's churn node, capacity 0 pods) and a high-priority pod asking for 9
  cpus (it fits nowhere, and preemption cannot help) are created, then deleted
  on the next tick, and so on, while the measured default pods are scheduled.
  Upstream's churn also recreates a Service (selector `app: foo`); the
  in-memory cluster keeps Services as read-only input and no measured pod
  matches that selector, so it is left out.
- Unschedulable: nodes with default init pods (placed); every 200 ms a
  high-priority pod asking for 9 cpus is created (mode `create`); it fits
  nowhere and preemption cannot help, so these pile up as unschedulable pods
  while the measured default pods are scheduled.
- SchedulingWhileGated: one node (upstream's node-with-name: room for 90,000
  pods); the gated pods carry a scheduling gate and are never tried; the
  deleting pods are placed, then deleted at 50 per second (scheduler_perf's
  `deletePods` op: each deletion is an AssignedPodDelete event) while the
  measured pods are scheduled. All three are upstream's light pods (no requests).

Here the scheduler and the churn share one thread: the ticker is looked at
between scheduling cycles, and a tick that falls inside a cycle happens when
that cycle ends (ticks missed meanwhile are caught up, so the rate is
upstream's on average). `churned` counts the objects created and deleted.

Nodes follow upstream's template (cpu 4, memory 32Gi, pods 110); the default
profile, in process; init pods are scheduled unmeasured, then the measured pods
are created and the churn starts. pods/s divides the measured pods scheduled
by the wall time until the last of them is scheduled, as scheduler_perf's
throughput. Each run is its own process.

    uv run python benchmarks/scheduler_perf_churn.py            # upstream's sizes
    uv run python benchmarks/scheduler_perf_churn.py --quick    # small enough for CI
    uv run python benchmarks/scheduler_perf_churn.py --only MixedChurn

Prints JSON and writes it to benchmarks/results/scheduler_perf_churn.json.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any

from _measure import Sampler, rates, workloads_main
from attrs import evolve, frozen
from preemption import HIGH_PRIORITY
from preemption import make_pod as sized_pod
from scheduling_basic import make_node, make_pod

from kubesched.api import PODS, Container, Node, ObjectMeta, Pod, PodSchedulingGate, PodSpec
from kubesched.cluster.memory import InMemoryCluster
from kubesched.config import default_config
from kubesched.framework import default_registry
from kubesched.profile import build_simulation
from kubesched.scheduler.outcome import SCHEDULED

MEASURED = "measured"
DELETING = "deleting"


@frozen
class Workload:
    name: str
    kind: str
    """"async" (PreemptionAsync) or "mixed" (SchedulingWithMixedChurn)."""
    nodes: int
    init_pods: int
    measured_pods: int
    threshold: int | None
    deleting_pods: int = 0
    """SchedulingWhileGated's placed pods, deleted while the measured pods are scheduled."""


FULL = [
    Workload("PreemptionAsync/5000Nodes", "async", 5000, 20000, 5000, 570),
    Workload("SchedulingWithMixedChurn/5000Nodes_10000Pods", "mixed", 5000, 0, 10000, 710),
    Workload("Unschedulable/5kNodes/100Init/10kPods", "unschedulable", 5000, 100, 10000, 590),
    Workload("Unschedulable/5kNodes/20kInit/10kPods", "unschedulable", 5000, 20000, 10000, 600),
    Workload("SchedulingWhileGated/1Node_10000GatedPods", "gated", 1, 10000, 20000, 910, 20000),
]
QUICK = [
    Workload("PreemptionAsync/500Nodes", "async", 500, 2000, 500, None),
    Workload("SchedulingWithMixedChurn/1000Nodes", "mixed", 1000, 0, 1000, None),
    Workload("Unschedulable/500Nodes/10Init/1kPods", "unschedulable", 500, 10, 1000, None),
    Workload("SchedulingWhileGated/1Node_1000GatedPods", "gated", 1, 1000, 1000, None, 1000),
]
"""Upstream's own smaller workloads (no threshold); SchedulingWhileGated's is a tenth of
its full size (upstream's smallest has 10 gated pods)."""


def churn_node(serial: int) -> Node:
    """Upstream's churn node: no room for any pod (capacity `pods: 0`)."""
    node = make_node(0)
    capacity = {**node.status.capacity, PODS: 0}
    meta = ObjectMeta(name=f"node-churn-{serial}", uid=f"node-churn-{serial}")
    status = evolve(node.status, capacity=capacity, allocatable=dict(capacity))
    return evolve(node, metadata=meta, status=status)


def named_node() -> Node:
    """Upstream's node-with-name: cpu 4, memory 32Gi, room for 90,000 pods."""
    node = make_node(0)
    capacity = {**node.status.capacity, PODS: 90000}
    meta = ObjectMeta(
        name="scheduler-perf-node",
        uid="scheduler-perf-node",
        labels={"kubernetes.io/hostname": "scheduler-perf-node"},
    )
    status = evolve(node.status, capacity=capacity, allocatable=dict(capacity))
    return evolve(node, metadata=meta, status=status)


def light_pod(prefix: str, i: int, gated: bool = False) -> Pod:
    """Upstream's light-pod (one container, no requests); `gated`: its gated-pod, held by a
    scheduling gate."""
    container = Container(name="pause", image="registry.k8s.io/pause:3.10.2")
    gates = [PodSchedulingGate(name="test.k8s.io/hold")] if gated else []
    meta = ObjectMeta(name=f"{prefix}-{i}", namespace="default", uid=f"{prefix}-{i}")
    return Pod(metadata=meta, spec=PodSpec(containers=[container], scheduling_gates=gates))


def high_priority_pod(serial: int) -> Pod:
    """Upstream's pod-high-priority: priority 10, cpu 3, memory 500Mi."""
    return sized_pod(f"pod-h-{serial}", 3000, HIGH_PRIORITY, [])


def high_priority_large_pod(serial: int) -> Pod:
    """Upstream's pod-high-priority-large-cpu: priority 10, cpu 9 (more than any node)."""
    return sized_pod(f"pod-hl-{serial}", 9000, HIGH_PRIORITY, [])


class CountingCluster(InMemoryCluster):
    """The in-memory cluster, noting when the last of `target` measured pods is bound."""

    def __init__(self, target: int, **objects: Any) -> None:
        super().__init__(**objects)
        self.target = target
        self.bound = 0
        self.finished_at: float | None = None
        self.finished_cpu: float | None = None

    def bind(self, pod: Pod, node_name: str) -> None:
        super().bind(pod, node_name)
        if pod.uid.startswith(MEASURED):
            self.bound += 1
            if self.bound == self.target:
                self.finished_at = time.perf_counter()
                self.finished_cpu = time.process_time()


class Churn:
    """scheduler_perf's churn op over an in-memory cluster, ticking on wall time.

    `templates` build a Node or a Pod from a serial number. Mode "create" creates
    one object of each template per tick; "recreate" keeps `number` slots per
    template and, tick after tick, deletes the object in the slot if there is one,
    else creates one into it. Called between scheduling cycles (as a simulation's
    progress callback, after `inner`); it stops once the measured pods are bound.
    """

    def __init__(
        self,
        cluster: CountingCluster,
        mode: str,
        templates: list[Callable[[int], Node | Pod]],
        interval: float,
        inner: Callable[[int, int], None],
        number: int = 1,
    ) -> None:
        self.cluster = cluster
        self.mode = mode
        self.templates = templates
        self.interval = interval
        self.inner = inner
        self.number = number
        self.slots: list[list[Node | Pod | None]] = [[None] * number for _ in templates]
        self.count = 0
        self.serial = 0
        self.churned = 0
        self.next_tick = time.perf_counter() + interval

    def __call__(self, decided: int, pending: int) -> None:
        self.inner(decided, pending)
        now = time.perf_counter()
        while self.cluster.finished_at is None and now >= self.next_tick:
            self.tick()
            self.next_tick += self.interval

    def tick(self) -> None:
        for i, template in enumerate(self.templates):
            if self.mode == "create":
                self._create(template)
                continue
            slot = self.count % self.number
            held = self.slots[i][slot]
            self.slots[i][slot] = None if held is not None else self._create(template)
            if held is not None:
                self._delete(held)
        self.count += 1

    def _create(self, template: Callable[[int], Node | Pod]) -> Node | Pod:
        self.serial += 1
        obj = template(self.serial)
        if isinstance(obj, Node):
            self.cluster.add_node(obj)
        else:
            obj = self.cluster.add_pod(obj)
        self.churned += 1
        return obj

    def _delete(self, obj: Node | Pod) -> None:
        if isinstance(obj, Node):
            self.cluster.delete_node(obj.name)
        else:
            live = self.cluster.get_pod(obj.uid)
            if live is not None:
                self.cluster.delete_pod(live)
        self.churned += 1


class Deleter:
    """scheduler_perf's deletePods op over an in-memory cluster: deletes the pods `uids`
    names, in order, `per_second` of them per second of wall time. Called between
    scheduling cycles (as a simulation's progress callback, after `inner`); it stops once
    the measured pods are bound."""

    def __init__(
        self,
        cluster: CountingCluster,
        uids: list[str],
        per_second: float,
        inner: Callable[[int, int], None],
    ) -> None:
        self.cluster = cluster
        self.uids = list(reversed(uids))
        self.interval = 1.0 / per_second
        self.inner = inner
        self.deleted = 0
        self.next_tick = time.perf_counter() + self.interval

    def __call__(self, decided: int, pending: int) -> None:
        self.inner(decided, pending)
        now = time.perf_counter()
        while self.cluster.finished_at is None and self.uids and now >= self.next_tick:
            live = self.cluster.get_pod(self.uids.pop())
            if live is not None:
                self.cluster.delete_pod(live)
                self.deleted += 1
            self.next_tick += self.interval


def _cluster(w: Workload) -> CountingCluster:
    if w.kind == "gated":
        pods = [light_pod("gated", i, gated=True) for i in range(w.init_pods)]
        pods += [light_pod(DELETING, i) for i in range(w.deleting_pods)]
        return CountingCluster(w.measured_pods, nodes=[named_node()], pods=pods)
    nodes = [make_node(i) for i in range(w.nodes)]
    if w.kind == "unschedulable":
        init = [make_pod("init", i) for i in range(w.init_pods)]
    else:
        init = [sized_pod(f"low-{i}", 900, None, []) for i in range(w.init_pods)]
    return CountingCluster(w.measured_pods, nodes=nodes, pods=init)


def _measured(w: Workload, i: int) -> Pod:
    return light_pod(MEASURED, i) if w.kind == "gated" else make_pod(MEASURED, i)


def _churn(
    w: Workload, cluster: CountingCluster, sampler: Callable[[int, int], None]
) -> Churn | Deleter:
    if w.kind == "async":
        return Churn(cluster, "create", [high_priority_pod], 0.2, sampler)
    if w.kind == "unschedulable":
        return Churn(cluster, "create", [high_priority_large_pod], 0.2, sampler)
    if w.kind == "gated":
        uids = [f"{DELETING}-{i}" for i in range(w.deleting_pods)]
        return Deleter(cluster, uids, 50.0, sampler)
    return Churn(cluster, "recreate", [churn_node, high_priority_large_pod], 1.0, sampler)


def run(workload: Workload) -> dict[str, Any]:
    """One measured run: the init pods scheduled unmeasured, then the measured pods
    created and timed while the churn runs."""
    cluster = _cluster(workload)
    registry = default_registry()
    simulation = build_simulation(default_config(registry), registry, cluster)
    simulation.run()
    for i in range(workload.measured_pods):
        cluster.add_pod(_measured(workload, i))
    sampler = Sampler(len(simulation.scheduler.outcomes))
    churn = _churn(workload, cluster, sampler)
    start, cpu_start = time.perf_counter(), time.process_time()
    result = simulation.run(churn)
    end, cpu_end = cluster.finished_at, cluster.finished_cpu
    if end is None or cpu_end is None:  # not every measured pod was bound
        end, cpu_end = time.perf_counter(), time.process_time()
    elapsed, cpu = end - start, cpu_end - cpu_start
    high = [o for o in result.outcomes if o.pod.startswith("default/pod-h")]
    return {
        "name": workload.name,
        "nodes": workload.nodes,
        "init_pods": workload.init_pods,
        "deleting_pods": workload.deleting_pods,
        "measured_pods": workload.measured_pods,
        "upstream_threshold": workload.threshold,
        "churned": churn.churned if isinstance(churn, Churn) else 0,
        "deleted": churn.deleted if isinstance(churn, Deleter) else 0,
        "high_priority_scheduled": sum(1 for o in high if o.status == SCHEDULED),
        **rates(cluster.bound, elapsed, cpu, sampler),
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    return workloads_main("scheduler_perf_churn", __doc__ or "", QUICK, FULL, run, argv)


if __name__ == "__main__":
    main(sys.argv[1:])
