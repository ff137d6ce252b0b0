"""What an API server checks in the parts of a pod spec the scheduler reads.

Affinity (validateAffinity and the node selector checks), topology spread
constraints (validateTopologySpreadConstraints), container ports
(validateContainerPorts), resource requirements (limits and requests,
extended resources), scheduling gates and the priority fields, each with
upstream's field paths and messages. `kubesched.api._validation` runs them
for every pod a manifest holds.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

from kubesched.api._field_errors import (
    FieldError,
    duplicate,
    forbidden,
    invalid,
    not_supported,
    required,
)
from kubesched.api._label_keys_validation import (
    legacy_spread_key_errors,
    match_mismatch_errors,
    merged_selector,
)
from kubesched.api._meta_validation import (
    label_name_errors,
    name_problems,
    selector_errors,
    value_problems,
)
from kubesched.api._names import dns1123_label_errors, dns1123_subdomain_errors
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
from kubesched.features import DEFAULT_FEATURE_GATES, FeatureGates

MATCH_LABEL_KEYS_IN_SPREAD = "MatchLabelKeysInPodTopologySpread"
SPREAD_SELECTOR_MERGE = "MatchLabelKeysInPodTopologySpreadSelectorMerge"

INT32 = range(-(2**31), 2**31)
"""What an int32 field holds."""
NOT_POSITIVE = "must be greater than zero"
WHEN_UNSATISFIABLE = ("DoNotSchedule", "ScheduleAnyway")
INCLUSION_POLICIES = ("Honor", "Ignore")
PREEMPTION_POLICIES = ("Never", "PreemptLowerPriority")
PORT_PROTOCOLS = ("SCTP", "TCP", "UDP")
_NODE_OPERATORS = ("In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt")
_NODE_FIELD_KEYS = ("metadata.name",)
_HOST_NETWORK_PORT = "must match `containerPort` when `hostNetwork` is true"
_BAD_PORT = "must be between 1 and 65535, inclusive"


def _is_integer(text: str) -> bool:
    """What labels.NewRequirement accepts as a Gt/Lt value: a base-10 int64."""
    body = text[1:] if text[:1] in "+-" else text
    return body.isascii() and body.isdigit() and -(2**63) <= int(text) < 2**63


def node_requirement_errors(
    path: str, requirement: NodeSelectorRequirement, check_values: bool = True
) -> Iterator[FieldError]:
    """ValidateNodeSelectorRequirement, and the integer Gt/Lt needs to select anything; each
    value must be a label value unless `check_values` is false (preferred terms, which
    upstream lets through)."""
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
    if check_values:
        for i, value in enumerate(values):
            for problem in value_problems(value):
                yield invalid(f"{path}.values[{i}]", value, problem)


def _node_field_errors(path: str, requirement: NodeSelectorRequirement) -> Iterator[FieldError]:
    """ValidateNodeFieldSelectorRequirement: `metadata.name` In or NotIn one node name."""
    if requirement.operator in ("In", "NotIn"):
        if len(requirement.values) != 1:
            yield required(
                f"{path}.values",
                "must be only one value when `operator` is 'In' or 'NotIn' for node field selector",
            )
    else:
        yield invalid(f"{path}.operator", requirement.operator, "not a valid selector operator")
    if requirement.key not in _NODE_FIELD_KEYS:
        yield invalid(f"{path}.key", requirement.key, "not a valid field selector key")
        return
    for i, value in enumerate(requirement.values):
        for problem in dns1123_subdomain_errors(value):
            yield invalid(f"{path}.values[{i}]", value, problem)


def node_term_errors(
    path: str, term: NodeSelectorTerm, check_values: bool = True
) -> Iterator[FieldError]:
    """ValidateNodeSelectorTerm."""
    for i, requirement in enumerate(term.match_expressions):
        yield from node_requirement_errors(
            f"{path}.matchExpressions[{i}]", requirement, check_values
        )
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
    yield from match_mismatch_errors(
        path, term.match_label_keys, term.mismatch_label_keys, term.label_selector
    )
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
            yield from node_term_errors(f"{where}[{i}].preference", preferred.preference, False)
    if affinity.pod_affinity is not None:
        yield from _pod_affinity_errors(f"{path}.podAffinity", affinity.pod_affinity)
    if affinity.pod_anti_affinity is not None:
        yield from _pod_affinity_errors(f"{path}.podAntiAffinity", affinity.pod_anti_affinity)


def _spread_key_errors(
    path: str,
    constraint: TopologySpreadConstraint,
    labels: Mapping[str, str],
    gates: FeatureGates,
) -> Iterator[FieldError]:
    """A constraint's matchLabelKeys, by the rule the feature gates pick (see
    `kubesched.api._label_keys_validation`)."""
    keys = constraint.match_label_keys
    if not keys or not gates.enabled(MATCH_LABEL_KEYS_IN_SPREAD):
        return
    if gates.enabled(SPREAD_SELECTOR_MERGE):
        selector = merged_selector(constraint.label_selector, keys, labels)
        yield from match_mismatch_errors(path, keys, (), selector)
    else:
        yield from legacy_spread_key_errors(
            f"{path}.matchLabelKeys", keys, constraint.label_selector
        )


def spread_errors(
    constraints: Sequence[TopologySpreadConstraint],
    labels: Mapping[str, str],
    gates: FeatureGates = DEFAULT_FEATURE_GATES,
) -> Iterator[FieldError]:
    """validateTopologySpreadConstraints, for a pod with these labels."""
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
        yield from _spread_key_errors(path, constraint, labels, gates)
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


def host_port_conflicts(path: str, containers: Sequence[Container]) -> Iterator[FieldError]:
    """AccumulateUniqueHostPorts: one hostPort per protocol and host IP across `containers`,
    the first repeat named at its `hostPort` as `PROTOCOL/HOSTIP/PORT`."""
    seen: set[str] = set()
    for i, container in enumerate(containers):
        for j, port in enumerate(container.ports):
            if port.host_port == 0:
                continue
            key = f"{port.protocol}/{port.host_ip}/{port.host_port}"
            if key in seen:
                yield duplicate(f"{path}[{i}].ports[{j}].hostPort", key)
            seen.add(key)


def _host_network_errors(spec: PodSpec) -> Iterator[FieldError]:
    """validatePodHostNetworkDeps for a pod: on the host's network every (regular) container
    port's hostPort is its containerPort (one left out was defaulted to it)."""
    if not spec.host_network:
        return
    for i, container in enumerate(spec.containers):
        for j, port in enumerate(container.ports):
            if port.host_port != port.container_port:
                yield invalid(
                    f"spec.containers[{i}].ports[{j}].hostPort", port.host_port, _HOST_NETWORK_PORT
                )


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


