"""Scheduler metrics with upstream's names, labels and buckets (pkg/scheduler/metrics).

Each scheduler owns a private `CollectorRegistry`, so several schedulers in
one process (tests, simulations side by side) never mix their numbers;
`exposition()` renders it in the Prometheus text format. Latencies are wall
time; durations measured from a pod entering the queue use the scheduler's
clock (simulated time in a simulation).
"""

from __future__ import annotations

import threading
from bisect import bisect_left
from collections.abc import Iterable
from typing import Any

import prometheus_client
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client.registry import Collector

# Upstream's metrics have no `_created` series.
prometheus_client.disable_created_metrics()  # type: ignore[no-untyped-call]

SUBSYSTEM = "scheduler"
PLUGIN_METRICS_SAMPLE_PERCENT = 10
"""Upstream records plugin_execution_duration_seconds for 10 % of scheduling cycles."""


def exponential_buckets(start: float, factor: float, count: int) -> list[float]:
    """`count` bucket bounds from `start`, each `factor` times the last (upstream's helper)."""
    return [start * factor**i for i in range(count)]


FLUSH_EVERY = 1024
"""Durations held back per histogram series before they are added in one go."""


def observe_all(child: Any, amounts: list[float]) -> None:
    """`child.observe(a)` for each amount, in order, counting each bucket once: the same
    bucket counts and the same float sum (added in the same order), without a lock per
    value. Falls back to `observe` if the histogram's layout is not the one known here."""
    bounds = getattr(child, "_upper_bounds", None)
    buckets = getattr(child, "_buckets", None)
    total = getattr(child, "_sum", None)
    if bounds is None or buckets is None or total is None or len(bounds) != len(buckets):
        for amount in amounts:
            child.observe(amount)
        return
    counts: dict[int, int] = {}
    value = total.get()
    for amount in amounts:
        value += amount
        i = bisect_left(bounds, amount)  # the first bound >= amount, as observe picks
        if i < len(bounds) and amount <= bounds[i]:  # NaN fits no bucket
            counts[i] = counts.get(i, 0) + 1
    total.set(value)
    for i, count in counts.items():
        buckets[i].inc(count)


class _Pending(Collector):
    """Durations observed per cycle, added to their histograms when the registry is read
    (registered first, so its `collect` runs before the histograms') or when many wait.
    A lock keeps a read from another thread (`/metrics`) from losing or doubling any."""

    def __init__(self) -> None:
        self.series: dict[tuple[int, tuple[str, ...]], tuple[Any, list[float]]] = {}
        self._lock = threading.Lock()

    def add(self, metric: Any, labels: tuple[str, ...], amount: float) -> None:
        key = (id(metric), labels)
        with self._lock:
            entry = self.series.get(key)
            if entry is None:
                entry = self.series[key] = (metric.labels(*labels), [])
            amounts = entry[1]
            amounts.append(amount)
            if len(amounts) >= FLUSH_EVERY:
                observe_all(entry[0], amounts)
                amounts.clear()

    def flush(self) -> None:
        with self._lock:
            for child, amounts in self.series.values():
                if amounts:
                    observe_all(child, amounts)
                    amounts.clear()

    def describe(self) -> Iterable[Any]:
        return ()

    def collect(self) -> Iterable[Any]:
        self.flush()
        return ()


