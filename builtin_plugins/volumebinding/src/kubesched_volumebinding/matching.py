"""Which PersistentVolume a claim can bind to on a node (upstream's FindMatchingVolume and
CheckNodeAffinity), and which nodes a local volume pins a pod to."""

from __future__ import annotations

from collections.abc import Iterable

from kubesched.api import (
    PHASE_AVAILABLE,
    STORAGE,
    Node,
    PersistentVolume,
    PersistentVolumeClaim,
    as_selector,
    claim_class,
    node_selector_matches,
    volume_class,
)

HOSTNAME = "kubernetes.io/hostname"


def node_affinity_fits(pv: PersistentVolume, node: Node) -> bool:
    """Can the node reach the volume? (its required node affinity; none: every node)"""
    affinity = pv.spec.node_affinity
    if affinity is None or affinity.required is None:
        return True
    return node_selector_matches(affinity.required, node)


def local_volume_nodes(pv: PersistentVolume) -> set[str]:
    """The nodes a local volume names by `kubernetes.io/hostname In [...]` (empty: none)."""
    affinity = pv.spec.node_affinity
    if affinity is None or affinity.required is None:
        return set()
    found: set[str] = set()
    for term in affinity.required.node_selector_terms:
        names: set[str] | None = None
        for req in term.match_expressions:
            if req.key == HOSTNAME and req.operator == "In":
                names = set(req.values) if names is None else names & set(req.values)
        found |= names or set()
    return found


def is_volume_bound_to_claim(pv: PersistentVolume, pvc: PersistentVolumeClaim) -> bool:
    ref = pv.spec.claim_ref
    return (
        ref is not None
        and ref.name == pvc.metadata.name
        and ref.namespace == pvc.metadata.namespace
        and (not ref.uid or ref.uid == pvc.metadata.uid)
    )


def _access_modes_fit(pvc: PersistentVolumeClaim, pv: PersistentVolume) -> bool:
    return all(mode in pv.spec.access_modes for mode in pvc.spec.access_modes)


def find_matching_volume(
    pvc: PersistentVolumeClaim,
    volumes: Iterable[PersistentVolume],
    node: Node,
    excluded: set[str],
) -> PersistentVolume | None:
    """The volume the claim binds to on this node: one already reserved for it (if the node
    reaches it), else the smallest Available volume of its class that is big enough, has
    the access modes and volume mode asked for, matches the selector and reaches the node."""
    requested = pvc.spec.resources.requests.get(STORAGE, 0)
    selector = as_selector(pvc.spec.selector) if pvc.spec.selector is not None else None
    wanted_class = claim_class(pvc)
    smallest: PersistentVolume | None = None
    for pv in volumes:
        if pv.metadata.name in excluded:
            continue
        if pv.spec.claim_ref is not None and not is_volume_bound_to_claim(pv, pvc):
            continue
        size = pv.spec.capacity.get(STORAGE, 0)
        if size < requested or pv.spec.volume_mode != pvc.spec.volume_mode:
            continue
        if pv.metadata.deletion_timestamp is not None:
            continue
        reachable = node_affinity_fits(pv, node)
        if is_volume_bound_to_claim(pv, pvc):
            return pv if reachable else None
        if pv.status.phase != PHASE_AVAILABLE:
            continue
        if selector is not None and not selector.matches(pv.metadata.labels):
            continue
        if volume_class(pv) != wanted_class or not reachable:
            continue
        if not _access_modes_fit(pvc, pv):
            continue
        if smallest is None or smallest.spec.capacity.get(STORAGE, 0) > size:
            smallest = pv
    return smallest
