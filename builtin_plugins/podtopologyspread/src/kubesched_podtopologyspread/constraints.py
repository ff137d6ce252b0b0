"""Spread constraints as the plugin works with them: selectors compiled, defaults applied.

A pod's `topologySpreadConstraints` of one kind (DoNotSchedule for Filter,
ScheduleAnyway for Score) become `Constraint`s: `minDomains` defaults to 1,
`nodeAffinityPolicy` to Honor, `nodeTaintsPolicy` to Ignore, and the values of
the pod's labels named in `matchLabelKeys` are ANDed into the selector (a
missing selector stays one that selects nothing). A pod without constraints
gets the profile's default constraints, whose selector comes from the
workloads that own or select the pod (see `default_constraints`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from attrs import frozen

from kubesched.api import (
    TAINT_NO_EXECUTE,
    TAINT_NO_SCHEDULE,
    LabelSelector,
    Node,
    Pod,
    Selector,
    TopologySpreadConstraint,
    as_selector,
    is_tolerated,
)
from kubesched.framework import PodInfo
from kubesched_nodeaffinity.pod_affinity import RequiredNodeAffinity

DO_NOT_SCHEDULE = "DoNotSchedule"
SCHEDULE_ANYWAY = "ScheduleAnyway"
HONOR = "Honor"
IGNORE = "Ignore"
LABEL_HOSTNAME = "kubernetes.io/hostname"
LABEL_ZONE = "topology.kubernetes.io/zone"

SYSTEM_DEFAULT_CONSTRAINTS: tuple[TopologySpreadConstraint, ...] = (
    TopologySpreadConstraint(
        max_skew=3, topology_key=LABEL_HOSTNAME, when_unsatisfiable=SCHEDULE_ANYWAY
    ),
    TopologySpreadConstraint(
        max_skew=5, topology_key=LABEL_ZONE, when_unsatisfiable=SCHEDULE_ANYWAY
    ),
)
"""Upstream's system defaults: hostname maxSkew 3 and zone maxSkew 5, both ScheduleAnyway."""


@frozen
class Constraint:
    """One spread constraint with its selector compiled and its defaults applied."""

    max_skew: int
    topology_key: str
    selector: Selector
    min_domains: int = 1
    node_affinity_policy: str = HONOR
    node_taints_policy: str = IGNORE

    def includes(self, pod: Pod, node: Node, required: RequiredNodeAffinity) -> bool:
        """Whether the node's domain counts for this constraint (the inclusion policies)."""
        if self.node_affinity_policy == HONOR and not required.matches(node):
            return False
        if self.node_taints_policy == HONOR:
            tolerations = pod.spec.tolerations
            for taint in node.spec.taints:
                hard = taint.effect in (TAINT_NO_SCHEDULE, TAINT_NO_EXECUTE)
                if hard and not is_tolerated(taint, tolerations):
                    return False
        return True


def merge_match_labels(labels: Mapping[str, str], selector: Selector) -> Selector:
    """`labels` as equality requirements ANDed with the selector's own (a selector that
    selects nothing is kept as it is)."""
    if selector.selects_nothing:
        return selector
    extra = as_selector(LabelSelector(match_labels=dict(labels))).requirements
    return Selector(extra + selector.requirements)


def compile_constraints(
    constraints: Iterable[TopologySpreadConstraint], pod_labels: Mapping[str, str], action: str
) -> list[Constraint]:
    """The constraints whose whenUnsatisfiable is `action`, compiled; a malformed
    selector raises InputError naming the field."""
    result = []
    for c in constraints:
        if c.when_unsatisfiable != action:
            continue
        selector = as_selector(c.label_selector)
        if c.match_label_keys:
            present = {k: pod_labels[k] for k in c.match_label_keys if k in pod_labels}
            if present:
                selector = merge_match_labels(present, selector)
        result.append(
            Constraint(
                max_skew=c.max_skew,
                topology_key=c.topology_key,
                selector=selector,
                min_domains=c.min_domains if c.min_domains is not None else 1,
                node_affinity_policy=c.node_affinity_policy or HONOR,
                node_taints_policy=c.node_taints_policy or IGNORE,
            )
        )
    return result


def default_constraints(
    defaults: Sequence[TopologySpreadConstraint],
    pod: Pod,
    action: str,
    workload_selector: Selector,
) -> list[Constraint]:
    """The profile's default constraints of kind `action`, each with the pod's workload
    selector; none when that selector is empty (nothing owns or selects the pod)."""
    constraints = compile_constraints(defaults, pod.metadata.labels, action)
    if not constraints or workload_selector.empty:
        return []
    return [
        Constraint(
            max_skew=c.max_skew,
            topology_key=c.topology_key,
            selector=workload_selector,
            min_domains=c.min_domains,
            node_affinity_policy=c.node_affinity_policy,
            node_taints_policy=c.node_taints_policy,
        )
        for c in constraints
    ]


def has_all_keys(labels: Mapping[str, str], constraints: Sequence[Constraint]) -> bool:
    """Whether the node labels hold every constraint's topology key."""
    return all(c.topology_key in labels for c in constraints)


def count_matching(pods: Iterable[PodInfo], selector: Selector, namespace: str) -> int:
    """Pods in `namespace`, not terminating, whose labels the selector matches (an empty
    selector counts none)."""
    if selector.empty:
        return 0
    count = 0
    for info in pods:
        pod = info.pod
        meta = pod.metadata
        live = meta.deletion_timestamp is None and meta.namespace == namespace
        if live and selector.matches(meta.labels):
            count += 1
    return count


def selector_matches_any(constraints: Sequence[Constraint], labels: Mapping[str, str]) -> bool:
    """Whether any constraint's selector matches the labels."""
    return any(c.selector.matches(labels) for c in constraints)
