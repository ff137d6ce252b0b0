"""The VolumeBinding plugin: a pod's PersistentVolumeClaims must be bound, or bindable on the
node — to a matching static volume, or by provisioning one — and PreBind makes it so."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from attrs import define, evolve, field

from kubesched import hookimpl
from kubesched.api import (
    ANN_SELECTED_NODE,
    ObjectReference,
    PersistentVolume,
    PersistentVolumeClaim,
    Pod,
    is_claim_bound,
)
from kubesched.framework import (
    ActionType,
    ClusterClient,
    ClusterEvent,
    ClusterEventWithHint,
    Code,
    CycleState,
    EventResource,
    Handle,
    NodeInfo,
    PreFilterResult,
    StateNotFoundError,
    Status,
)
from kubesched_volumebinding.args import VolumeBindingArgs
from kubesched_volumebinding.binder import BinderError, PodVolumes, find_pod_volumes
from kubesched_volumebinding.claims import ClaimError, PodVolumeClaims, pod_claims, sort_claims
from kubesched_volumebinding.matching import local_volume_nodes

NAME = "VolumeBinding"
STATE_KEY = NAME
REASON_UNBOUND_IMMEDIATE = "pod has unbound immediate PersistentVolumeClaims"


@runtime_checkable
class VolumeWriter(Protocol):
    """A cluster client that can write volume bindings (the in-memory cluster can)."""

    def update_persistent_volume(self, pv: PersistentVolume) -> PersistentVolume: ...

    def update_persistent_volume_claim(
        self, pvc: PersistentVolumeClaim
    ) -> PersistentVolumeClaim: ...


@define
class _State:
    """The pod's claims, and per node what binding them there takes."""

    claims: PodVolumeClaims
    all_claims: list[PersistentVolumeClaim]
    by_node: dict[str, PodVolumes] = field(factory=dict)
    all_bound: bool = False

    def clone(self) -> _State:
        return self


