"""One replay: one policy, one seed, the pods submitted one at a time.

Each pod is created, gets one scheduling cycle, and is deleted when it does
not fit (dropped, never retried); nothing else is ever deleted. After every
pod the run records the arrived GPU milli (every pod so far, placed or not),
the allocated GPU milli and the cluster's fragmentation against the target
workload.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence

from attrs import define, field

from kubesched.api import CPU, Node
from kubesched.cluster import InMemoryCluster
from kubesched.framework import default_registry
from kubesched.profile import build_simulation, parse_profiles
from kubesched.scheduler.loop import next_pod
from kubesched.scheduler.outcome import SCHEDULED
from kubesched_gpushare.floats import add_in_order
from kubesched_gpushare.frag import TypicalPod, node_fragment
from kubesched_gpushare.replay.profiles import policy_config
from kubesched_gpushare.replay.ties import TIES, TIES_FIRST, TIES_RANDOM, FirstInOrder, node_order
from kubesched_gpushare.replay.trace import TracePod, to_pod
from kubesched_gpushare.resources import GPU_INDEX, GPU_MODEL, MILLI, node_gpu_count


@define
class ReplayResult:
    """A run's series (one entry per submitted pod) and totals."""

    policy: str
    seed: int
    capacity_milli: int
    arrived: list[int] = field(factory=list)
    allocated: list[int] = field(factory=list)
    frag: list[float] = field(factory=list)
    scheduled: int = 0
    failed: int = 0
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    """Processor time of this process during the run: what the run costs on an idle core."""
    gpus: dict[str, list[int]] = field(factory=dict)
    """Node name -> used milli of each GPU at the end (the per-GPU view)."""

    @property
    def pods_per_second(self) -> float:
        return (self.scheduled + self.failed) / self.seconds if self.seconds else 0.0


class _Mirror:
    """Free milli per device and free CPU per node, from the devices Reserve recorded."""

    def __init__(self, nodes: Sequence[Node], workload: Sequence[TypicalPod]) -> None:
        self.workload = workload
        self.free = {n.name: [MILLI] * node_gpu_count(n) for n in nodes}
        self.cpu = {n.name: n.status.allocatable.get(CPU, 0) for n in nodes}
        self.model = {n.name: n.metadata.labels.get(GPU_MODEL, "") for n in nodes}
        self.frag = {name: self._frag(name) for name in self.free}
        self.total_frag = add_in_order(self.frag.values())

    def _frag(self, name: str) -> float:
        return node_fragment(self.free[name], self.cpu[name], self.model[name], self.workload)

    def place(self, node: str, trace_pod: TracePod, indices: str) -> None:
        self.cpu[node] -= trace_pod.cpu_milli
        if trace_pod.request.count:
            picked = [int(i) for i in indices.split("-")]
            if len(picked) != trace_pod.request.count:
                raise AssertionError(f"{node}: {indices!r} for {trace_pod.request}")
            for i in picked:
                self.free[node][i] -= trace_pod.request.milli
                if self.free[node][i] < 0:
                    raise AssertionError(f"{node}: GPU {i} over {MILLI} milli")
        self.total_frag -= self.frag[node]
        self.frag[node] = self._frag(node)
        self.total_frag += self.frag[node]


def replay(
    nodes: Sequence[Node],
    pods: Sequence[TracePod],
    policy: str,
    workload: Sequence[TypicalPod],
    seed: int,
    ties: str = TIES_FIRST,
    until: int | None = None,
) -> ReplayResult:
    """Submit `pods` in order to a scheduler running `policy`; see the module docstring.
    `ties`: how a tie between the best nodes is broken (see `ties`). `until`: stop once
    the arrived workload passes `until` + 2 % of capacity, so the series binned up to
    `until` % are what the whole run gives."""
    registry = default_registry()
    config = json.dumps(
        {
            "apiVersion": "kubescheduler.config.k8s.io/v1",
            "kind": "KubeSchedulerConfiguration",
            **policy_config(policy, workload),
        }
    )
    cfg, profiles = parse_profiles(config, registry, source=f"{policy} profile")
    cluster = InMemoryCluster(nodes=nodes, pods=())
    sched = build_simulation(cfg, registry, cluster, profiles=profiles, seed=seed).scheduler
    if ties == TIES_FIRST:
        order = node_order([n.name for n in nodes], seed)
        sched.algorithm = FirstInOrder.replacing(sched.algorithm, order)
    elif ties != TIES_RANDOM:
        raise ValueError(f"ties: {ties!r} is not one of {', '.join(TIES)}")
    mirror = _Mirror(nodes, workload)
    result = ReplayResult(policy, seed, sum(len(f) for f in mirror.free.values()) * MILLI)
    arrived = allocated = 0
    start, cpu_start = time.perf_counter(), time.process_time()
    for i, trace_pod in enumerate(pods):
        pod = cluster.add_pod(to_pod(trace_pod, f"{trace_pod.name}-{i}"))
        entry = next_pod(sched)
        if entry is not None:
            sched.schedule_one(entry)
        sched.sync()
        sched.pump_bindings()
        sched.sync()
        live = cluster.get_pod(pod.uid)
        outcome = sched.outcomes.get(pod.uid)
        arrived += trace_pod.request.total_milli
        if live is not None and live.spec.node_name and outcome and outcome.status == SCHEDULED:
            mirror.place(
                live.spec.node_name, trace_pod, live.metadata.annotations.get(GPU_INDEX, "")
            )
            allocated += trace_pod.request.total_milli
            result.scheduled += 1
        else:
            if live is not None:
                cluster.delete_pod(live)
                sched.sync()
            result.failed += 1
        result.arrived.append(arrived)
        result.allocated.append(allocated)
        result.frag.append(mirror.total_frag)
        if until is not None and 100 * arrived > (until + 2) * result.capacity_milli:
            break
    result.seconds = time.perf_counter() - start
    result.cpu_seconds = time.process_time() - cpu_start
    result.gpus = {n: [MILLI - f for f in free] for n, free in mirror.free.items()}
    return result
