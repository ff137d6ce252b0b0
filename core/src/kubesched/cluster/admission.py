"""Admission: what the API server does to a new pod before the scheduler sees it.

Priority: a pod naming a PriorityClass gets its value (and its preemptionPolicy
when the pod sets none); a pod naming none gets the global default class, or
priority 0. A pod that already carries `spec.priority` (as `kubectl get -o yaml`
prints it) is taken as admitted.

Scheduling gates: a pod created with `spec.schedulingGates` and no PodScheduled
condition gets one, False with reason `SchedulingGated` (the pod strategy's
applySchedulingGatedCondition).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from attrs import evolve

from kubesched.api import ObjectMeta, Pod, PodCondition, PriorityClass
from kubesched.errors import InputError

SCHEDULING_GATED = "SchedulingGated"
"""The PodScheduled reason the API server gives a pod created with scheduling gates."""
SCHEDULING_GATED_MESSAGE = "Scheduling is blocked due to non-empty scheduling gates"
SYSTEM_CLUSTER_CRITICAL = "system-cluster-critical"
SYSTEM_NODE_CRITICAL = "system-node-critical"
SYSTEM_CRITICAL_PRIORITY = 2_000_000_000

SYSTEM_PRIORITY_CLASSES = (
    PriorityClass(
        metadata=ObjectMeta(name=SYSTEM_NODE_CRITICAL), value=SYSTEM_CRITICAL_PRIORITY + 1000
    ),
    PriorityClass(
        metadata=ObjectMeta(name=SYSTEM_CLUSTER_CRITICAL), value=SYSTEM_CRITICAL_PRIORITY
    ),
)
"""The classes every API server creates at startup."""


def priority_classes_by_name(classes: Iterable[PriorityClass]) -> dict[str, PriorityClass]:
    """The given classes plus the system ones they do not redefine."""
    by_name = {pc.metadata.name: pc for pc in SYSTEM_PRIORITY_CLASSES}
    by_name.update((pc.metadata.name, pc) for pc in classes)
    return by_name


def _global_default(classes: Mapping[str, PriorityClass]) -> PriorityClass | None:
    """The global default class; of several, the lowest value wins (as upstream)."""
    defaults = [pc for pc in classes.values() if pc.global_default]
    return min(defaults, key=lambda pc: pc.value) if defaults else None


def admit_priority(pod: Pod, classes: Mapping[str, PriorityClass]) -> Pod:
    """The pod with `spec.priority` (and maybe preemptionPolicy) resolved.

    Raises InputError when the pod names a class that does not exist.
    """
    spec = pod.spec
    if spec.priority is not None:
        return pod
    name = spec.priority_class_name
    if name:
        pc = classes.get(name)
        if pc is None:
            raise InputError(
                f"no PriorityClass with name {name} was found",
                obj=f"Pod {pod.key}",
                field="spec.priorityClassName",
            )
    else:
        pc = _global_default(classes)
        if pc is None:
            return evolve(pod, spec=evolve(spec, priority=0))
    policy = spec.preemption_policy if spec.preemption_policy is not None else pc.preemption_policy
    return evolve(
        pod,
        spec=evolve(
            spec,
            priority=pc.value,
            priority_class_name=pc.metadata.name,
            preemption_policy=policy,
        ),
    )


def admit_scheduling_gates(pod: Pod) -> Pod:
    """A gated pod without a PodScheduled condition gets `SchedulingGated` (as created)."""
    if not pod.spec.scheduling_gates:
        return pod
    if any(c.type == "PodScheduled" for c in pod.status.conditions):
        return pod
    condition = PodCondition(
        type="PodScheduled",
        status="False",
        reason=SCHEDULING_GATED,
        message=SCHEDULING_GATED_MESSAGE,
    )
    conditions = [*pod.status.conditions, condition]
    return evolve(pod, status=evolve(pod.status, conditions=conditions))
