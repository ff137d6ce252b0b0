"""The protocols a plugin can rely on: the Handle and what it exposes.

The framework runtime implements `Handle`; the scheduler supplies the
cluster client, the snapshot, the nominator and the clock.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Protocol

from kubesched.api import (
    Controller,
    CSINode,
    Namespace,
    PersistentVolume,
    PersistentVolumeClaim,
    Pod,
    PodCondition,
    PodDisruptionBudget,
    Service,
    StorageClass,
    VolumeAttachment,
)
from kubesched.features import FeatureGates
from kubesched.framework._cycle_state import CycleState
from kubesched.framework._extender import Extender
from kubesched.framework._lister import SharedLister
from kubesched.framework._status import Status
from kubesched.framework._types import NodeInfo, PodInfo


class Clock(Protocol):
    """Where time comes from: real in a live scheduler, simulated in `simulate`."""

    def now(self) -> float:
        """Seconds since an arbitrary epoch."""
        ...


class ClusterClient(Protocol):
    """Where bindings, evictions and status updates go."""

    def bind(self, pod: Pod, node_name: str) -> None:
        """Bind the pod to the node (raises on failure)."""
        ...

    def delete_pod(self, pod: Pod, reason: str = "") -> None:
        """Delete (evict) a pod."""
        ...

    def update_pod_status(
        self,
        pod: Pod,
        *,
        condition: PodCondition | None = None,
        nominated_node_name: str | None = None,
    ) -> Pod:
        """Patch the pod's PodScheduled condition and/or nominatedNodeName; return the new pod."""
        ...

    def pod_disruption_budgets(self) -> Sequence[PodDisruptionBudget]:
        """Every PodDisruptionBudget in the cluster."""
        ...

    def namespaces(self) -> Sequence[Namespace]:
        """Every Namespace in the cluster (pod affinity's namespaceSelector reads their labels)."""
        ...

    def pods(self) -> Sequence[Pod]:
        """Every pod in the cluster, pending and bound (upstream's pod lister)."""
        ...

    def services(self, namespace: str) -> Sequence[Service]:
        """Every Service in the namespace (upstream's service lister)."""
        ...

    def controller(self, kind: str, namespace: str, name: str) -> Controller | None:
        """The ReplicationController, ReplicaSet or StatefulSet (`kind`) of that name."""
        ...

    # The storage listers the volume plugins read (upstream's PV, PVC, StorageClass and
    # CSINode and VolumeAttachment informer listers).

    def persistent_volumes(self) -> Sequence[PersistentVolume]:
        """Every PersistentVolume."""
        ...

    def get_persistent_volume(self, name: str) -> PersistentVolume | None:
        """The PersistentVolume of this name, or None."""
        ...

    def get_persistent_volume_claim(
        self, namespace: str, name: str
    ) -> PersistentVolumeClaim | None:
        """The claim of this name in this namespace, or None."""
        ...

    def get_storage_class(self, name: str) -> StorageClass | None:
        """The StorageClass of this name, or None."""
        ...

    def get_csi_node(self, name: str) -> CSINode | None:
        """The CSINode of this (node) name, or None."""
        ...

    def volume_attachments(self) -> Sequence[VolumeAttachment]:
        """Every VolumeAttachment (upstream's VolumeAttachment informer lister)."""
        ...


class EventRecorder(Protocol):
    """Records Kubernetes events (Scheduled, FailedScheduling, Preempted...)."""

    def event(self, obj: Any, event_type: str, reason: str, action: str, message: str) -> None: ...


class PodNominator(Protocol):
    """Pods nominated to nodes by preemption, and not yet bound."""

    def add_nominated_pod(self, pod_info: PodInfo, node_name: str) -> None: ...

    def delete_nominated_pod_if_exists(self, pod: Pod) -> None: ...

    def nominated_pods_for_node(self, node_name: str) -> list[PodInfo]: ...


class WaitingPod(Protocol):
    """A pod held at Permit until every waiting plugin allows it."""

    @property
    def pod(self) -> Pod: ...

    def pending_plugins(self) -> list[str]: ...

    def allow(self, plugin: str) -> None: ...

    def reject(self, plugin: str, message: str) -> bool: ...


class Handle(Protocol):
    """What the framework gives a plugin at construction."""

    @property
    def profile_name(self) -> str: ...

    @property
    def client(self) -> ClusterClient: ...

    @property
    def event_recorder(self) -> EventRecorder: ...

    @property
    def nominator(self) -> PodNominator: ...

    @property
    def clock(self) -> Clock: ...

    @property
    def rng(self) -> random.Random:
        """A random source seeded from the scheduler's seed, so sampling is reproducible."""
        ...

    @property
    def feature_gates(self) -> FeatureGates:
        """The scheduler's feature gates (`--feature-gates`), read-only: `enabled(name)`."""
        ...

    def snapshot_shared_lister(self) -> SharedLister: ...

    def extenders(self) -> Sequence[Extender]:
        """The scheduler's HTTP extenders (shared by every profile), in configuration order."""
        ...

    def iterate_over_waiting_pods(self) -> Iterator[WaitingPod]: ...

    def get_waiting_pod(self, uid: str) -> WaitingPod | None: ...

    def reject_waiting_pod(self, uid: str) -> bool: ...

    def run_pre_filter_extension_add_pod(
        self, state: CycleState, pod_to_schedule: Pod, pod_info_to_add: PodInfo, node_info: NodeInfo
    ) -> Status | None: ...

    def run_pre_filter_extension_remove_pod(
        self,
        state: CycleState,
        pod_to_schedule: Pod,
        pod_info_to_remove: PodInfo,
        node_info: NodeInfo,
    ) -> Status | None: ...

    def run_filter_plugins(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Status | None:
        """Every Filter plugin in order on one node; the first non-success (with its plugin)."""
        ...

    def run_filter_plugins_with_nominated_pods(
        self, state: CycleState, pod: Pod, node_info: NodeInfo
    ) -> Status | None: ...

    def activate_pods(self, pods: Sequence[Pod]) -> None:
        """Ask the queue to move these pods to activeQ (upstream's PodsToActivate)."""
        ...


PluginFactory = Callable[[Any, Handle], object]
"""`(args, handle) -> plugin`: what an entry point in `kubesched.plugins` points at.

A factory may declare `args_type` (an attrs class) for its pluginConfig args,
and `args_kind` (e.g. "NodeResourcesFitArgs") for upstream-style config.
"""
