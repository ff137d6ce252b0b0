"""PodDisruptionBudget and PriorityClass, read by preemption and priority resolution."""

from __future__ import annotations

from attrs import field, frozen

from kubesched.api._meta import LabelSelector, ObjectMeta
from kubesched.api._time import Time


@frozen
class PodDisruptionBudgetSpec:
    """minAvailable / maxUnavailable (an int or a percentage string) and the pod selector."""

    selector: LabelSelector | None = None
    min_available: int | str | None = None
    max_unavailable: int | str | None = None


@frozen
class PodDisruptionBudgetStatus:
    """What the disruption controller last computed; preemption reads disruptionsAllowed."""

    disruptions_allowed: int = 0
    current_healthy: int = 0
    desired_healthy: int = 0
    expected_pods: int = 0
    disrupted_pods: dict[str, Time] = field(factory=dict)
    """Pods the API server let be evicted, by name, with when; preemption reads the names."""


@frozen
class PodDisruptionBudget:
    """A `policy/v1` PodDisruptionBudget."""

    metadata: ObjectMeta = field(factory=ObjectMeta)
    spec: PodDisruptionBudgetSpec = field(factory=PodDisruptionBudgetSpec)
    status: PodDisruptionBudgetStatus = field(factory=PodDisruptionBudgetStatus)


@frozen
class PriorityClass:
    """A `scheduling.k8s.io/v1` PriorityClass (cluster-scoped)."""

    metadata: ObjectMeta = field(factory=ObjectMeta)
    value: int = 0
    global_default: bool = False
    preemption_policy: str | None = None
    description: str = ""
