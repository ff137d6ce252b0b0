"""The dynamic-resource half of the in-memory cluster: DeviceClasses, ResourceClaims,
ResourceClaimTemplates and ResourceSlices, and the resource-claim controller.

As upstream's resource-claim controller does, the cluster stamps a claim out of
a pod's template when the pod is created (named `<pod>-<claim>-<5 characters>`,
owned by the pod, recorded in the pod's `status.resourceClaimStatuses`), and
when a pod goes away it drops the pod from its claims' `reservedFor`: a claim
generated for the pod is then deleted, any other claim reserved for no one is
deallocated. The scheduler writes allocations and reservations through
`update_resource_claim_status`. Every change is recorded as an (old, new) pair
through the cluster's `_emit`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from typing import Any

from attrs import evolve

from kubesched.api import (
    DeviceClass,
    ObjectMeta,
    OwnerReference,
    Pod,
    PodResourceClaimStatus,
    ResourceClaim,
    ResourceClaimStatus,
    ResourceClaimTemplate,
    ResourceSlice,
    default_resource_claim_spec,
    default_uid,
)
from kubesched.errors import KubeschedError

ResourceObject = DeviceClass | ResourceClaim | ResourceClaimTemplate | ResourceSlice
"""The `resource.k8s.io/v1` kinds the cluster holds."""
POD_CLAIM_NAME_ANNOTATION = "resource.kubernetes.io/pod-claim-name"
"""On a generated claim: the name of the pod's `spec.resourceClaims` entry it serves."""
_MAX_BASE_LENGTH = 57
"""A generated claim's name before its random suffix is cut to this length, as upstream."""
_SUFFIX_ALPHABET = "bcdfghjklmnpqrstvwxz2456789"
"""The characters the API server's generateName suffixes are drawn from."""


class ResourceError(KubeschedError):
    """A resource write the API server would refuse (unknown or duplicate object)."""


def generated_claim_name(pod: Pod, claim_name: str) -> str:
    """The name of the claim made for the pod's template entry: upstream's generateName
    (`<pod>-<claim>-`, cut to 57 characters) plus five characters chosen from the pod's
    uid, so a run is the same every time."""
    base = f"{pod.metadata.name}-{claim_name}"[:_MAX_BASE_LENGTH] + "-"
    digest = hashlib.sha256(f"{pod.uid}/{claim_name}".encode()).digest()
    suffix = "".join(_SUFFIX_ALPHABET[b % len(_SUFFIX_ALPHABET)] for b in digest[:5])
    return base + suffix


