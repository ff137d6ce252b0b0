"""The OpenB trace as `kubesched replay` scenarios: two formats of the entry-point group
`kubesched.scenarios`.

`openb` replays a pod list with its real times: each pod is created at its
`creation_time` and deleted at its `deletion_time` (seconds from the trace's
start) on the nodes of the node list; a pod that does not fit waits and is
retried as kube-scheduler would. The study never ran this: it is the trace as
time, not as an arrival order.

`openb-arrivals` is the study's experiment: the pods sorted by name, shuffled
with the format's `seed`, inflated with copies to `tune` x the cluster's GPUs,
created one a second. Run it with `--drop-unschedulable` (a pod that does not
fit is deleted, never retried) and `--ties first --seed SEED` for the study's
tie rule.

Both read the pod list CSV named as the path, and take these
`--format-option`s: `nodes`, the node list (default `openb_node_list_gpu_node.csv`
beside the pod list); `openb-arrivals` also `seed` (default 42), `tune`
(default 1.3) and `until` (no pod is created once the arrived workload passes
this % of capacity + 2). Each attaches an observer whose summary (`openbGpu`)
carries the GPU figures, and publishes the pod list's target workload on the
`default` Namespace (`kubesched_gpushare.published`), which FGDScore uses when
its args give no `typicalPods`: one FGD config fits every trace.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

from kubesched.api import ClusterObjects, Node
from kubesched.replay import (
    Attempt,
    ClusterView,
    Event,
    Observer,
    PodCreated,
    PodDeleted,
    Sample,
    Scenario,
    ScenarioError,
    Summary,
)
from kubesched_gpushare.floats import mean_in_order
from kubesched_gpushare.frag import TypicalPod, target_workload
from kubesched_gpushare.published import publishing_namespace
from kubesched_gpushare.replay.run import GpuSeries, ReplayResult, arrival_events
from kubesched_gpushare.replay.series import arrived_bin, frag_amount, frag_ratio, unallocated
from kubesched_gpushare.replay.trace import (
    TraceError,
    TracePod,
    read_nodes,
    read_pods,
    read_times,
    to_pod,
)
from kubesched_gpushare.replay.workload import arrivals, inflate
from kubesched_gpushare.resources import MILLI, GpuRequest, node_gpu_count

NODE_LIST = "openb_node_list_gpu_node.csv"
"""The node list a format reads unless the `nodes` option names another."""
NAMESPACE = "default"


def _option(options: Mapping[str, str], allowed: Sequence[str], path: Path) -> None:
    for key in sorted(options):
        if key not in allowed:
            raise ScenarioError(
                f"format option {key!r} is not one of {', '.join(allowed)}", file=str(path)
            )


def _number(options: Mapping[str, str], key: str, default: float, path: Path) -> float:
    raw = options.get(key)
    if raw is None:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ScenarioError(f"format option {key}: not a number: {raw!r}", file=str(path)) from None
    if not value > 0:
        raise ScenarioError(f"format option {key}: must be > 0, got {raw}", file=str(path))
    return value


def _integer(options: Mapping[str, str], key: str, default: int, path: Path) -> int:
    raw = options.get(key)
    if raw is None:
        return default
    try:
        return int(raw)
    except ValueError:
        raise ScenarioError(
            f"format option {key}: not an integer: {raw!r}", file=str(path)
        ) from None


def _read(path: Path, options: Mapping[str, str]) -> tuple[list[Node], list[TracePod]]:
    nodes_path = Path(options["nodes"]) if "nodes" in options else path.parent / NODE_LIST
    try:
        return read_nodes(nodes_path), read_pods(path)
    except TraceError as error:
        raise ScenarioError(str(error)) from None


class GpuAllocation(Observer):
    """GPU milli allocated over the simulated time of a timed replay."""

    name = "openbGpu"

    def __init__(self, capacity_milli: int, pods: Mapping[str, TracePod]) -> None:
        self.capacity = capacity_milli
        self.pods = pods
        self.bound: dict[str, int] = {}
        self.allocated = 0
        self.samples: list[float] = []
        self.peak = 0
        self.failed_first = 0

    def on_attempt(self, view: ClusterView, attempt: Attempt) -> None:
        uid = attempt.pod.rsplit("/", 1)[-1]
        milli = self.pods[uid].request.total_milli
        if attempt.node is not None and uid not in self.bound and uid in view.bound_pods:
            self.bound[uid] = milli
            self.allocated += milli
            self.peak = max(self.peak, self.allocated)
        elif attempt.attempts <= 1 and milli:
            self.failed_first += 1

    def on_event(self, view: ClusterView, event: Event) -> None:
        if isinstance(event, PodDeleted):
            milli = self.bound.pop(event.pod.rsplit("/", 1)[-1], 0)
            self.allocated -= milli

    def on_sample(self, view: ClusterView, sample: Sample) -> None:
        self.samples.append(100 * self.allocated / self.capacity)

    def summary(self) -> Summary:
        return {
            "gpuCapacityMilli": self.capacity,
            "gpuAllocatedPercentMean": round(mean_in_order(self.samples), 4),
            "gpuAllocatedPercentPeak": round(100 * self.peak / self.capacity, 4),
            "gpuPodsUnscheduledAtFirstAttempt": self.failed_first,
        }


def timed_events(
    pods: Sequence[TracePod], times: Sequence[tuple[int, int | None]]
) -> Iterator[Event]:
    """Each pod created at its creation time and deleted at its deletion time, in time order
    (at one time: deletions of earlier pods, then creations, then a pod deleted the moment it
    was created)."""
    heap: list[tuple[int, int, int, Event]] = []
    for i, (pod, (created, deleted)) in enumerate(zip(pods, times, strict=True)):
        heap.append((created, 1, i, PodCreated(float(created), to_pod(pod, pod.name))))
        if deleted is not None:
            rank = 2 if deleted == created else 0
            event = PodDeleted(float(deleted), f"{NAMESPACE}/{pod.name}")
            heap.append((deleted, rank, i, event))
    heapq.heapify(heap)
    while heap:
        yield heapq.heappop(heap)[3]


def read_openb(path: Path, options: Mapping[str, str]) -> Scenario:
    """The `openb` format: the pod list with its real creation and deletion times."""
    _option(options, ("nodes",), path)
    nodes, pods = _read(path, options)
    try:
        times = read_times(path)
    except TraceError as error:
        raise ScenarioError(str(error)) from None
    capacity = sum(node_gpu_count(n) for n in nodes) * MILLI
    by_uid = {p.name: p for p in pods}
    workload = target_workload([p.spec() for p in pods])
    return Scenario(
        ClusterObjects(nodes=nodes, namespaces=[publishing_namespace(workload, NAMESPACE)]),
        lambda: timed_events(pods, times),
        name=f"openb/{path.stem}",
        source=str(path),
        observers=(lambda: GpuAllocation(capacity, by_uid),),
    )


FIGURE_BINS = tuple(range(0, 101, 10))
"""The arrived-% bins whose values an `openb-arrivals` summary carries (the study's curves)."""
POD_TYPES = ("cpu", "share", "gpu1", "multi")
"""Kinds of pod in `failedPods<Kind>`: no GPU, part of one GPU, one whole GPU, several GPUs."""


def pod_type(request: GpuRequest) -> str:
    """The kind of a pod's GPU request (`POD_TYPES`)."""
    if request.count == 0:
        return "cpu"
    if request.count == 1:
        return "share" if request.milli < MILLI else "gpu1"
    return "multi"


def _rounded(value: float | None) -> float | str:
    return round(value, 4) if value is not None else "none"


class _ArrivalSeries(GpuSeries):
    """The replay's series as an observer of a `kubesched replay` run; its summary carries
    the study's figures: unallocated GPU %, fragmentation amount and ratio at the arrived-%
    bins of `FIGURE_BINS`, and the pods that failed by kind while the arrived workload was
    in a bin up to 100 %."""

    name = "openbGpu"

    def __init__(
        self,
        nodes: Sequence[Node],
        pods: dict[str, TracePod],
        workload: Sequence[TypicalPod],
        result: ReplayResult,
    ) -> None:
        super().__init__(nodes, pods, workload, result)
        self.failed_by_type = dict.fromkeys(POD_TYPES, 0)

    def on_attempt(self, view: ClusterView, attempt: Attempt) -> None:
        failed = self.result.failed
        super().on_attempt(view, attempt)
        within = arrived_bin(self.arrived, self.result.capacity_milli) <= 100
        if self.result.failed > failed and within:
            trace_pod = self.pods[attempt.pod.rsplit("/", 1)[-1]]
            self.failed_by_type[pod_type(trace_pod.request)] += 1

    def summary(self) -> Summary:
        out: Summary = dict(super().summary())
        top = FIGURE_BINS[-1]
        empty: list[float | None] = [None] * (top + 1)
        arrived = bool(self.result.arrived)
        curves = {
            "unallocatedGpuPercent": unallocated(self.result, top) if arrived else empty,
            "fragAmountPercent": frag_amount(self.result, top) if arrived else empty,
            "fragRatioPercent": frag_ratio(self.result, top) if arrived else empty,
        }
        out["unallocatedGpuPercentAt100"] = _rounded(curves["unallocatedGpuPercent"][100])
        for name, curve in curves.items():
            for b in FIGURE_BINS:
                out[f"{name}At{b}"] = _rounded(curve[b])
        for kind in POD_TYPES:
            out[f"failedPods.{kind}"] = self.failed_by_type[kind]
        return out


def read_openb_arrivals(path: Path, options: Mapping[str, str]) -> Scenario:
    """The `openb-arrivals` format: the study's seeded, inflated arrival order."""
    _option(options, ("nodes", "seed", "tune", "until"), path)
    nodes, pods = _read(path, options)
    seed = _integer(options, "seed", 42, path)
    tune = _number(options, "tune", 1.3, path)
    until = _integer(options, "until", -1, path) if "until" in options else None
    capacity = sum(node_gpu_count(n) for n in nodes) * MILLI
    order = inflate(arrivals(pods, seed), pods, capacity, tune, seed)
    workload = target_workload([p.spec() for p in pods])
    by_uid = {f"{p.name}-{i}": p for i, p in enumerate(order)}

    def observer() -> Observer:
        return _ArrivalSeries(nodes, by_uid, workload, ReplayResult("", seed, capacity))

    return Scenario(
        ClusterObjects(nodes=nodes, namespaces=[publishing_namespace(workload, NAMESPACE)]),
        lambda: arrival_events(order, capacity, until),
        name=f"openb-arrivals/{path.stem}/{seed}",
        source=str(path),
        observers=(observer,),
    )