def pod_spec_errors(
    spec: PodSpec,
    labels: Mapping[str, str] | None = None,
    gates: FeatureGates = DEFAULT_FEATURE_GATES,
) -> Iterator[FieldError]:
    """Why an API server would refuse this pod spec (of a pod with these labels), for the
    fields the scheduler reads beyond quantities, volumes and tolerations."""
    for i, container in enumerate(spec.containers):
        yield from _container_errors(f"spec.containers[{i}]", container)
    yield from host_port_conflicts("spec.containers", spec.containers)
    for i, container in enumerate(spec.init_containers):
        yield from _container_errors(f"spec.initContainers[{i}]", container)
        # each init container alone, since they run one at a time; upstream names the
        # repeat as if the container were the list's first
        yield from host_port_conflicts("spec.initContainers", [container])
    yield from _host_network_errors(spec)
    if spec.priority is not None and spec.priority not in INT32:
        yield invalid("spec.priority", spec.priority, "must fit in a 32-bit integer")
    if spec.preemption_policy is not None and spec.preemption_policy not in PREEMPTION_POLICIES:
        yield not_supported("spec.preemptionPolicy", spec.preemption_policy, PREEMPTION_POLICIES)
    yield from affinity_errors(spec.affinity)
    if spec.topology_spread_constraints:
        yield from spread_errors(spec.topology_spread_constraints, labels or {}, gates)
    if spec.scheduling_gates:
        yield from _gate_errors(spec)