class InMemoryResources:
    """DeviceClasses, ResourceClaims, templates and ResourceSlices held in memory (a mixin
    of the cluster)."""

    _device_classes: dict[str, DeviceClass]
    _claims: dict[tuple[str, str], ResourceClaim]
    _claim_templates: dict[tuple[str, str], ResourceClaimTemplate]
    _slices: dict[str, ResourceSlice]

    def _emit(self, old: Any, new: Any) -> None:
        raise NotImplementedError

    def _init_resources(self, objects: Iterable[ResourceObject]) -> None:
        self._device_classes = {}
        self._claims = {}
        self._claim_templates = {}
        self._slices = {}
        for obj in objects:
            self.add_resource_object(obj)

    # -- listers -------------------------------------------------------------------------

    def device_classes(self) -> Sequence[DeviceClass]:
        return list(self._device_classes.values())

    def get_device_class(self, name: str) -> DeviceClass | None:
        return self._device_classes.get(name)

    def resource_claims(self) -> Sequence[ResourceClaim]:
        return list(self._claims.values())

    def get_resource_claim(self, namespace: str, name: str) -> ResourceClaim | None:
        return self._claims.get((namespace, name))

    def resource_claim_templates(self) -> Sequence[ResourceClaimTemplate]:
        return list(self._claim_templates.values())

    def resource_slices(self) -> Sequence[ResourceSlice]:
        return list(self._slices.values())

    # -- writes --------------------------------------------------------------------------

    def add_resource_object(self, obj: ResourceObject) -> None:
        """Create a DeviceClass, ResourceClaim, ResourceClaimTemplate or ResourceSlice."""
        meta = obj.metadata
        store, key = self._store_of(obj)
        if key in store:
            raise ResourceError(f'{type(obj).__name__.lower()}s "{meta.name}" already exists')
        store[key] = obj
        self._emit(None, obj)

    def _store_of(self, obj: ResourceObject) -> tuple[dict[Any, Any], Any]:
        """Where objects of this kind are kept, and this one's key there."""
        meta = obj.metadata
        if isinstance(obj, DeviceClass):
            return self._device_classes, meta.name
        if isinstance(obj, ResourceClaim):
            return self._claims, (meta.namespace, meta.name)
        if isinstance(obj, ResourceClaimTemplate):
            return self._claim_templates, (meta.namespace, meta.name)
        return self._slices, meta.name

    def update_resource_slice(self, resource_slice: ResourceSlice) -> None:
        old = self._slices.get(resource_slice.metadata.name)
        if old is None:
            raise ResourceError(f'resourceslices "{resource_slice.metadata.name}" not found')
        self._slices[resource_slice.metadata.name] = resource_slice
        self._emit(old, resource_slice)

    def update_resource_claim_status(self, claim: ResourceClaim) -> ResourceClaim:
        """Replace a claim's status (and finalizers), as the status subresource does."""
        key = (claim.metadata.namespace, claim.metadata.name)
        old = self._claims.get(key)
        if old is None:
            raise ResourceError(f'resourceclaims "{claim.metadata.name}" not found')
        if claim.metadata.uid and claim.metadata.uid != old.metadata.uid:
            raise ResourceError(
                f'Operation cannot be fulfilled on resourceclaims "{claim.metadata.name}": '
                "the object has been modified; please apply your changes to the latest version "
                "and try again"
            )
        new = evolve(old, metadata=claim.metadata, status=claim.status)
        self._claims[key] = new
        self._emit(old, new)
        return new

    def delete_resource_claim(self, namespace: str, name: str) -> None:
        old = self._claims.pop((namespace, name), None)
        if old is None:
            raise ResourceError(f'resourceclaims "{name}" not found')
        self._emit(old, None)

    # -- the resource-claim controller ---------------------------------------------------

    def _claims_for_new_pod(self, pod: Pod) -> Pod:
        """Make the claims of the pod's template entries that have none yet; the pod with
        them recorded in its status. A missing template makes nothing (the scheduler then
        waits: "ResourceClaim not created yet")."""
        recorded = {s.name for s in pod.status.resource_claim_statuses}
        statuses = list(pod.status.resource_claim_statuses)
        for entry in pod.spec.resource_claims:
            template_name = entry.resource_claim_template_name
            if template_name is None or entry.name in recorded:
                continue
            template = self._claim_templates.get((pod.metadata.namespace, template_name))
            if template is None:
                continue
            name = generated_claim_name(pod, entry.name)
            annotations = {**template.spec.metadata.annotations}
            annotations[POD_CLAIM_NAME_ANNOTATION] = entry.name
            owner = OwnerReference(
                api_version="v1", kind="Pod", name=pod.metadata.name, uid=pod.uid, controller=True
            )
            claim = ResourceClaim(
                metadata=ObjectMeta(
                    name=name,
                    namespace=pod.metadata.namespace,
                    uid=default_uid("ResourceClaim", pod.metadata.namespace, name),
                    labels=dict(template.spec.metadata.labels),
                    annotations=annotations,
                    owner_references=[owner],
                ),
                spec=default_resource_claim_spec(template.spec.spec),
            )
            if (pod.metadata.namespace, name) not in self._claims:
                self.add_resource_object(claim)
            statuses.append(PodResourceClaimStatus(name=entry.name, resource_claim_name=name))
        if len(statuses) == len(pod.status.resource_claim_statuses):
            return pod
        return evolve(pod, status=evolve(pod.status, resource_claim_statuses=statuses))

    def _release_claims_of(self, pod: Pod) -> None:
        """The pod is gone: drop it from its claims' reservations; delete the claims made
        for it that no one uses, deallocate the other claims no one uses."""
        for key, claim in list(self._claims.items()):
            reserved = claim.status.reserved_for
            if not any(r.uid == pod.uid for r in reserved):
                if _owned_by(claim, pod) and not reserved:
                    self.delete_resource_claim(*key)
                continue
            rest = [r for r in reserved if r.uid != pod.uid]
            if rest:
                status = evolve(claim.status, reserved_for=rest)
                self.update_resource_claim_status(evolve(claim, status=status))
            elif _owned_by(claim, pod):
                self.delete_resource_claim(*key)
            else:
                self.update_resource_claim_status(evolve(claim, status=ResourceClaimStatus()))


def _owned_by(claim: ResourceClaim, pod: Pod) -> bool:
    return any(o.controller and o.uid == pod.uid for o in claim.metadata.owner_references)
