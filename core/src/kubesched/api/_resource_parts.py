"""The parts of `resource.k8s.io/v1` objects that newer DRA features add: how a shared
device's capacity may be requested (DRAConsumableCapacity) and what a driver reports on an
allocated device (DRAResourceClaimDeviceStatus, read by DRADeviceBindingConditions)."""

from __future__ import annotations

from attrs import field, frozen

from kubesched.api._time import Time, as_time


@frozen
class CapacityRequestPolicyRange:
    """The amounts a shared device's capacity may be requested in: from `min`, up to `max`,
    in `step`s (DRAConsumableCapacity)."""

    min: str | None = None
    max: str | None = None
    step: str | None = None


@frozen
class CapacityRequestPolicy:
    """How a request for a shared device's capacity is rounded: `default` when the request
    names none, else up to the next of `validValues` or onto `validRange`."""

    default: str | None = None
    valid_values: list[str] = field(factory=list)
    valid_range: CapacityRequestPolicyRange | None = None


@frozen
class Condition:
    """A condition a driver reports on an allocated device (metav1.Condition)."""

    type: str = ""
    status: str = ""
    reason: str = ""
    message: str = ""
    observed_generation: int | None = None
    last_transition_time: Time | None = field(default=None, converter=as_time)


@frozen
class AllocatedDeviceStatus:
    """What the driver reports on one allocated device (DRAResourceClaimDeviceStatus)."""

    driver: str = ""
    pool: str = ""
    device: str = ""
    share_id: str | None = None
    conditions: list[Condition] = field(factory=list)
