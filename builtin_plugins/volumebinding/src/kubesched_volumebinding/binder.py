"""Where a pod's claims can be satisfied (upstream's FindPodVolumes): the bound volumes'
node affinity, a static volume for each delayed claim, else a volume to provision."""

from __future__ import annotations

from attrs import define, field

from kubesched.api import (
    ANN_SELECTED_NODE,
    NO_PROVISIONER,
    STORAGE,
    Node,
    PersistentVolume,
    PersistentVolumeClaim,
    claim_class,
)
from kubesched.framework import ClusterClient
from kubesched_volumebinding.claims import PodVolumeClaims
from kubesched_volumebinding.matching import find_matching_volume, node_affinity_fits

REASON_BIND_CONFLICT = "node(s) didn't find available persistent volumes to bind"
REASON_NODE_CONFLICT = "node(s) didn't match PersistentVolume's node affinity"
"""Upstream's ErrReasonNodeConflict since v1.33 (before: `node(s) had volume node affinity
conflict`)."""
REASON_NOT_ENOUGH_SPACE = "node(s) did not have enough free storage"
REASON_PV_NOT_EXIST = "node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)"


@define
class PodVolumes:
    """What binding the pod's claims on a node takes: static bindings and provisionings."""

    static_bindings: list[tuple[PersistentVolumeClaim, PersistentVolume]] = field(factory=list)
    dynamic_provisions: list[PersistentVolumeClaim] = field(factory=list)


class BinderError(Exception):
    """A lookup the binder needs failed (Filter: Error)."""


def _node_matches_topologies(client: ClusterClient, pvc: PersistentVolumeClaim, node: Node) -> bool:
    """Can the claim's class provision a volume reachable from this node?"""
    class_name = claim_class(pvc)
    storage_class = client.get_storage_class(class_name)
    if storage_class is None:
        raise BinderError(f'failed to find storage class "{class_name}"')
    if storage_class.provisioner in ("", NO_PROVISIONER):
        return False
    terms = storage_class.allowed_topologies
    if not terms:
        return True
    labels = node.metadata.labels
    return any(
        all(labels.get(r.key) in r.values for r in term.match_label_expressions) for term in terms
    )


def find_pod_volumes(
    client: ClusterClient, claims: PodVolumeClaims, node: Node
) -> tuple[PodVolumes, list[str]]:
    """The bindings the pod's claims need on this node, and the reasons it does not fit
    (BinderError when a StorageClass to provision from is missing)."""
    volumes = PodVolumes()
    bound_ok = bound_found = unbound_ok = True
    for pvc in claims.bound:
        pv = client.get_persistent_volume(pvc.spec.volume_name)
        if pv is None:
            bound_found = False
            break
        if not node_affinity_fits(pv, node):
            bound_ok = False
            break
    if claims.unbound_delayed:
        to_match, to_provision = [], []
        for pvc in claims.unbound_delayed:
            selected = pvc.metadata.annotations.get(ANN_SELECTED_NODE)
            if selected is None:
                to_match.append(pvc)
            elif selected != node.metadata.name:
                unbound_ok = False
                break
            else:
                to_provision.append(pvc)
        if unbound_ok:
            chosen: set[str] = set()
            for pvc in sorted(to_match, key=lambda c: c.spec.resources.requests.get(STORAGE, 0)):
                candidates = claims.volumes_by_class.get(claim_class(pvc), [])
                pv = find_matching_volume(pvc, candidates, node, chosen)
                if pv is None:
                    to_provision.append(pvc)
                else:
                    chosen.add(pv.metadata.name)
                    volumes.static_bindings.append((pvc, pv))
            for pvc in to_provision:
                if not _node_matches_topologies(client, pvc, node):
                    unbound_ok = False
                    break
                volumes.dynamic_provisions.append(pvc)
    reasons = []
    if not bound_ok:
        reasons.append(REASON_NODE_CONFLICT)
    if not unbound_ok:
        reasons.append(REASON_BIND_CONFLICT)
    if not bound_found:
        reasons.append(REASON_PV_NOT_EXIST)
    return volumes, reasons
