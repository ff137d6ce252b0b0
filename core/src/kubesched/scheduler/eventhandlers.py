"""Cluster changes -> cache, queue and cluster events (upstream's eventhandlers.go).

The cluster hands over plain (old, new) object changes; between cycles the
scheduler takes them (`sync`) and each is applied here: nodes and bound pods
to the cache, pending pods of our profiles to the queue, and every change
translated into the cluster events plugins registered for, so the queue can
move the pods they may help.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from typing import Any

from kubesched.api import (
    CSINode,
    Node,
    PersistentVolume,
    PersistentVolumeClaim,
    Pod,
    StorageClass,
    VolumeAttachment,
)
from kubesched.framework._events import (
    ASSIGNED_POD_ADD,
    ASSIGNED_POD_DELETE,
    NODE_ADD,
    NODE_DELETE,
    ActionType,
    ClusterEvent,
    EventResource,
    node_changes,
    pod_changes,
)
from kubesched.framework._runtime import Framework
from kubesched.scheduler.cache import Cache, CacheError
from kubesched.scheduler.metrics import SchedulerMetrics
from kubesched.scheduler.outcome import SCHEDULED, PodOutcome
from kubesched.scheduler.queue import SchedulingQueue
from kubesched.scheduler.source import ClusterSource, ObjectChange
from kubesched.scheduler.watchdog import Watchdog

log = logging.getLogger("kubesched.scheduler")

_STORAGE_RESOURCES: dict[type, EventResource] = {
    PersistentVolume: EventResource.PERSISTENT_VOLUME,
    PersistentVolumeClaim: EventResource.PERSISTENT_VOLUME_CLAIM,
    StorageClass: EventResource.STORAGE_CLASS,
    CSINode: EventResource.CSI_NODE,
    VolumeAttachment: EventResource.VOLUME_ATTACHMENT,
}
"""The storage kinds whose changes are cluster events for the volume plugins."""


def storage_event(old: Any, new: Any) -> ClusterEvent | None:
    """The cluster event of a storage object's change; None for other kinds."""
    resource = _STORAGE_RESOURCES.get(type(new if new is not None else old))
    if resource is None:
        return None
    if old is None:
        return ClusterEvent(resource, ActionType.ADD)
    return ClusterEvent(resource, ActionType.DELETE if new is None else ActionType.UPDATE)


def change_label(old: Any, new: Any) -> str:
    """The scheduler_event_handling_duration_seconds label of a change: `NodeAdd`,
    `AssignedPodUpdate`, `UnscheduledPodDelete`, `PersistentVolumeClaimAdd`..."""
    obj = new if new is not None else old
    action = "Add" if old is None else "Delete" if new is None else "Update"
    kind = type(obj).__name__
    if isinstance(obj, Pod):
        kind = "AssignedPod" if obj.spec.node_name else "UnscheduledPod"
    return kind + action


