"""A pod's claims sorted the way the volume binder sorts them: bound, unbound with delayed
(WaitForFirstConsumer) binding, unbound immediate; and why a pod's claims cannot be used."""

from __future__ import annotations

from attrs import define, field

from kubesched.api import (
    BINDING_WAIT_FOR_FIRST_CONSUMER,
    PersistentVolume,
    PersistentVolumeClaim,
    Pod,
    claim_class,
    ephemeral_claim_name,
    is_claim_bound,
    volume_class,
)
from kubesched.framework import ClusterClient


class ClaimError(Exception):
    """Why the pod's claims cannot be used now (PreFilter: UnschedulableAndUnresolvable)."""


@define
class PodVolumeClaims:
    """The pod's claims by state, and the volumes of each delayed claim's class."""

    bound: list[PersistentVolumeClaim] = field(factory=list)
    unbound_delayed: list[PersistentVolumeClaim] = field(factory=list)
    unbound_immediate: list[PersistentVolumeClaim] = field(factory=list)
    volumes_by_class: dict[str, list[PersistentVolume]] = field(factory=dict)


def _owned_by(pvc: PersistentVolumeClaim, pod: Pod) -> bool:
    return any(r.controller and r.uid == pod.uid for r in pvc.metadata.owner_references)


def pod_claims(client: ClusterClient, pod: Pod) -> list[PersistentVolumeClaim] | None:
    """The pod's claims (None when it has no claim-backed volume); ClaimError when one is
    missing, lost, being deleted, or an ephemeral one is not the pod's."""
    found: list[PersistentVolumeClaim] = []
    has_claims = False
    namespace = pod.metadata.namespace
    for volume in pod.spec.volumes:
        if volume.persistent_volume_claim is not None:
            name, ephemeral = volume.persistent_volume_claim.claim_name, False
        elif volume.ephemeral is not None:
            name, ephemeral = ephemeral_claim_name(pod.metadata.name, volume), True
        else:
            continue
        has_claims = True
        pvc = client.get_persistent_volume_claim(namespace, name)
        if pvc is None:
            if ephemeral:
                raise ClaimError(
                    "waiting for ephemeral volume controller to create the "
                    f'persistentvolumeclaim "{name}"'
                )
            raise ClaimError(f'persistentvolumeclaim "{name}" not found')
        if pvc.status.phase == "Lost":
            raise ClaimError(
                f'persistentvolumeclaim "{name}" bound to non-existent persistentvolume '
                f'"{pvc.spec.volume_name}"'
            )
        if pvc.metadata.deletion_timestamp is not None:
            raise ClaimError(f'persistentvolumeclaim "{name}" is being deleted')
        if ephemeral and not _owned_by(pvc, pod):
            raise ClaimError(
                f"PVC {namespace}/{name} was not created for pod {namespace}/"
                f"{pod.metadata.name} (pod is not owner)"
            )
        found.append(pvc)
    return found if has_claims else None


def _delayed(client: ClusterClient, pvc: PersistentVolumeClaim) -> bool:
    """Does the claim's class wait for the first consumer? (no class, or a missing one: no)"""
    name = claim_class(pvc)
    storage_class = client.get_storage_class(name) if name else None
    return (
        storage_class is not None
        and storage_class.volume_binding_mode == BINDING_WAIT_FOR_FIRST_CONSUMER
    )


def sort_claims(
    client: ClusterClient, claims: list[PersistentVolumeClaim], assumed: dict[str, PersistentVolume]
) -> PodVolumeClaims:
    """Sort the claims; a claim naming a volume without a completed binding is immediate.
    `assumed` holds volumes reserved by pods not bound yet (name -> the volume as assumed)."""
    sorted_claims = PodVolumeClaims()
    for pvc in claims:
        if is_claim_bound(pvc):
            sorted_claims.bound.append(pvc)
        elif _delayed(client, pvc) and not pvc.spec.volume_name:
            sorted_claims.unbound_delayed.append(pvc)
        else:
            sorted_claims.unbound_immediate.append(pvc)
    if sorted_claims.unbound_delayed:
        by_class: dict[str, list[PersistentVolume]] = {}
        for pv in client.persistent_volumes():
            pv = assumed.get(pv.metadata.name, pv)
            by_class.setdefault(volume_class(pv), []).append(pv)
        sorted_claims.volumes_by_class = by_class
    return sorted_claims
