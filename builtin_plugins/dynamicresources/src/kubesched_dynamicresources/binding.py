"""Device binding conditions (DRADeviceBindingConditions): whether an allocated claim's
devices are ready for the pod to bind, as upstream's DynamicResources decides it.

A device that lists `bindingConditions` is ready once the driver reports each of them True
in the claim's `status.devices` entry for that device; one of its
`bindingFailureConditions` reported True means binding failed. Devices without binding
conditions are always ready.
"""

from __future__ import annotations

from kubesched.api import AllocatedDeviceStatus, DeviceRequestAllocationResult, ResourceClaim

DEVICE_BINDING_TIMEOUT = "device binding timeout"
"""Upstream's PreBind error when the conditions are not met within bindingTimeout."""


class BindingFailed(Exception):
    """A binding failure condition of a claim's device is True."""


def has_binding_conditions(claim: ResourceClaim) -> bool:
    """Whether a device of the claim's allocation waits for binding conditions."""
    allocation = claim.status.allocation
    return allocation is not None and any(r.binding_conditions for r in allocation.devices.results)


def _device_status(
    claim: ResourceClaim, result: DeviceRequestAllocationResult
) -> AllocatedDeviceStatus | None:
    for status in claim.status.devices:
        if (status.driver, status.pool, status.device, status.share_id) == (
            result.driver,
            result.pool,
            result.device,
            result.share_id,
        ):
            return status
    return None


def _true(status: AllocatedDeviceStatus, condition: str) -> tuple[bool, str, str]:
    for reported in status.conditions:
        if reported.type == condition:
            return reported.status == "True", reported.reason, reported.message
    return False, "", ""


def ready_for_binding(claim: ResourceClaim) -> bool:
    """Whether every binding condition of the claim's devices is True (True when there are
    none; False while the claim is not allocated). Raises BindingFailed, with upstream's
    message, when a binding failure condition is True."""
    allocation = claim.status.allocation
    if allocation is None:
        return False
    for result in allocation.devices.results:
        if not result.binding_conditions:
            continue
        status = _device_status(claim, result)
        if status is None:
            return False
        for condition in result.binding_failure_conditions:
            failed, reason, message = _true(status, condition)
            if failed:
                raise BindingFailed(
                    f"claim {claim.metadata.name} binding failed: reason={reason}, "
                    f'message="{message}"'
                )
        if not all(_true(status, condition)[0] for condition in result.binding_conditions):
            return False
    return True
