"""The cluster behind an API server, as the scheduler's `ClusterSource`.

`ApiServerCluster` lists and watches every kind of `KINDS` (one reflector
each, on the API-server thread), answers the scheduler's listings from what
the watches saw, hands over their changes between cycles, and writes
bindings, status patches and deletions back (`PodWriter`). A binding shows in
the listings only once the watch delivers it, as upstream's informers do;
until then the scheduler holds the pod as assumed, and `get_pod` already shows
the pod on the node the API server accepted (the scheduler reads its own
writes, as the ClusterSource protocol says).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from attrs import evolve

from kubesched.api import (
    Controller,
    CSINode,
    DeviceClass,
    Namespace,
    Node,
    PersistentVolume,
    PersistentVolumeClaim,
    Pod,
    PodCondition,
    PodDisruptionBudget,
    PriorityClass,
    ResourceClaim,
    ResourceSlice,
    Service,
    StorageClass,
    VolumeAttachment,
)
from kubesched.cluster.apiserver.claims import ClaimWriter
from kubesched.cluster.apiserver.kinds import (
    CSI_NODES,
    DEVICE_CLASSES,
    KINDS,
    NAMESPACES,
    NODES,
    PDBS,
    PERSISTENT_VOLUME_CLAIMS,
    PERSISTENT_VOLUMES,
    PODS,
    PRIORITY_CLASSES,
    RESOURCE_CLAIMS,
    RESOURCE_SLICES,
    SERVICES,
    STORAGE_CLASSES,
    VOLUME_ATTACHMENTS,
    WORKLOADS,
    Kind,
)
from kubesched.cluster.apiserver.reflector import Backoff, Reflector
from kubesched.cluster.apiserver.session import ApiSession
from kubesched.cluster.apiserver.store import Change, Stores
from kubesched.cluster.apiserver.writer import PodWriter


class ApiServerCluster:
    """Nodes, pods, PodDisruptionBudgets, PriorityClasses... as the API server has them."""

    def __init__(
        self,
        session: ApiSession,
        kinds: Iterable[Kind] = KINDS,
        *,
        backoff: Backoff | None = None,
        watch_timeout: float | None = None,
        asynchronous_status: bool = False,
    ) -> None:
        self.session = session
        self.kinds = tuple(kinds)
        self.stores = Stores(self.kinds)
        self.reflectors = {
            kind.name: Reflector(
                session,
                kind,
                self.stores,
                backoff=backoff,
                **({} if watch_timeout is None else {"watch_timeout": watch_timeout}),
            )
            for kind in self.kinds
        }
        self.writer = PodWriter(session, self.stores, asynchronous_status=asynchronous_status)
        self.claim_writer = ClaimWriter(session)
        self._bound: dict[str, str] = {}
        """Pod uid -> the node a binding this scheduler wrote put it on, until watched."""
        self._tasks: list[Any] = []
        self._woken = False

    # -- watching --------------------------------------------------------------------

    def start(self) -> None:
        """Start every reflector on the API-server thread."""

        async def spawn() -> list[asyncio.Task[None]]:
            return [asyncio.create_task(r.run()) for r in self.reflectors.values()]

        self._tasks = self.session.call(spawn())

    def synced(self) -> bool:
        """Has every kind been listed once?"""
        return all(r.synced.is_set() for r in self.reflectors.values())

    def wait_synced(self, timeout: float) -> bool:
        """Wait (up to `timeout` per kind) until every kind has been listed once."""
        return all(r.synced.wait(timeout) for r in self.reflectors.values())

    def wait_for_changes(self, timeout: float) -> bool:
        """Block until a change arrives, `wake` is called or `timeout` seconds pass."""
        return self._woken or self.stores.changed.wait(timeout)

    def notify(self) -> None:
        """Wake whoever waits for changes once (a bind in flight has finished)."""
        self.stores.changed.set()

    def wake(self) -> None:
        """Wake whoever waits for changes, now and from now on (to stop)."""
        self._woken = True
        self.stores.changed.set()

    @contextmanager
    def consistent(self) -> Iterator[None]:
        """Listings and `take_changes` inside agree: nothing listed is handed over again."""
        with self.stores.consistent():
            yield

    # -- the ClusterSource -----------------------------------------------------------

    def nodes(self) -> Sequence[Node]:
        return self.stores.objects(NODES)

    def pods(self) -> Sequence[Pod]:
        return self.stores.objects(PODS)

    def get_pod(self, uid: str) -> Pod | None:
        pod = self.stores.get_pod(uid)
        node = self._bound.get(uid)
        if node is None:
            return pod
        if pod is None or pod.spec.node_name:  # gone, or the watch has caught up
            del self._bound[uid]
            return pod
        return evolve(pod, spec=evolve(pod.spec, node_name=node))

    def pod_disruption_budgets(self) -> Sequence[PodDisruptionBudget]:
        return self.stores.objects(PDBS) if PDBS in self.kinds else []

    def namespaces(self) -> Sequence[Namespace]:
        return self.stores.objects(NAMESPACES) if NAMESPACES in self.kinds else []

    def priority_classes(self) -> Sequence[PriorityClass]:
        return self.stores.objects(PRIORITY_CLASSES) if PRIORITY_CLASSES in self.kinds else []

    def persistent_volumes(self) -> Sequence[PersistentVolume]:
        return self.stores.objects(PERSISTENT_VOLUMES) if PERSISTENT_VOLUMES in self.kinds else []

    def get_persistent_volume(self, name: str) -> PersistentVolume | None:
        found: PersistentVolume | None = self.stores.get(PERSISTENT_VOLUMES, name)
        return found

    def get_persistent_volume_claim(
        self, namespace: str, name: str
    ) -> PersistentVolumeClaim | None:
        found: PersistentVolumeClaim | None = self.stores.get(
            PERSISTENT_VOLUME_CLAIMS, f"{namespace}/{name}"
        )
        return found

    def get_storage_class(self, name: str) -> StorageClass | None:
        found: StorageClass | None = self.stores.get(STORAGE_CLASSES, name)
        return found

    def get_csi_node(self, name: str) -> CSINode | None:
        found: CSINode | None = self.stores.get(CSI_NODES, name)
        return found

    def volume_attachments(self) -> Sequence[VolumeAttachment]:
        if VOLUME_ATTACHMENTS not in self.kinds:
            return []
        return self.stores.objects(VOLUME_ATTACHMENTS)

    def services(self, namespace: str) -> Sequence[Service]:
        if SERVICES not in self.kinds:
            return []
        return [s for s in self.stores.objects(SERVICES) if s.metadata.namespace == namespace]

    def controller(self, kind: str, namespace: str, name: str) -> Controller | None:
        followed = next((k for k in WORKLOADS if k.name == kind and k in self.kinds), None)
        if followed is None:
            return None
        found: Controller | None = self.stores.get(followed, f"{namespace}/{name}")
        return found

    # -- resource.k8s.io (DynamicResources' ResourceReader) ----------------------------

    def device_classes(self) -> Sequence[DeviceClass]:
        return self.stores.objects(DEVICE_CLASSES) if DEVICE_CLASSES in self.kinds else []

    def get_device_class(self, name: str) -> DeviceClass | None:
        found: DeviceClass | None = self.stores.get(DEVICE_CLASSES, name)
        return found

    def resource_slices(self) -> Sequence[ResourceSlice]:
        return self.stores.objects(RESOURCE_SLICES) if RESOURCE_SLICES in self.kinds else []

    def get_resource_claim(self, namespace: str, name: str) -> ResourceClaim | None:
        key = f"{namespace}/{name}"
        return self.claim_writer.current(key, self.stores.get_versioned(RESOURCE_CLAIMS, key))

    def resource_claims(self) -> Sequence[ResourceClaim]:
        if RESOURCE_CLAIMS not in self.kinds:
            return []
        watched = self.stores.objects_versioned(RESOURCE_CLAIMS)
        if not self.claim_writer.pending():
            return [claim for _, claim in watched.values()]
        found = (self.claim_writer.current(key, seen) for key, seen in watched.items())
        return [claim for claim in found if claim is not None]

    def update_resource_claim_status(self, claim: ResourceClaim) -> ResourceClaim:
        """Write the claim's allocation and reservations (and the finalizer that goes with
        an allocation) through the API server; the claim as written."""
        base = self.get_resource_claim(claim.metadata.namespace, claim.metadata.name)
        return self.claim_writer.write(base, claim)

    def objects(self, kind: Kind) -> list[Any]:
        """Every object of a followed kind."""
        return self.stores.objects(kind)

    def take_changes(self) -> Sequence[Change]:
        return self.stores.take_changes()

    def bind(self, pod: Pod, node_name: str) -> None:
        self.writer.bind(pod, node_name)
        self._bound[pod.uid] = node_name

    def delete_pod(self, pod: Pod, reason: str = "") -> None:
        self.writer.delete_pod(pod, reason)

    def update_pod_status(
        self,
        pod: Pod,
        *,
        condition: PodCondition | None = None,
        nominated_node_name: str | None = None,
    ) -> Pod:
        return self.writer.update_pod_status(
            pod, condition=condition, nominated_node_name=nominated_node_name
        )
