"""What an API server checks in the parts of a pod spec the scheduler reads.

Affinity (validateAffinity and the node selector checks), topology spread
constraints (validateTopologySpreadConstraints), container ports
(validateContainerPorts), resource requirements (limits and requests,
extended resources), scheduling gates and the priority fields, each with
upstream's field paths and messages. `kubesched.api._validation` runs them
for every pod a manifest holds.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from kubesched.api._field_errors import (
    FieldError,
    duplicate,
    forbidden,
    invalid,
    not_supported,
    required,
)
from kubesched.api._meta_validation import label_name_errors, name_problems, selector_errors
from kubesched.api._names import dns1123_label_errors
from kubesched.api._pod import (
    Affinity,
    Container,
    ContainerPort,
    NodeSelectorRequirement,
    NodeSelectorTerm,
    PodAffinity,
    PodAffinityTerm,
    PodSpec,
    TopologySpreadConstraint,
)
from kubesched.api._quantity import format_quantity
from kubesched.api._resources import (
    is_extended_resource_name,
    is_hugepage_resource_name,
    is_milli_resource,
)

INT32 = range(-(2**31), 2**31)
"""What an int32 field holds."""
NOT_POSITIVE = "must be greater than zero"
WHEN_UNSATISFIABLE = ("DoNotSchedule", "ScheduleAnyway")
INCLUSION_POLICIES = ("Honor", "Ignore")
PREEMPTION_POLICIES = ("Never", "PreemptLowerPriority")
PORT_PROTOCOLS = ("SCTP", "TCP", "UDP")
_NODE_OPERATORS = ("In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt")
_NODE_FIELD_KEYS = ("metadata.name",)
_BAD_PORT = "must be between 1 and 65535, inclusive"


def _is_integer(text: str) -> bool:
    """What labels.NewRequirement accepts as a Gt/Lt value: a base-10 int64."""
    body = text[1:] if text[:1] in "+-" else text
    return body.isascii() and body.isdigit() and -(2**63) <= int(text) < 2**63


def node_requirement_errors(
    path: str, requirement: NodeSelectorRequirement
) -> Iterator[FieldError]:
    """ValidateNodeSelectorRequirement, and the integer Gt/Lt needs to select anything."""
    operator, values = requirement.operator, requirement.values
    if operator in ("In", "NotIn"):
        if not values:
            yield required(f"{path}.values", "must be specified when `operator` is 'In' or 'NotIn'")
    elif operator in ("Exists", "DoesNotExist"):
        if values:
            yield forbidden(
                f"{path}.values",
                "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
            )
    elif operator in ("Gt", "Lt"):
        if len(values) != 1:
            yield required(
                f"{path}.values", "must be specified single value when `operator` is 'Lt' or 'Gt'"
            )
        elif not _is_integer(values[0]):
            yield invalid(
                f"{path}.values[0]",
                values[0],
                "for 'Gt', 'Lt' operators, the value must be an integer",
            )
    else:
        yield invalid(f"{path}.operator", operator, "not a valid selector operator")
    yield from label_name_errors(f"{path}.key", requirement.key)


def _node_field_errors(path: str, requirement: NodeSelectorRequirement) -> Iterator[FieldError]:
    """validateNodeFieldSelectorRequirements: `metadata.name` In or NotIn one name."""
    if requirement.operator in ("In", "NotIn"):
        if len(requirement.values) != 1:
            yield required(
                f"{path}.values",
                "must be only one value when `operator` is 'In' or 'NotIn' for node field selector",
            )
    else:
        yield invalid(f"{path}.operator", requirement.operator, "not a valid selector operator")
    if requirement.key not in _NODE_FIELD_KEYS:
        yield not_supported(f"{path}.key", requirement.key, _NODE_FIELD_KEYS)


def node_term_errors(path: str, term: NodeSelectorTerm) -> Iterator[FieldError]:
    """ValidateNodeSelectorTerm."""
    for i, requirement in enumerate(term.match_expressions):
        yield from node_requirement_errors(f"{path}.matchExpressions[{i}]", requirement)
    for i, requirement in enumerate(term.match_fields):
        yield from _node_field_errors(f"{path}.matchFields[{i}]", requirement)


def _weight(path: str, weight: int) -> Iterator[FieldError]:
    if not 1 <= weight <= 100:
        yield invalid(path, weight, "must be in the range 1-100")


def _pod_term_errors(path: str, term: PodAffinityTerm) -> Iterator[FieldError]:
    """validatePodAffinityTerm."""
    yield from selector_errors(f"{path}.labelSelector", term.label_selector)
    yield from selector_errors(f"{path}.namespaceSelector", term.namespace_selector)
    for name in term.namespaces:
        for problem in dns1123_label_errors(name):
            yield invalid(f"{path}.namespace", name, problem)
    if not term.topology_key:
        yield required(f"{path}.topologyKey", "can not be empty")
    yield from label_name_errors(f"{path}.topologyKey", term.topology_key)


def _pod_affinity_errors(path: str, affinity: PodAffinity) -> Iterator[FieldError]:
    required_path = f"{path}.requiredDuringSchedulingIgnoredDuringExecution"
    for i, term in enumerate(affinity.required_during_scheduling_ignored_during_execution):
        yield from _pod_term_errors(f"{required_path}[{i}]", term)
    preferred_path = f"{path}.preferredDuringSchedulingIgnoredDuringExecution"
    for i, weighted in enumerate(affinity.preferred_during_scheduling_ignored_during_execution):
        yield from _weight(f"{preferred_path}[{i}].weight", weighted.weight)
        yield from _pod_term_errors(
            f"{preferred_path}[{i}].podAffinityTerm", weighted.pod_affinity_term
        )


def affinity_errors(affinity: Affinity | None) -> Iterator[FieldError]:
    """validateAffinity: node affinity's selector terms and weights, pod (anti-)affinity's
    terms."""
    if affinity is None:
        return
    path = "spec.affinity"
    node = affinity.node_affinity
    if node is not None:
        selector = node.required_during_scheduling_ignored_during_execution
        where = f"{path}.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution"
        if selector is not None:
            if not selector.node_selector_terms:
                yield required(
                    f"{where}.nodeSelectorTerms", "must have at least one node selector term"
                )
            for i, term in enumerate(selector.node_selector_terms):
                yield from node_term_errors(f"{where}.nodeSelectorTerms[{i}]", term)
        where = f"{path}.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution"
        for i, preferred in enumerate(node.preferred_during_scheduling_ignored_during_execution):
            yield from _weight(f"{where}[{i}].weight", preferred.weight)
            yield from node_term_errors(f"{where}[{i}].preference", preferred.preference)
    if affinity.pod_affinity is not None:
        yield from _pod_affinity_errors(f"{path}.podAffinity", affinity.pod_affinity)
    if affinity.pod_anti_affinity is not None:
        yield from _pod_affinity_errors(f"{path}.podAntiAffinity", affinity.pod_anti_affinity)


def spread_errors(constraints: Sequence[TopologySpreadConstraint]) -> Iterator[FieldError]:
    """validateTopologySpreadConstraints."""
    for i, constraint in enumerate(constraints):
        path = f"spec.topologySpreadConstraints[{i}]"
        if constraint.max_skew <= 0:
            yield invalid(f"{path}.maxSkew", constraint.max_skew, NOT_POSITIVE)
        if not constraint.topology_key:
            yield required(f"{path}.topologyKey", "can not be empty")
        action = constraint.when_unsatisfiable
        if action not in WHEN_UNSATISFIABLE:
            yield not_supported(f"{path}.whenUnsatisfiable", action, WHEN_UNSATISFIABLE)
        pair = (constraint.topology_key, action)
        if any((c.topology_key, c.when_unsatisfiable) == pair for c in constraints[i + 1 :]):
            yield duplicate(
                f"{path}.{{topologyKey, whenUnsatisfiable}}", f"{{{pair[0]}, {pair[1]}}}"
            )
        if constraint.min_domains is not None:
            if constraint.min_domains <= 0:
                yield invalid(f"{path}.minDomains", constraint.min_domains, NOT_POSITIVE)
            if action != "DoNotSchedule":
                yield invalid(
                    f"{path}.minDomains",
                    constraint.min_domains,
                    f"can only use minDomains if whenUnsatisfiable=DoNotSchedule, not {action}",
                )
        for name, policy in (
            ("nodeAffinityPolicy", constraint.node_affinity_policy),
            ("nodeTaintsPolicy", constraint.node_taints_policy),
        ):
            if policy is not None and policy not in INCLUSION_POLICIES:
                yield not_supported(f"{path}.{name}", policy, INCLUSION_POLICIES)
        for j, key in enumerate(constraint.match_label_keys):
            yield from label_name_errors(f"{path}.matchLabelKeys[{j}]", key)
        yield from selector_errors(f"{path}.labelSelector", constraint.label_selector)


def _port_errors(path: str, ports: Sequence[ContainerPort]) -> Iterator[FieldError]:
    """validateContainerPorts: port numbers, protocol, unique names."""
    names: set[str] = set()
    for i, port in enumerate(ports):
        where = f"{path}[{i}]"
        if port.name:
            if port.name in names:
                yield duplicate(f"{where}.name", port.name)
            names.add(port.name)
        if port.container_port == 0:
            yield required(f"{where}.containerPort")
        elif not 1 <= port.container_port <= 65535:
            yield invalid(f"{where}.containerPort", port.container_port, _BAD_PORT)
        if port.host_port != 0 and not 1 <= port.host_port <= 65535:
            yield invalid(f"{where}.hostPort", port.host_port, _BAD_PORT)
        if not port.protocol:
            yield required(f"{where}.protocol")
        elif port.protocol not in PORT_PROTOCOLS:
            yield not_supported(f"{where}.protocol", port.protocol, PORT_PROTOCOLS)


def _overcommit_allowed(name: str) -> bool:
    """IsOvercommitAllowed: native resources other than hugepages."""
    return not is_extended_resource_name(name) and not is_hugepage_resource_name(name)


def _container_errors(path: str, container: Container) -> Iterator[FieldError]:
    """A container's ports, and its requests against its limits
    (ValidateContainerResourceRequirements)."""
    if container.ports:
        yield from _port_errors(f"{path}.ports", container.ports)
    requests, limits = container.resources.requests, container.resources.limits
    if not requests:
        return
    where = f"{path}.resources"
    for name, amount in requests.items():
        limit = limits.get(name)
        if limit is None:
            if not _overcommit_allowed(name):
                yield required(
                    f"{where}.limits", "Limit must be set for non overcommitable resources"
                )
            continue
        if amount == limit or (amount < limit and _overcommit_allowed(name)):
            continue
        milli = is_milli_resource(name)
        shown, limit_shown = (
            format_quantity(amount, milli=milli),
            format_quantity(limit, milli=milli),
        )
        if amount != limit and not _overcommit_allowed(name):
            yield invalid(
                f"{where}.requests", shown, f"must be equal to {name} limit of {limit_shown}"
            )
        else:
            yield invalid(
                f"{where}.requests",
                shown,
                f"must be less than or equal to {name} limit of {limit_shown}",
            )


def _gate_errors(spec: PodSpec) -> Iterator[FieldError]:
    """validateSchedulingGates: qualified names, no repeats."""
    seen: set[str] = set()
    for i, gate in enumerate(spec.scheduling_gates):
        path = f"spec.schedulingGates[{i}]"
        for problem in name_problems(gate.name):
            yield invalid(path, gate.name, problem)
        if gate.name in seen:
            yield duplicate(path, gate.name)
        seen.add(gate.name)


def pod_spec_errors(spec: PodSpec) -> Iterator[FieldError]:
    """Why an API server would refuse this pod spec, for the fields the scheduler reads
    beyond quantities, volumes and tolerations."""
    for group, containers in (
        ("containers", spec.containers),
        ("initContainers", spec.init_containers),
    ):
        for i, container in enumerate(containers):
            yield from _container_errors(f"spec.{group}[{i}]", container)
    if spec.priority is not None and spec.priority not in INT32:
        yield invalid("spec.priority", spec.priority, "must fit in a 32-bit integer")
    if spec.preemption_policy is not None and spec.preemption_policy not in PREEMPTION_POLICIES:
        yield not_supported("spec.preemptionPolicy", spec.preemption_policy, PREEMPTION_POLICIES)
    yield from affinity_errors(spec.affinity)
    if spec.topology_spread_constraints:
        yield from spread_errors(spec.topology_spread_constraints)
    if spec.scheduling_gates:
        yield from _gate_errors(spec)