class SchedulerMetrics:
    """Every metric one scheduler exports; also the runtime's `MetricsRecorder`."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        reg = self.registry
        self._pending = _Pending()
        reg.register(self._pending)
        self.schedule_attempts = Counter(
            "schedule_attempts",
            "Number of attempts to schedule pods, by the result. 'unschedulable' means a pod "
            "could not be scheduled, while 'error' means an internal scheduler problem.",
            ["result", "profile"],
            subsystem=SUBSYSTEM,
            registry=reg,
        )
        self.scheduling_attempt_duration = Histogram(
            "scheduling_attempt_duration_seconds",
            "Scheduling attempt latency in seconds (scheduling algorithm + binding)",
            ["result", "profile"],
            subsystem=SUBSYSTEM,
            buckets=exponential_buckets(0.001, 2, 15),
            registry=reg,
        )
        self.scheduling_algorithm_duration = Histogram(
            "scheduling_algorithm_duration_seconds",
            "Scheduling algorithm latency in seconds",
            subsystem=SUBSYSTEM,
            buckets=exponential_buckets(0.001, 2, 15),
            registry=reg,
        )
        self.pending_pods = Gauge(
            "pending_pods",
            "Number of pending pods, by the queue type. 'active' means number of pods in "
            "activeQ; 'backoff' means number of pods in backoffQ; 'unschedulable' means number "
            "of pods in unschedulablePods that the scheduler attempted to schedule and failed; "
            "'gated' is the number of unschedulable pods that the scheduler never attempted to "
            "schedule because they are gated.",
            ["queue"],
            subsystem=SUBSYSTEM,
            registry=reg,
        )
        self.pod_scheduling_sli_duration = Histogram(
            "pod_scheduling_sli_duration_seconds",
            "E2e latency for a pod being scheduled, from the time the pod enters the scheduling "
            "queue and might involve multiple scheduling attempts.",
            ["attempts"],
            subsystem=SUBSYSTEM,
            buckets=exponential_buckets(0.01, 2, 20),
            registry=reg,
        )
        self.pod_scheduling_attempts = Histogram(
            "pod_scheduling_attempts",
            "Number of attempts to successfully schedule a pod.",
            subsystem=SUBSYSTEM,
            buckets=exponential_buckets(1, 2, 5),
            registry=reg,
        )
        self.framework_extension_point_duration = Histogram(
            "framework_extension_point_duration_seconds",
            "Latency for running all plugins of a specific extension point.",
            ["extension_point", "status", "profile"],
            subsystem=SUBSYSTEM,
            buckets=exponential_buckets(0.0001, 2, 12),
            registry=reg,
        )
        self.plugin_execution_duration = Histogram(
            "plugin_execution_duration_seconds",
            "Duration for running a plugin at a specific extension point.",
            ["plugin", "extension_point", "status"],
            subsystem=SUBSYSTEM,
            buckets=exponential_buckets(0.00001, 1.5, 20),
            registry=reg,
        )
        self.plugin_evaluation_total = Counter(
            "plugin_evaluation",
            "Number of attempts to schedule pods by each plugin and the extension point "
            "(available only in PreFilter, Filter, PreScore, and Score).",
            ["plugin", "extension_point", "profile"],
            subsystem=SUBSYSTEM,
            registry=reg,
        )
        self.queue_incoming_pods = Counter(
            "queue_incoming_pods",
            "Number of pods added to scheduling queues by event and queue type.",
            ["queue", "event"],
            subsystem=SUBSYSTEM,
            registry=reg,
        )
        self.preemption_attempts = Counter(
            "preemption_attempts",
            "Total preemption attempts in the cluster till now",
            subsystem=SUBSYSTEM,
            registry=reg,
        )
        self.preemption_victims = Histogram(
            "preemption_victims",
            "Number of selected preemption victims",
            subsystem=SUBSYSTEM,
            buckets=exponential_buckets(1, 2, 7),
            registry=reg,
        )
        self.permit_wait_duration = Histogram(
            "permit_wait_duration_seconds",
            "Duration of waiting on permit.",
            ["result"],
            subsystem=SUBSYSTEM,
            buckets=exponential_buckets(0.001, 2, 15),
            registry=reg,
        )
        self.cache_size = Gauge(
            "scheduler_cache_size",
            "Number of nodes, pods, and assumed (bound) pods in the scheduler cache.",
            ["type"],
            subsystem=SUBSYSTEM,
            registry=reg,
        )
        self.unschedulable_pods = Gauge(
            "unschedulable_pods",
            "The number of unschedulable pods broken down by plugin name. A pod will increment "
            "the gauge for all plugins that caused it to not schedule and so this metric have "
            "meaning only when broken down by plugin.",
            ["plugin", "profile"],
            subsystem=SUBSYSTEM,
            registry=reg,
        )
        self.event_handling_duration = Histogram(
            "event_handling_duration_seconds",
            "Event handling latency in seconds.",
            ["event"],
            subsystem=SUBSYSTEM,
            buckets=exponential_buckets(0.0001, 2, 12),
            registry=reg,
        )
        self.inflight_events = Gauge(
            "inflight_events",
            "Number of events currently tracked in the scheduling queue.",
            ["event"],
            subsystem=SUBSYSTEM,
            registry=reg,
        )
        self.queueing_hint_execution_duration = Histogram(
            "queueing_hint_execution_duration_seconds",
            "Duration for running a queueing hint function of EventsToRegister.",
            ["plugin", "event", "hint"],
            subsystem=SUBSYSTEM,
            buckets=exponential_buckets(0.00001, 1.5, 20),
            registry=reg,
        )
        self.goroutines = Gauge(
            "goroutines",
            "Number of running goroutines split by the work they do such as binding (here: "
            "binding cycles in flight on binding worker threads).",
            ["operation"],
            subsystem=SUBSYSTEM,
            registry=reg,
        )
        self._children: dict[tuple[int, tuple[str, ...]], Any] = {}

    def _child(self, metric: Any, *labels: str) -> Any:
        """The labelled child of `metric`, cached: label lookups are the costly part."""
        key = (id(metric), labels)
        child = self._children.get(key)
        if child is None:
            child = self._children[key] = metric.labels(*labels)
        return child

    # -- what the framework runtime calls ---------------------------------------

    def observe_extension_point(
        self, point: str, status: str, profile: str, seconds: float
    ) -> None:
        self._pending.add(
            self.framework_extension_point_duration, (point, status, profile), seconds
        )

    def observe_plugin(self, plugin: str, point: str, status: str, seconds: float) -> None:
        self._pending.add(self.plugin_execution_duration, (plugin, point, status), seconds)

    def add_plugin_evaluations(self, plugin: str, point: str, profile: str, count: int) -> None:
        self._child(self.plugin_evaluation_total, plugin, point, profile).inc(count)

    # -- what the scheduler calls -----------------------------------------------

    def observe_attempt(self, result: str, profile: str, seconds: float) -> None:
        """One scheduling attempt ended: result is scheduled, unschedulable or error."""
        self._child(self.schedule_attempts, result, profile).inc()
        self._child(self.scheduling_attempt_duration, result, profile).observe(seconds)

    def observe_pod_scheduled(self, attempts: int, sli_seconds: float | None) -> None:
        self.pod_scheduling_attempts.observe(attempts)
        if sli_seconds is not None:
            label = "15+" if attempts >= 15 else str(attempts)
            self._child(self.pod_scheduling_sli_duration, label).observe(sli_seconds)

    def inc_queue_incoming(self, queue: str, event: str) -> None:
        self._child(self.queue_incoming_pods, queue, event).inc()

    def set_pending(self, queue: str, count: int) -> None:
        self._child(self.pending_pods, queue).set(count)

    def add_unschedulable(self, plugin: str, profile: str, delta: int) -> None:
        self._child(self.unschedulable_pods, plugin, profile).inc(delta)

    def set_cache_size(self, nodes: int, pods: int, assumed_pods: int) -> None:
        self._child(self.cache_size, "nodes").set(nodes)
        self._child(self.cache_size, "pods").set(pods)
        self._child(self.cache_size, "assumed_pods").set(assumed_pods)

    def observe_event_handling(self, event: str, seconds: float) -> None:
        self._pending.add(self.event_handling_duration, (event,), seconds)

    def observe_queueing_hint(self, plugin: str, event: str, hint: str, seconds: float) -> None:
        self._pending.add(self.queueing_hint_execution_duration, (plugin, event, hint), seconds)

    def set_inflight_events(self, counts: dict[str, int]) -> None:
        """The queue's in-flight events by label (labels no longer seen drop to 0)."""
        for labels in list(self.inflight_events._metrics):
            if labels[0] not in counts:
                self._child(self.inflight_events, labels[0]).set(0)
        for event, count in counts.items():
            self._child(self.inflight_events, event).set(count)

    def set_goroutines(self, operation: str, count: int) -> None:
        self._child(self.goroutines, operation).set(count)

    def exposition(self) -> bytes:
        """Every metric in the Prometheus text exposition format."""
        return prometheus_client.generate_latest(self.registry)
