"""The scheduler: profiles, queue, cache and snapshot, nominator; the state both cycles share.

`Scheduler` puts together what upstream's scheduler.New does: one framework
per profile (sharing the snapshot, the nominator and the waiting pods), one
scheduling queue sorted by the profiles' QueueSort, the cache filled from the
cluster's listing. Cluster changes reach it between cycles (`sync`, in
`eventhandlers`); the cycles themselves are in `schedule_one`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from attrs import frozen

from kubesched.api import Pod
from kubesched.features import DEFAULT_FEATURE_GATES, FeatureGates
from kubesched.framework._interface import Clock, EventRecorder
from kubesched.framework._profile import EffectiveProfile
from kubesched.framework._registry import Registry
from kubesched.framework._runtime import Framework
from kubesched.framework._waiting_pods import WaitingPodsMap
from kubesched.scheduler.algorithm import Algorithm
from kubesched.scheduler.backoff import DEFAULT_POD_INITIAL_BACKOFF, DEFAULT_POD_MAX_BACKOFF
from kubesched.scheduler.binder import ConcurrentBinder
from kubesched.scheduler.cache import Cache
from kubesched.scheduler.eventhandlers import EventHandlers
from kubesched.scheduler.extenders import HTTPExtender
from kubesched.scheduler.metrics import SchedulerMetrics
from kubesched.scheduler.nominator import Nominator
from kubesched.scheduler.outcome import PodOutcome
from kubesched.scheduler.queue import SchedulingQueue
from kubesched.scheduler.schedule_one import ScheduleOne, _Binding, truncate_message
from kubesched.scheduler.snapshot import Snapshot
from kubesched.scheduler.source import ClusterSource, ObjectChange
from kubesched.scheduler.ties import TIES_FIRST, TIES_RANDOM, check_tie_rule, node_order
from kubesched.scheduler.watchdog import DEFAULT_CYCLE_TIMEOUT, Watchdog

__all__ = ["Scheduler", "SchedulerSettings", "truncate_message"]


@frozen
class SchedulerSettings:
    """The top-level KubeSchedulerConfiguration fields the loop uses."""

    percentage_of_nodes_to_score: int = 0
    pod_initial_backoff_seconds: float = DEFAULT_POD_INITIAL_BACKOFF
    pod_max_backoff_seconds: float = DEFAULT_POD_MAX_BACKOFF


class Scheduler(ScheduleOne, EventHandlers):
    """kube-scheduler's loop over any `ClusterSource` and clock."""

    def __init__(
        self,
        profiles: Sequence[EffectiveProfile],
        registry: Registry,
        cluster: ClusterSource,
        *,
        clock: Clock,
        recorder: EventRecorder,
        settings: SchedulerSettings | None = None,
        seed: int = 0,
        metrics: SchedulerMetrics | None = None,
        explain: bool | Callable[[Pod], bool] = False,
        explain_nodes: int | None = None,
        cycle_timeout: float | None = DEFAULT_CYCLE_TIMEOUT,
        extenders: Sequence[HTTPExtender] = (),
        record_extender_bindings: bool = False,
        feature_gates: FeatureGates = DEFAULT_FEATURE_GATES,
        ties: str = TIES_RANDOM,
        binder: ConcurrentBinder[Any] | None = None,
    ) -> None:
        """`ties`: how a tie between the best nodes is broken (`kubesched.scheduler.ties`);
        under `first`, the order is drawn with `seed` over the nodes listed now. `binder`:
        binding cycles' API calls run concurrently on it (a live scheduler); without one
        they run inline, in order. `explain_nodes`: an explanation keeps the chosen node
        and this many best-scored nodes, the others grouped by verdict; None: every node."""
        settings = settings or SchedulerSettings()
        self.extenders = tuple(extenders)
        """The HTTP extenders, shared by every profile (upstream's sched.Extenders)."""
        self.record_extender_bindings = record_extender_bindings
        """The cluster is simulated: a binding an extender accepted is applied to it here
        (a real extender binds through the API server, which an in-memory cluster is not)."""
        self.watchdog = Watchdog(cycle_timeout)
        self.timed_out: set[str] = set()
        """Pods whose cycle ran past the watchdog's limit (a simulation does not retry them)."""
        self.cluster = cluster
        self.clock = clock
        self.recorder = recorder
        self.metrics = metrics or SchedulerMetrics()
        self.explain = explain
        self.explain_nodes = explain_nodes
        self.cache = Cache()
        self.snapshot = Snapshot()
        self.nominator = Nominator(lambda pod: cluster.get_pod(pod.uid))
        self.waiting_pods = WaitingPodsMap()
        self.frameworks: dict[str, Framework] = {
            p.scheduler_name: Framework(
                p,
                registry,
                client=cluster,
                snapshot=self.snapshot,
                nominator=self.nominator,
                clock=clock,
                event_recorder=recorder,
                activate_pods=self._activate,
                metrics=self.metrics,
                waiting_pods=self.waiting_pods,
                rng=random.Random(f"{seed}/{p.scheduler_name}"),
                extenders=self.extenders,
                feature_gates=feature_gates,
            )
            for p in profiles
        }
        first = next(iter(self.frameworks.values()))
        self.queue = SchedulingQueue(
            clock=clock,
            less=first.queue_sort_less,
            profiles=self.frameworks,
            nominator=self.nominator,
            metrics=self.metrics,
            initial_backoff=settings.pod_initial_backoff_seconds,
            max_backoff=settings.pod_max_backoff_seconds,
        )
        check_tie_rule(ties)
        self.algorithm = Algorithm(
            random.Random(seed),
            settings.percentage_of_nodes_to_score,
            extenders=self.extenders,
            tie_rule=ties,
            tie_order=(
                node_order((n.name for n in cluster.nodes()), seed) if ties == TIES_FIRST else {}
            ),
        )
        self._sampler = random.Random(seed + 1)
        self.outcomes: dict[str, PodOutcome] = {}
        self.preemptors: dict[str, str] = {}
        self.cluster_version = 0
        self.seen_version: dict[str, int] = {}
        self._bindings: dict[str, _Binding] = {}
        self.binder = binder
        cluster.take_changes()  # what happened so far is in the listing below
        self.unsynced: list[ObjectChange] = [
            *((None, node) for node in cluster.nodes()),
            *((None, pod) for pod in cluster.pods()),
        ]
        """The cluster as first listed, applied by the first `sync` (upstream's informers'
        initial list), so PreEnqueue runs under the watchdog like every plugin."""

    def _activate(self, pods: Sequence[Pod]) -> None:
        self.queue.activate(pods)

    def refresh_gauges(self) -> None:
        """Bring scheduler_pending_pods and the cache size gauges up to date."""
        for queue, count in self.queue.pending_counts().items():
            self.metrics.set_pending(queue, count)
        cache = self.cache
        self.metrics.set_cache_size(cache.num_nodes, cache.num_pods, cache.num_assumed_pods)
        self.metrics.set_inflight_events(self.queue.in_flight_events())
        self.metrics.set_goroutines("binding", len(self.binder) if self.binder is not None else 0)
