"""A claim's constraints across the devices of its requests, as upstream's allocator keeps
them while it searches: `matchAttribute` (every device has the same value of a fully
qualified attribute) and `distinctAttribute` (every device a different one,
DRAConsumableCapacity). A device without the attribute never fits. Each constraint is told
of every device added and removed, so backtracking undoes it exactly."""

from __future__ import annotations

from collections.abc import Sequence

from attrs import define, field

from kubesched.api import Device, DeviceConstraint
from kubesched_dynamicresources.cel import qualified


def attribute_value(driver: str, device: Device, domain: str, ident: str) -> object:
    """The device's value of the attribute `<domain>/<ident>` (an unqualified attribute is the
    driver's), versions kept apart from strings; None when it has none."""
    for name, attribute in device.attributes.items():
        if qualified(driver, name) == (domain, ident):
            value = attribute.value
            return ("version", value) if attribute.version is not None else value
    return None


@define
class Constraint:
    """One constraint of a claim and the devices it holds so far."""

    requests: frozenset[str]
    domain: str
    ident: str
    distinct: bool
    values: list[object] = field(factory=list)
    """The attribute value of each device added, in order."""

    def applies(self, request: str) -> bool:
        """Whether the constraint covers the request (`req` or `req/sub`)."""
        if not self.requests:
            return True
        return request in self.requests or request.split("/", 1)[0] in self.requests

    def add(self, request: str, driver: str, device: Device) -> bool:
        """Take the device into the constraint if it keeps it; False (and nothing taken) if
        it breaks it."""
        if not self.applies(request):
            return True
        value = attribute_value(driver, device, self.domain, self.ident)
        if value is None:
            return False
        if self.distinct:
            if value in self.values:
                return False
        elif self.values and self.values[0] != value:
            return False
        self.values.append(value)
        return True

    def remove(self, request: str) -> None:
        """Undo the last `add` of a device for the request."""
        if self.applies(request):
            self.values.pop()

    def reset(self) -> None:
        self.values.clear()


def claim_constraints(
    constraints: Sequence[DeviceConstraint], *, distinct: bool
) -> list[Constraint]:
    """The claim's constraints; `distinctAttribute` only when `distinct` (its gate) is on."""
    made = []
    for constraint in constraints:
        if constraint.match_attribute is not None:
            name, is_distinct = constraint.match_attribute, False
        elif constraint.distinct_attribute is not None and distinct:
            name, is_distinct = constraint.distinct_attribute, True
        else:
            continue
        domain, _, ident = name.rpartition("/")
        made.append(Constraint(frozenset(constraint.requests), domain, ident, is_distinct))
    return made
