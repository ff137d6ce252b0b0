"""What the API server would refuse in the storage objects and pod volumes the scheduler reads."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from kubesched.api._field_errors import FieldError, duplicate, invalid, not_supported, required
from kubesched.api._names import dns1123_label_errors, dns1123_subdomain_errors
from kubesched.api._quantity import format_quantity
from kubesched.api._storage import CSINode, PersistentVolume, PersistentVolumeClaim, StorageClass
from kubesched.api._volumes import (
    ACCESS_MODES,
    BINDING_MODES,
    READ_WRITE_ONCE_POD,
    STORAGE,
    VOLUME_BLOCK,
    VOLUME_FILESYSTEM,
    PersistentVolumeClaimSpec,
    Volume,
)

_VOLUME_MODES = (VOLUME_BLOCK, VOLUME_FILESYSTEM)


def _name(path: str, name: str) -> Iterator[FieldError]:
    for problem in dns1123_subdomain_errors(name):
        yield invalid(path, name, problem)


def _access_modes(path: str, modes: Sequence[str]) -> Iterator[FieldError]:
    for i, mode in enumerate(modes):
        if mode not in ACCESS_MODES:
            yield not_supported(f"{path}[{i}]", mode, ACCESS_MODES)
    if READ_WRITE_ONCE_POD in modes and len(modes) > 1:
        yield invalid(path, modes, "may not use ReadWriteOncePod with other access modes")


def _volume_mode(path: str, mode: str) -> Iterator[FieldError]:
    if mode not in _VOLUME_MODES:
        yield not_supported(path, mode, _VOLUME_MODES)


def _claim_spec(path: str, spec: PersistentVolumeClaimSpec) -> Iterator[FieldError]:
    yield from _access_modes(f"{path}.accessModes", spec.access_modes)
    yield from _volume_mode(f"{path}.volumeMode", spec.volume_mode)
    size = spec.resources.requests.get(STORAGE)
    if size is not None and size <= 0:
        where = f"{path}.resources.requests[{STORAGE}]"
        yield invalid(where, format_quantity(size), "must be greater than zero")


def pvc_errors(pvc: PersistentVolumeClaim) -> Iterator[FieldError]:
    """Why an API server would refuse this claim."""
    yield from _name("metadata.name", pvc.metadata.name)
    if pvc.metadata.namespace:
        for problem in dns1123_label_errors(pvc.metadata.namespace):
            yield invalid("metadata.namespace", pvc.metadata.namespace, problem)
    if not pvc.spec.access_modes:
        yield required("spec.accessModes", "at least 1 access mode is required")
    yield from _claim_spec("spec", pvc.spec)


def pv_errors(pv: PersistentVolume) -> Iterator[FieldError]:
    """Why an API server would refuse this volume."""
    yield from _name("metadata.name", pv.metadata.name)
    if STORAGE not in pv.spec.capacity:
        yield required("spec.capacity", f"must specify {STORAGE}")
    elif pv.spec.capacity[STORAGE] < 0:
        shown = format_quantity(pv.spec.capacity[STORAGE])
        yield invalid(f"spec.capacity[{STORAGE}]", shown, "must be greater than or equal to 0")
    if not pv.spec.access_modes:
        yield required("spec.accessModes", "must specify at least 1 access mode")
    yield from _access_modes("spec.accessModes", pv.spec.access_modes)
    yield from _volume_mode("spec.volumeMode", pv.spec.volume_mode)
    affinity = pv.spec.node_affinity
    if affinity is not None and affinity.required is not None:  # noqa: SIM102
        if not affinity.required.node_selector_terms:
            yield required(
                "spec.nodeAffinity.required.nodeSelectorTerms",
                "must have at least one node selector term",
            )


def storage_class_errors(sc: StorageClass) -> Iterator[FieldError]:
    """Why an API server would refuse this StorageClass."""
    yield from _name("metadata.name", sc.metadata.name)
    if not sc.provisioner:
        yield required("provisioner")
    if sc.volume_binding_mode not in BINDING_MODES:
        yield not_supported("volumeBindingMode", sc.volume_binding_mode, BINDING_MODES)
    for i, term in enumerate(sc.allowed_topologies):
        for j, requirement in enumerate(term.match_label_expressions):
            if not requirement.values:
                where = f"allowedTopologies[{i}].matchLabelExpressions[{j}].values"
                yield required(where, "must specify as least one value")


def csi_node_errors(csi_node: CSINode) -> Iterator[FieldError]:
    """Why an API server would refuse this CSINode."""
    yield from _name("metadata.name", csi_node.metadata.name)
    seen: set[str] = set()
    for i, driver in enumerate(csi_node.spec.drivers):
        if driver.name in seen:
            yield duplicate(f"spec.drivers[{i}].name", driver.name)
        seen.add(driver.name)
        count = driver.allocatable.count if driver.allocatable else None
        if count is not None and count < 0:
            yield invalid(
                f"spec.drivers[{i}].allocatable.count", count, "must be greater than or equal to 0"
            )


def volume_errors(volumes: Sequence[Volume]) -> Iterator[FieldError]:
    """Why an API server would refuse a pod's `spec.volumes`."""
    names: set[str] = set()
    for i, volume in enumerate(volumes):
        where = f"spec.volumes[{i}]"
        if not volume.name:
            yield required(f"{where}.name")
        elif volume.name in names:
            yield duplicate(f"{where}.name", volume.name)
        names.add(volume.name)
        claim = volume.persistent_volume_claim
        if claim is not None and not claim.claim_name:
            yield required(f"{where}.persistentVolumeClaim.claimName")
        if volume.ephemeral is not None:
            template = volume.ephemeral.volume_claim_template
            if template is None:
                yield required(f"{where}.ephemeral.volumeClaimTemplate")
            else:
                yield from _claim_spec(f"{where}.ephemeral.volumeClaimTemplate.spec", template.spec)