class EventHandlers:
    """Applies cluster changes to the scheduler's cache and queue."""

    cluster: ClusterSource
    cache: Cache
    queue: SchedulingQueue
    frameworks: Mapping[str, Framework]
    watchdog: Watchdog
    metrics: SchedulerMetrics
    unsynced: list[ObjectChange]
    cluster_version: int
    """Bumped by every change that may let an unschedulable pod fit."""
    outcomes: dict[str, PodOutcome]
    preemptors: dict[str, str]
    """Victim `namespace/name` -> the pod whose preemption named it."""

    def responsible_for(self, pod: Pod) -> bool:
        return pod.spec.scheduler_name in self.frameworks

    def sync(self) -> int:
        """Apply every change the cluster has recorded since the last sync; how many.

        Plugin code runs here too (PreEnqueue, queueing hints), under the cycle watchdog.
        A change the cache cannot apply (a live cluster's watch delivering what the
        cache does not expect) is logged and skipped, as upstream's handlers do.
        """
        changes = [*self.unsynced, *self.cluster.take_changes()]
        self.unsynced = []
        with self.watchdog.limit():
            for old, new in changes:
                start = time.perf_counter()
                try:
                    self.handle_change(old, new)
                except CacheError as exc:
                    log.error("scheduler cache: %s", exc)
                self.metrics.observe_event_handling(
                    change_label(old, new), time.perf_counter() - start
                )
        return len(changes)

    def handle_change(self, old: Any, new: Any) -> None:
        """Apply one object change; kinds the scheduler does not follow are ignored."""
        obj = new if new is not None else old
        if isinstance(obj, Node):
            self.cluster_version += 1
            self._node_changed(old, new)
        elif isinstance(obj, Pod):
            if (new or old).spec.node_name:
                self.cluster_version += 1
                self._assigned_pod_changed(old, new)
            elif self.responsible_for(obj):
                self._unscheduled_pod_changed(old, new)
        else:
            event = storage_event(old, new)
            if event is not None:
                self.cluster_version += 1
                self.queue.move_all_to_active_or_backoff(event, old, new)

    # -- nodes -----------------------------------------------------------------------

    def _node_changed(self, old: Node | None, new: Node | None) -> None:
        if old is None:
            assert new is not None
            self.cache.add_node(new)
            self.queue.move_all_to_active_or_backoff(NODE_ADD, None, new)
        elif new is None:
            self.queue.move_all_to_active_or_backoff(NODE_DELETE, old, None)
            self.cache.remove_node(old)
        else:
            self.cache.update_node(old, new)
            for event in node_changes(old, new):
                self.queue.move_all_to_active_or_backoff(event, old, new)

    # -- bound pods ------------------------------------------------------------------

    def _assigned_pod_changed(self, old: Pod | None, new: Pod | None) -> None:
        if new is None:
            assert old is not None
            self.cache.remove_pod(old)
            self.queue.move_all_to_active_or_backoff(ASSIGNED_POD_DELETE, old, None)
            outcome = self.outcomes.get(old.uid)
            if outcome is not None and outcome.status == SCHEDULED:
                outcome.left_node(self.preemptors.get(old.key))
        elif old is None or not old.spec.node_name:
            self.cache.add_pod(new)
            if old is not None and self.responsible_for(old):
                self.queue.delete(old)
            self.queue.move_all_to_active_or_backoff(ASSIGNED_POD_ADD, None, new)
        else:
            self.cache.update_pod(old, new)
            for event in pod_changes(old, new):
                self.queue.move_all_to_active_or_backoff(event, old, new)

    # -- pending pods ----------------------------------------------------------------

    def _unscheduled_pod_changed(self, old: Pod | None, new: Pod | None) -> None:
        if old is None:
            assert new is not None
            self.queue.add(new)
        elif new is None:
            self.cluster_version += 1
            self.queue.delete(old)
            if self.cache.is_assumed(old):
                self._assumed_pod_deleted(old)
            elif old.status.nominated_node_name:
                self._pod_left_node(old)
        elif not self.cache.is_assumed(new):
            self.queue.update(old, new, pod_changes(old, new))
            previous = old.status.nominated_node_name
            if previous and previous != new.status.nominated_node_name:
                self._pod_left_node(old)

    def _pod_left_node(self, pod: Pod) -> None:
        """A nominated pod no longer holds its node: lower or equal priority pods may fit."""
        priority = pod.priority
        self.queue.move_all_to_active_or_backoff(
            ASSIGNED_POD_DELETE, pod, None, lambda p: p.priority <= priority
        )

    def _assumed_pod_deleted(self, pod: Pod) -> None:
        assumed = self.cache.get_pod(pod)
        if assumed is None:
            return
        fw = self.frameworks[assumed.spec.scheduler_name]
        if not fw.reject_waiting_pod(assumed.uid):
            self.cache.forget_pod(assumed)
        self.queue.move_all_to_active_or_backoff(ASSIGNED_POD_DELETE, assumed, None)