class VolumeBinding:
    """Upstream's VolumeBinding, without storage-capacity scoring (its gate is off)."""

    name = NAME
    args_type = VolumeBindingArgs
    args_kind = "VolumeBindingArgs"

    def __init__(self, args: VolumeBindingArgs | None = None, handle: Handle | None = None) -> None:
        self.args = args if args is not None else VolumeBindingArgs()
        self._handle = handle
        self._assumed: dict[str, PersistentVolume] = {}
        """Volumes chosen at Reserve and not written yet: name -> volume with its claimRef."""

    @property
    def _client(self) -> ClusterClient:
        assert self._handle is not None, "VolumeBinding needs a handle"
        return self._handle.client

    @hookimpl
    def pre_filter(self, state: CycleState, pod: Pod) -> Status | PreFilterResult | None:
        """Sort the pod's claims; reject unbound immediate ones; narrow to the nodes its bound
        local volumes name. Skip pods without claims."""
        try:
            claims = pod_claims(self._client, pod)
        except ClaimError as err:
            return Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, str(err))
        if claims is None:
            return Status(Code.SKIP)
        sorted_claims = sort_claims(self._client, claims, self._assumed)
        if sorted_claims.unbound_immediate:
            return Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, REASON_UNBOUND_IMMEDIATE)
        state.write(STATE_KEY, _State(sorted_claims, claims))
        eligible: set[str] | None = None
        for pvc in sorted_claims.bound:
            pv = self._client.get_persistent_volume(pvc.spec.volume_name)
            names = local_volume_nodes(pv) if pv is not None else set()
            if names:
                eligible = names if eligible is None else eligible & names
        return PreFilterResult(frozenset(eligible)) if eligible is not None else None

    @hookimpl
    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Status | None:
        if node_info.node is None:
            return Status.error("node not found")
        try:
            data = state.read_as(STATE_KEY, _State)
        except StateNotFoundError as err:
            return Status.error(err)
        try:
            volumes, reasons = find_pod_volumes(self._client, data.claims, node_info.node)
        except BinderError as err:
            return Status.error(str(err))
        if reasons:
            return Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, *reasons)
        data.by_node[node_info.name] = volumes
        return None

    @hookimpl
    def pre_score(self) -> Status:
        """Skip: scoring by storage capacity is behind upstream's StorageCapacityScoring
        gate, off by default (upstream's PreScore skips the same way without a scorer)."""
        return Status(Code.SKIP)

    @hookimpl
    def score(self) -> int:
        """Never called (PreScore skips); 0, as upstream's Score without a scorer."""
        return 0

    @hookimpl
    def reserve(self, state: CycleState, pod: Pod, node_name: str) -> Status | None:
        """Hold the chosen static volumes for this pod until PreBind writes them."""
        try:
            data = state.read_as(STATE_KEY, _State)
        except StateNotFoundError:
            return None  # PreFilter skipped the pod: no claims
        volumes = data.by_node.get(node_name, PodVolumes())
        for pvc, pv in volumes.static_bindings:
            self._assumed[pv.metadata.name] = evolve(
                pv, spec=evolve(pv.spec, claim_ref=_reference(pvc))
            )
        data.all_bound = not volumes.static_bindings and not volumes.dynamic_provisions
        return None

    @hookimpl
    def unreserve(self, state: CycleState, pod: Pod, node_name: str) -> None:
        try:
            data = state.read_as(STATE_KEY, _State)
        except StateNotFoundError:
            return
        for _, pv in data.by_node.get(node_name, PodVolumes()).static_bindings:
            self._assumed.pop(pv.metadata.name, None)

    @hookimpl
    def pre_bind(self, state: CycleState, pod: Pod, node_name: str) -> Status | None:
        """Write the bindings (a static volume's claimRef, a provisioned claim's selected
        node) and check that every claim of the pod is bound."""
        try:
            data = state.read_as(STATE_KEY, _State)
        except StateNotFoundError:
            return None
        if data.all_bound:
            return None
        volumes = data.by_node.get(node_name, PodVolumes())
        try:
            return self._bind(data, volumes, node_name)
        finally:
            for _, pv in volumes.static_bindings:
                self._assumed.pop(pv.metadata.name, None)

    def _bind(self, data: _State, volumes: PodVolumes, node_name: str) -> Status | None:
        client = self._client
        if not isinstance(client, VolumeWriter):
            return Status.error("binding volumes: this cluster backend cannot write bindings")
        for pvc, pv in volumes.static_bindings:
            live = client.get_persistent_volume(pv.metadata.name)
            if live is None:
                return Status.error(
                    f'binding volumes: persistentvolume "{pv.metadata.name}" not found'
                )
            client.update_persistent_volume(
                evolve(live, spec=evolve(live.spec, claim_ref=_reference(pvc)))
            )
        for pvc in volumes.dynamic_provisions:
            live_claim = client.get_persistent_volume_claim(
                pvc.metadata.namespace, pvc.metadata.name
            )
            if live_claim is None:
                return Status.error(
                    f'binding volumes: persistentvolumeclaim "{pvc.metadata.name}" not found'
                )
            annotations = {**live_claim.metadata.annotations, ANN_SELECTED_NODE: node_name}
            client.update_persistent_volume_claim(
                evolve(live_claim, metadata=evolve(live_claim.metadata, annotations=annotations))
            )
        for pvc in data.all_claims:
            live_claim = client.get_persistent_volume_claim(
                pvc.metadata.namespace, pvc.metadata.name
            )
            if live_claim is None or not is_claim_bound(live_claim):
                return Status.error(
                    f"binding volumes: claim {pvc.key} is not bound "
                    f"within {self.args.bind_timeout_seconds}s"
                )
        return None

    @hookimpl
    def events_to_register(self) -> Sequence[ClusterEventWithHint]:
        """New or changed classes, claims, volumes, nodes and CSINodes (no hints: any of
        them may make the claims bindable)."""
        add_update = ActionType.ADD | ActionType.UPDATE
        return tuple(
            ClusterEventWithHint(ClusterEvent(resource, action))
            for resource, action in (
                (EventResource.STORAGE_CLASS, add_update),
                (EventResource.PERSISTENT_VOLUME_CLAIM, add_update),
                (EventResource.PERSISTENT_VOLUME, add_update),
                (EventResource.NODE, ActionType.ADD | ActionType.UPDATE_NODE_LABEL),
                (EventResource.CSI_NODE, add_update),
            )
        )


def _reference(pvc: PersistentVolumeClaim) -> ObjectReference:
    return ObjectReference(
        kind="PersistentVolumeClaim",
        namespace=pvc.metadata.namespace,
        name=pvc.metadata.name,
        uid=pvc.metadata.uid,
        api_version="v1",
    )
