"""One replay: one policy, one seed, the pods submitted one at a time, on kubesched's
scenario engine (`kubesched.replay`).

The pods arrive one per simulated second in the given order (`arrival_events`);
the engine gives each one scheduling cycle and, with `drop_unschedulable`, deletes
a pod that does not fit (dropped, never retried); nothing else is ever deleted.
Ties between the best nodes follow the engine's `ties` option. An observer
(`GpuSeries`) records after every pod the arrived GPU milli (every pod so far,
placed or not), the allocated GPU milli and the cluster's fragmentation against
the target workload.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from attrs import define, field

from kubesched.api import CPU, ClusterObjects, Node
from kubesched.framework import default_registry
from kubesched.replay import (
    TIE_RULES,
    TIES_FIRST,
    Attempt,
    ClusterView,
    Observer,
    PodCreated,
    ReplayOptions,
    Scenario,
    Summary,
)
from kubesched.replay import replay as run_scenario
from kubesched_gpushare.floats import add_in_order
from kubesched_gpushare.frag import TypicalPod, node_fragment
from kubesched_gpushare.replay.profiles import policy_config
from kubesched_gpushare.replay.trace import TracePod, to_pod
from kubesched_gpushare.resources import GPU_INDEX, GPU_MODEL, MILLI, node_gpu_count

SCHEDULED = "Scheduled"
"""The engine's status of an attempt that bound its pod."""


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
    """Processor time of the run: what it costs on an idle core."""
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


class GpuSeries(Observer):
    """Arrived and allocated GPU milli and the cluster's fragmentation after every
    attempt, into a `ReplayResult`."""

    name = "openbGpuSeries"

    def __init__(
        self,
        nodes: Sequence[Node],
        pods: dict[str, TracePod],
        workload: Sequence[TypicalPod],
        result: ReplayResult,
    ) -> None:
        self.pods = pods
        self.mirror = _Mirror(nodes, workload)
        self.result = result
        self.arrived = self.allocated = 0

    def on_attempt(self, view: ClusterView, attempt: Attempt) -> None:
        uid = attempt.pod.rsplit("/", 1)[-1]
        trace_pod = self.pods[uid]
        result = self.result
        self.arrived += trace_pod.request.total_milli
        bound = view.bound_pods.get(uid)
        if attempt.status == SCHEDULED and bound is not None and attempt.node:
            self.mirror.place(
                attempt.node, trace_pod, bound.metadata.annotations.get(GPU_INDEX, "")
            )
            self.allocated += trace_pod.request.total_milli
            result.scheduled += 1
        else:
            result.failed += 1
        result.arrived.append(self.arrived)
        result.allocated.append(self.allocated)
        result.frag.append(self.mirror.total_frag)

    def summary(self) -> Summary:
        result = self.result
        return {
            "scheduled": result.scheduled,
            "failed": result.failed,
            "arrivedMilli": self.arrived,
            "allocatedMilli": self.allocated,
        }


def arrival_events(
    pods: Sequence[TracePod], capacity_milli: int, until: int | None
) -> Iterator[PodCreated]:
    """One pod a second in the given order, named `<row>-<i>` so copies differ; with
    `until`, none after the arrived workload passes `until` + 2 % of capacity."""
    arrived = 0
    for i, trace_pod in enumerate(pods):
        yield PodCreated(float(i), to_pod(trace_pod, f"{trace_pod.name}-{i}"))
        arrived += trace_pod.request.total_milli
        if until is not None and 100 * arrived > (until + 2) * capacity_milli:
            return


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
    `ties`: the engine's tie rule (`first`, the study's; `random`, upstream's). `until`:
    stop once the arrived workload passes `until` + 2 % of capacity, so the series binned
    up to `until` % are what the whole run gives."""
    if ties not in TIE_RULES:
        raise ValueError(f"ties: {ties!r} is not one of {', '.join(sorted(TIE_RULES))}")
    capacity = sum(node_gpu_count(n) for n in nodes) * MILLI
    result = ReplayResult(policy, seed, capacity)
    by_uid = {f"{p.name}-{i}": p for i, p in enumerate(pods)}
    series = GpuSeries(nodes, by_uid, workload, result)
    scenario = Scenario(
        ClusterObjects(nodes=list(nodes)),
        lambda: arrival_events(pods, capacity, until),
        name=f"openb/{policy}/{seed}",
        source="openb arrival order",
    )
    options = ReplayOptions(
        ties=ties,
        drop_unschedulable=True,
        sample_interval=float(len(pods) + 1),
        observers=(series,),
        keep_pods=False,
    )
    config = {
        "apiVersion": "kubescheduler.config.k8s.io/v1",
        "kind": "KubeSchedulerConfiguration",
        **policy_config(policy, workload),
    }
    run = run_scenario(scenario, config, seed, options, registry=default_registry())
    result.seconds = run.totals.wall_seconds
    result.cpu_seconds = run.totals.cpu_seconds
    result.gpus = {n: [MILLI - f for f in free] for n, free in series.mirror.free.items()}
    return result
