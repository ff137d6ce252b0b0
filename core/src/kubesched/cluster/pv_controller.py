"""What the PersistentVolume controller and a provisioner do, for the in-memory cluster.

A live cluster completes bindings on its own: the PV controller marks a claim bound to
the volume its `volumeName` (or the volume's `claimRef`) names, and an external
provisioner creates a volume for a claim the scheduler annotated with the selected node.
`simulate` has no controllers, so the in-memory cluster applies these steps itself, at
load and when VolumeBinding writes its decisions (PreBind), and the scheduler sees the
result as a watch would deliver it.
"""

from __future__ import annotations

from attrs import evolve

from kubesched.api import (
    ANN_BIND_COMPLETED,
    PHASE_AVAILABLE,
    PHASE_BOUND,
    NodeSelector,
    NodeSelectorRequirement,
    NodeSelectorTerm,
    ObjectMeta,
    ObjectReference,
    PersistentVolume,
    PersistentVolumeClaim,
    PersistentVolumeSpec,
    StorageClass,
    VolumeNodeAffinity,
    claim_class,
    default_uid,
    is_claim_bound,
)

ANN_BOUND_BY_CONTROLLER = "pv.kubernetes.io/bound-by-controller"
is_bound = is_claim_bound


def volume_phase(pv: PersistentVolume) -> PersistentVolume:
    """A volume without a phase gets the one the controller would give it."""
    if pv.status.phase:
        return pv
    phase = PHASE_BOUND if pv.spec.claim_ref is not None else PHASE_AVAILABLE
    return evolve(pv, status=evolve(pv.status, phase=phase))


def claims_volume(pv: PersistentVolume, pvc: PersistentVolumeClaim) -> bool:
    """Is the volume free for this claim, or already reserved for it?"""
    ref = pv.spec.claim_ref
    if ref is None:
        return True
    return (
        ref.namespace == pvc.metadata.namespace
        and ref.name == pvc.metadata.name
        and (not ref.uid or ref.uid == pvc.metadata.uid)
    )


def bind_pair(
    pv: PersistentVolume, pvc: PersistentVolumeClaim
) -> tuple[PersistentVolume, PersistentVolumeClaim]:
    """The volume and the claim once the controller has bound them to each other."""
    ref = ObjectReference(
        kind="PersistentVolumeClaim",
        namespace=pvc.metadata.namespace,
        name=pvc.metadata.name,
        uid=pvc.metadata.uid,
        api_version="v1",
    )
    bound_pv = evolve(
        pv, spec=evolve(pv.spec, claim_ref=ref), status=evolve(pv.status, phase=PHASE_BOUND)
    )
    annotations = {**pvc.metadata.annotations, ANN_BIND_COMPLETED: "yes"}
    if not pvc.spec.volume_name:
        annotations[ANN_BOUND_BY_CONTROLLER] = "yes"
    bound_pvc = evolve(
        pvc,
        metadata=evolve(pvc.metadata, annotations=annotations),
        spec=evolve(pvc.spec, volume_name=pv.metadata.name),
        status=evolve(
            pvc.status,
            phase=PHASE_BOUND,
            access_modes=list(pv.spec.access_modes),
            capacity=dict(pv.spec.capacity),
        ),
    )
    return bound_pv, bound_pvc


def provisioned_volume(
    pvc: PersistentVolumeClaim, storage_class: StorageClass, node_labels: dict[str, str]
) -> PersistentVolume:
    """The volume a provisioner creates for the claim on the selected node.

    It is named `pvc-<claim uid>`, has the requested size, modes and class, and is
    reachable from the nodes sharing the selected node's values of the topology keys
    the class's `allowedTopologies` name.
    """
    meta = pvc.metadata
    uid = meta.uid or default_uid("PersistentVolumeClaim", meta.namespace, meta.name)
    keys = sorted(
        {r.key for term in storage_class.allowed_topologies for r in term.match_label_expressions}
    )
    requirements = [
        NodeSelectorRequirement(key, "In", [node_labels[key]]) for key in keys if key in node_labels
    ]
    affinity = (
        VolumeNodeAffinity(NodeSelector([NodeSelectorTerm(match_expressions=requirements)]))
        if requirements
        else None
    )
    return PersistentVolume(
        ObjectMeta(
            name=f"pvc-{uid}",
            annotations={"pv.kubernetes.io/provisioned-by": storage_class.provisioner},
        ),
        PersistentVolumeSpec(
            capacity=dict(pvc.spec.resources.requests),
            access_modes=list(pvc.spec.access_modes),
            persistent_volume_reclaim_policy=storage_class.reclaim_policy,
            storage_class_name=claim_class(pvc),
            node_affinity=affinity,
            volume_mode=pvc.spec.volume_mode,
        ),
    )
