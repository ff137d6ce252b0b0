"""What the API server would refuse in the `resource.k8s.io/v1` objects and in a pod's
`spec.resourceClaims`, with upstream's field paths (pkg/apis/resource/validation).

CEL selectors are not compiled here: a malformed expression is the allocator's
business (the pod that needs it is unschedulable, naming the object and field),
so one bad class never refuses a whole cluster.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from kubesched.api._field_errors import FieldError, duplicate, invalid, not_supported, required
from kubesched.api._meta_validation import meta_errors
from kubesched.api._names import dns1123_label_errors, dns1123_subdomain_errors
from kubesched.api._pod_claims import PodResourceClaim
from kubesched.api._quantity import parse_quantity
from kubesched.api._resource import (
    ALLOCATION_MODE_ALL,
    ALLOCATION_MODE_EXACT_COUNT,
    ALLOCATION_MODES,
    ALLOCATION_RESULTS_MAX_SIZE,
    CapacityRequirements,
    DeviceCapacity,
    DeviceClaim,
    DeviceClass,
    DeviceSelector,
    ResourceClaim,
    ResourceClaimTemplate,
    ResourceSlice,
)
from kubesched.errors import InputError

FIRST_AVAILABLE_MAX_SIZE = 8
"""How many subrequests one request may list."""


def _subdomain(path: str, value: str) -> Iterator[FieldError]:
    for problem in dns1123_subdomain_errors(value):
        yield invalid(path, value, problem)


def _label(path: str, value: str) -> Iterator[FieldError]:
    for problem in dns1123_label_errors(value):
        yield invalid(path, value, problem)


def _object_name(
    obj: DeviceClass | ResourceClaim | ResourceClaimTemplate | ResourceSlice,
) -> Iterator[FieldError]:
    yield from _subdomain("metadata.name", obj.metadata.name)
    yield from meta_errors(obj.metadata)


def _selectors(path: str, selectors: Sequence[DeviceSelector]) -> Iterator[FieldError]:
    for i, selector in enumerate(selectors):
        if selector.cel is None:
            yield required(f"{path}[{i}].cel")
        elif not selector.cel.expression.strip():
            yield required(f"{path}[{i}].cel.expression")


def device_class_errors(device_class: DeviceClass) -> Iterator[FieldError]:
    """Why an API server would refuse this DeviceClass."""
    yield from _object_name(device_class)
    yield from _selectors("spec.selectors", device_class.spec.selectors)
    for i, config in enumerate(device_class.spec.config):
        if config.opaque is None:
            yield required(f"spec.config[{i}].opaque")
        elif not config.opaque.driver:
            yield required(f"spec.config[{i}].opaque.driver")


def _mode_and_count(path: str, mode: str, count: int | None) -> Iterator[FieldError]:
    if mode not in ALLOCATION_MODES:
        yield not_supported(f"{path}.allocationMode", mode, ALLOCATION_MODES)
    elif mode == ALLOCATION_MODE_EXACT_COUNT and count is not None and count <= 0:
        yield invalid(f"{path}.count", count, "must be greater than zero")
    elif mode == ALLOCATION_MODE_ALL and count is not None:
        yield invalid(f"{path}.count", count, "must not be specified when allocationMode is 'All'")
    if count is not None and count > ALLOCATION_RESULTS_MAX_SIZE:
        yield invalid(f"{path}.count", count, f"must not exceed {ALLOCATION_RESULTS_MAX_SIZE}")


def _requests(path: str, claim: DeviceClaim) -> Iterator[FieldError]:
    names: set[str] = set()
    for i, request in enumerate(claim.requests):
        where = f"{path}.requests[{i}]"
        if not request.name:
            yield required(f"{where}.name")
        else:
            yield from _label(f"{where}.name", request.name)
            if request.name in names:
                yield duplicate(f"{where}.name", request.name)
            names.add(request.name)
        exact, alternatives = request.exactly, request.first_available
        if exact is None and not alternatives:
            yield required(where, "exactly one of `exactly` or `firstAvailable` is required")
        elif exact is not None and alternatives:
            yield invalid(
                where, "{...}", "exactly one of `exactly` or `firstAvailable` is required"
            )
        if exact is not None:
            if not exact.device_class_name:
                yield required(f"{where}.exactly.deviceClassName")
            else:
                yield from _subdomain(f"{where}.exactly.deviceClassName", exact.device_class_name)
            yield from _selectors(f"{where}.exactly.selectors", exact.selectors)
            yield from _mode_and_count(f"{where}.exactly", exact.allocation_mode, exact.count)
            yield from _capacity_requests(f"{where}.exactly.capacity", exact.capacity)
        if len(alternatives) > FIRST_AVAILABLE_MAX_SIZE:
            yield invalid(
                f"{where}.firstAvailable",
                len(alternatives),
                f"must have at most {FIRST_AVAILABLE_MAX_SIZE} items",
            )
        sub_names: set[str] = set()
        for j, sub in enumerate(alternatives):
            at = f"{where}.firstAvailable[{j}]"
            if not sub.name:
                yield required(f"{at}.name")
            else:
                yield from _label(f"{at}.name", sub.name)
                if sub.name in sub_names:
                    yield duplicate(f"{at}.name", sub.name)
                sub_names.add(sub.name)
                names.add(f"{request.name}/{sub.name}")
            if not sub.device_class_name:
                yield required(f"{at}.deviceClassName")
            else:
                yield from _subdomain(f"{at}.deviceClassName", sub.device_class_name)
            yield from _selectors(f"{at}.selectors", sub.selectors)
            yield from _mode_and_count(at, sub.allocation_mode, sub.count)
            yield from _capacity_requests(f"{at}.capacity", sub.capacity)
    yield from _references(path, claim, names)


_REQUEST_REFERENCE = (
    "must be the name of a request in the claim or the name of a request and a subrequest "
    "separated by '/'"
)


def _references(path: str, claim: DeviceClaim, names: set[str]) -> Iterator[FieldError]:
    for i, constraint in enumerate(claim.constraints):
        where = f"{path}.constraints[{i}]"
        for j, name in enumerate(constraint.requests):
            if name not in names:
                yield invalid(f"{where}.requests[{j}]", name, _REQUEST_REFERENCE)
        attribute = constraint.match_attribute
        if attribute is None and constraint.distinct_attribute is None:
            yield required(where, "exactly one of `matchAttribute` or `distinctAttribute`")
        if attribute is not None and "/" not in attribute:
            yield invalid(f"{where}.matchAttribute", attribute, "must include a domain")
    for i, config in enumerate(claim.config):
        where = f"{path}.config[{i}]"
        for j, name in enumerate(config.requests):
            if name not in names:
                yield invalid(f"{where}.requests[{j}]", name, _REQUEST_REFERENCE)
        if config.opaque is None:
            yield required(f"{where}.opaque")
        elif not config.opaque.driver:
            yield required(f"{where}.opaque.driver")


def resource_claim_errors(claim: ResourceClaim) -> Iterator[FieldError]:
    """Why an API server would refuse this ResourceClaim."""
    yield from _object_name(claim)
    yield from _requests("spec.devices", claim.spec.devices)


def resource_claim_template_errors(template: ResourceClaimTemplate) -> Iterator[FieldError]:
    """Why an API server would refuse this ResourceClaimTemplate."""
    yield from _object_name(template)
    yield from _requests("spec.spec.devices", template.spec.spec.devices)


_NODE_SELECTION = "exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection`"


def _quantity(path: str, text: str) -> Iterator[FieldError]:
    try:
        parse_quantity(text)
    except InputError as err:
        yield invalid(path, text, err.message)


def _milli(text: str | None) -> int | None:
    """The quantity in thousandths, or None when absent or malformed (reported elsewhere)."""
    if text is None:
        return None
    try:
        return parse_quantity(text, milli=True)
    except InputError:
        return None


def _capacity_requests(path: str, capacity: CapacityRequirements | None) -> Iterator[FieldError]:
    if capacity is None:
        return
    for name, amount in capacity.requests.items():
        yield from _quantity(f"{path}.requests[{name}]", amount)


def _request_policy(path: str, capacity: DeviceCapacity) -> Iterator[FieldError]:
    """A shared capacity's requestPolicy: well-formed amounts, at most one of validValues
    and validRange, values ascending, a range with its minimum, a default the policy
    allows."""
    policy = capacity.request_policy
    if policy is None:
        return
    amounts = [("default", policy.default)]
    amounts += [(f"validValues[{i}]", v) for i, v in enumerate(policy.valid_values)]
    bounds = policy.valid_range
    if bounds is not None:
        amounts += [("validRange.min", bounds.min), ("validRange.max", bounds.max)]
        amounts += [("validRange.step", bounds.step)]
    for where, text in amounts:
        if text is not None:
            yield from _quantity(f"{path}.{where}", text)
    if policy.valid_values and bounds is not None:
        yield invalid(path, "{...}", "exactly one of `validValues` or `validRange` may be set")
    values = [_milli(v) for v in policy.valid_values]
    for i in range(1, len(values)):
        before, this = values[i - 1], values[i]
        if before is not None and this is not None and this <= before:
            yield invalid(
                f"{path}.validValues[{i}]", policy.valid_values[i], "must be sorted ascending"
            )
    default = _milli(policy.default)
    if bounds is not None:
        low, high, step = _milli(bounds.min), _milli(bounds.max), _milli(bounds.step)
        if bounds.min is None:
            yield required(f"{path}.validRange.min")
        if low is not None and high is not None and high < low:
            yield invalid(
                f"{path}.validRange.max", bounds.max, "must be greater than or equal to min"
            )
        if step is not None and step <= 0:
            yield invalid(f"{path}.validRange.step", bounds.step, "must be greater than zero")
        if (
            default is not None
            and low is not None
            and (
                default < low
                or (high is not None and default > high)
                or (step and (default - low) % step)
            )
        ):
            yield invalid(f"{path}.default", policy.default, "must be within the valid range")
    elif policy.valid_values and default is not None and default not in values:
        yield invalid(f"{path}.default", policy.default, "must be one of the valid values")


def resource_slice_errors(resource_slice: ResourceSlice) -> Iterator[FieldError]:
    """Why an API server would refuse this ResourceSlice."""
    yield from _object_name(resource_slice)
    spec = resource_slice.spec
    if not spec.driver:
        yield required("spec.driver")
    else:
        yield from _subdomain("spec.driver", spec.driver)
    if not spec.pool.name:
        yield required("spec.pool.name")
    if spec.pool.resource_slice_count <= 0:
        yield invalid(
            "spec.pool.resourceSliceCount",
            spec.pool.resource_slice_count,
            "must be greater than zero",
        )
    if spec.pool.generation < 0:
        yield invalid(
            "spec.pool.generation", spec.pool.generation, "must be greater than or equal to 0"
        )
    chosen = [
        bool(spec.node_name),
        spec.node_selector is not None,
        bool(spec.all_nodes),
        bool(spec.per_device_node_selection),
    ]
    if sum(1 for c in chosen if c) != 1:
        yield required("spec", f"{_NODE_SELECTION} is required")
    names: set[str] = set()
    for i, device in enumerate(spec.devices):
        where = f"spec.devices[{i}]"
        if not device.name:
            yield required(f"{where}.name")
        else:
            yield from _label(f"{where}.name", device.name)
            if device.name in names:
                yield duplicate(f"{where}.name", device.name)
            names.add(device.name)
        for key, attribute in device.attributes.items():
            given = [
                v
                for v in (attribute.int_, attribute.bool_, attribute.string, attribute.version)
                if v is not None
            ]
            if len(given) != 1:
                yield required(f"{where}.attributes[{key}]", "exactly one value must be specified")
        for key, capacity in device.capacity.items():
            yield from _quantity(f"{where}.capacity[{key}].value", capacity.value)
            yield from _request_policy(f"{where}.capacity[{key}].requestPolicy", capacity)


def pod_resource_claim_errors(claims: Sequence[PodResourceClaim]) -> Iterator[FieldError]:
    """Why an API server would refuse a pod's `spec.resourceClaims`."""
    names: set[str] = set()
    for i, claim in enumerate(claims):
        where = f"spec.resourceClaims[{i}]"
        if not claim.name:
            yield required(f"{where}.name")
        else:
            yield from _label(f"{where}.name", claim.name)
            if claim.name in names:
                yield duplicate(f"{where}.name", claim.name)
            names.add(claim.name)
        given = (claim.resource_claim_name, claim.resource_claim_template_name)
        if all(g is None for g in given):
            yield invalid(
                where,
                claim.name,
                "at least one of `resourceClaimName` or `resourceClaimTemplateName` is required",
            )
        elif all(g is not None for g in given):
            yield invalid(
                where,
                claim.name,
                "at most one of `resourceClaimName` or `resourceClaimTemplateName` may be set",
            )
        for field, name in zip(
            ("resourceClaimName", "resourceClaimTemplateName"), given, strict=True
        ):
            if name is not None:
                yield from _subdomain(f"{where}.{field}", name)
