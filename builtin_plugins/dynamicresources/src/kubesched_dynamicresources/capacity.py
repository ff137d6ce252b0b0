"""Consumable capacity (DRAConsumableCapacity), as upstream's allocator works it out.

A device with `allowMultipleAllocations: true` may be allocated to many requests at once;
each takes a share of every capacity the device publishes: the amount its
`capacity.requests` names, rounded up by the capacity's `requestPolicy` (to the next of
`validValues`, or onto `validRange` from `min` in `step`s), or, when it names none, the
policy's `default`, else the whole capacity. A share must keep the policy (not above
`validRange.max`, one of `validValues`) and, added to what other claims and this search
already take of the device, fit in its capacity. A device that does not publish a capacity
the request names does not fit. Amounts are integers in thousandths, so sums are exact.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from kubesched.api import (
    CapacityRequestPolicy,
    CapacityRequirements,
    Device,
    DeviceCapacity,
    ResourceClaim,
    format_quantity,
    parse_quantity,
)
from kubesched.errors import InputError
from kubesched_dynamicresources.cel import qualified

CapacityKey = tuple[str, str]
"""A capacity's (domain, id): an unqualified name is the device's driver's."""

_BINARY_SUFFIXES = ("Ki", "Mi", "Gi", "Ti", "Pi", "Ei")


def _milli(text: str) -> int:
    return parse_quantity(text, milli=True)


def device_capacities(driver: str, device: Device) -> dict[CapacityKey, tuple[str, DeviceCapacity]]:
    """The device's capacities by (domain, id), each with the name it is published under; a
    name qualified with the driver's own domain wins over the same name unqualified."""
    resolved: dict[CapacityKey, tuple[str, DeviceCapacity]] = {}
    for name, capacity in device.capacity.items():
        key = qualified(driver, name)
        if key not in resolved or "/" in name:
            resolved[key] = (name, capacity)
    return resolved


def requested(
    driver: str, requirements: CapacityRequirements | None, capacities: Mapping[CapacityKey, object]
) -> dict[CapacityKey, int] | None:
    """The request's amounts by capacity, or None when the device lacks one of them."""
    amounts: dict[CapacityKey, int] = {}
    if requirements is None:
        return amounts
    for name, amount in requirements.requests.items():
        key = qualified(driver, name)
        if key not in capacities:
            return None
        amounts[key] = _milli(amount)
    return amounts


def _round_up(amount: int, policy: CapacityRequestPolicy) -> int:
    bounds = policy.valid_range
    if bounds is not None and bounds.min is not None:
        low = _milli(bounds.min)
        if amount < low:
            return low
        if bounds.step is None:
            return amount
        step = _milli(bounds.step)
        steps = -(-(amount - low) // step)
        return low + steps * step
    for value in policy.valid_values:
        if amount <= _milli(value):
            return _milli(value)
    return amount


def consumed(amount: int | None, capacity: DeviceCapacity) -> int:
    """What a request for `amount` (None: it names none) takes of the capacity."""
    policy = capacity.request_policy
    if amount is None:
        if policy is not None and policy.default is not None:
            return _milli(policy.default)
        return _milli(capacity.value)
    return amount if policy is None else _round_up(amount, policy)


def violates(amount: int, policy: CapacityRequestPolicy | None) -> bool:
    """Whether a share of `amount` breaks the capacity's request policy."""
    if policy is None:
        return False
    if policy.default is not None and amount == _milli(policy.default):
        return False
    bounds = policy.valid_range
    if bounds is not None:
        if bounds.max is not None and amount > _milli(bounds.max):
            return True
        if bounds.step is not None and bounds.min is not None:
            return (amount - _milli(bounds.min)) % _milli(bounds.step) != 0
        return False
    if policy.valid_values:
        return all(amount != _milli(v) for v in policy.valid_values)
    return False


def share(
    driver: str,
    device: Device,
    requirements: CapacityRequirements | None,
    in_use: Mapping[CapacityKey, int],
) -> dict[CapacityKey, int] | None:
    """What the request takes of each of the device's capacities, or None when the device
    cannot give it (a capacity missing, the policy broken, or not enough left beside
    `in_use`)."""
    capacities = device_capacities(driver, device)
    amounts = requested(driver, requirements, capacities)
    if amounts is None:
        return None
    taken: dict[CapacityKey, int] = {}
    for key, (_, capacity) in capacities.items():
        amount = consumed(amounts.get(key), capacity)
        if violates(amount, capacity.request_policy):
            return None
        if in_use.get(key, 0) + amount > _milli(capacity.value):
            return None
        taken[key] = amount
    return taken


def status_amounts(driver: str, device: Device, taken: Mapping[CapacityKey, int]) -> dict[str, str]:
    """The share as a result's `consumedCapacity`: each capacity under the name the device
    publishes it with, as a quantity written like the capacity's own value."""
    shown: dict[str, str] = {}
    for key, (name, capacity) in device_capacities(driver, device).items():
        if key in taken:
            shown[name] = format_like(taken[key], capacity.value)
    return shown


def format_like(milli: int, template: str) -> str:
    """A quantity of `milli` thousandths, in binary units when `template` is written in them."""
    if milli % 1000 == 0 and template.rstrip().endswith(_BINARY_SUFFIXES):
        return format_quantity(milli // 1000)
    return format_quantity(milli, milli=True)


def capacity_in_use(
    claims: Sequence[ResourceClaim],
) -> dict[tuple[str, str, str], dict[CapacityKey, int]]:
    """What the shared allocations (results with a `shareID`) of the claims take of each
    device: (driver, pool, device) -> capacity -> thousandths."""
    used: dict[tuple[str, str, str], dict[CapacityKey, int]] = {}
    for claim in claims:
        allocation = claim.status.allocation
        if allocation is None:
            continue
        for result in allocation.devices.results:
            if result.share_id is None:
                continue
            key = (result.driver, result.pool, result.device)
            totals = used.setdefault(key, {})
            for name, amount in result.consumed_capacity.items():
                try:
                    value = _milli(amount)
                except InputError:
                    continue
                capacity_key = qualified(result.driver, name)
                totals[capacity_key] = totals.get(capacity_key, 0) + value
    return used
