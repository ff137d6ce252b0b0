"""The zone and region labels of PersistentVolumes, and the claims behind a pod's volumes."""

from __future__ import annotations

from attrs import frozen

from kubesched.api import PersistentVolume, Pod

BETA_ZONE = "failure-domain.beta.kubernetes.io/zone"
BETA_REGION = "failure-domain.beta.kubernetes.io/region"
ZONE = "topology.kubernetes.io/zone"
REGION = "topology.kubernetes.io/region"
TOPOLOGY_LABELS = (BETA_ZONE, BETA_REGION, ZONE, REGION)
"""The labels compared, in upstream's order."""
_GA = {BETA_ZONE: ZONE, BETA_REGION: REGION}
MULTI_ZONE_DELIMITER = "__"
"""A volume label may name several zones: `us-west1-a__us-west1-b`."""


@frozen
class VolumeTopology:
    """One topology label of a volume and the values it allows."""

    volume: str
    key: str
    values: frozenset[str]


def ga_label(key: str) -> str:
    """The GA name of a beta zone or region label (other keys unchanged)."""
    return _GA.get(key, key)


def label_zones(value: str) -> frozenset[str] | None:
    """The zones of a `__`-separated label value; None when one of them is empty."""
    zones = [zone.strip() for zone in value.split(MULTI_ZONE_DELIMITER)]
    if any(not zone for zone in zones):
        return None
    return frozenset(zones)


def volume_topologies(pv: PersistentVolume) -> list[VolumeTopology]:
    """The volume's topology labels (a malformed value is ignored, as upstream does)."""
    found = []
    for key in TOPOLOGY_LABELS:
        value = pv.metadata.labels.get(key)
        if value is None:
            continue
        zones = label_zones(value)
        if zones is not None:
            found.append(VolumeTopology(pv.metadata.name, key, zones))
    return found


def claim_names(pod: Pod) -> list[str]:
    """The claim names of the pod's `persistentVolumeClaim` volumes, in order."""
    return [
        v.persistent_volume_claim.claim_name
        for v in pod.spec.volumes
        if v.persistent_volume_claim is not None
    ]
