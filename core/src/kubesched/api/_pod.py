"""Pod: the subset of `v1.Pod` the scheduler reads."""

from __future__ import annotations

from attrs import field, frozen

from kubesched.api._meta import LabelSelector, ObjectMeta
from kubesched.api._pod_claims import PodResourceClaim, PodResourceClaimStatus
from kubesched.api._resources import ResourceList
from kubesched.api._time import Time, as_time
from kubesched.api._volumes import Volume

DEFAULT_SCHEDULER_NAME = "default-scheduler"
PREEMPT_LOWER_PRIORITY = "PreemptLowerPriority"
PREEMPT_NEVER = "Never"
RESTART_POLICY_ALWAYS = "Always"


@frozen
class ResourceRequirements:
    """A container's `resources`: requests and limits (parsed quantities)."""

    requests: ResourceList = field(factory=dict)
    limits: ResourceList = field(factory=dict)


@frozen
class ContainerPort:
    """A container port; `host_port` > 0 makes the scheduler check port conflicts."""

    container_port: int = 0
    host_port: int = 0
    protocol: str = "TCP"
    host_ip: str = ""
    name: str = ""


@frozen
class Container:
    """A container or init container. `restart_policy: Always` on an init container makes
    it a restartable sidecar."""

    name: str = ""
    image: str = ""
    resources: ResourceRequirements = field(factory=ResourceRequirements)
    ports: list[ContainerPort] = field(factory=list)
    restart_policy: str | None = None


@frozen
class Toleration:
    """A toleration; an empty `operator` means Equal, an empty `effect` matches all effects."""

    key: str = ""
    operator: str = ""
    value: str = ""
    effect: str = ""
    toleration_seconds: int | None = None


@frozen
class NodeSelectorRequirement:
    """A node selector expression: In, NotIn, Exists, DoesNotExist, Gt, Lt."""

    key: str
    operator: str
    values: list[str] = field(factory=list)


@frozen
class NodeSelectorTerm:
    """matchExpressions (on labels) AND matchFields (on `metadata.name`)."""

    match_expressions: list[NodeSelectorRequirement] = field(factory=list)
    match_fields: list[NodeSelectorRequirement] = field(factory=list)


@frozen
class NodeSelector:
    """Terms ORed together."""

    node_selector_terms: list[NodeSelectorTerm] = field(factory=list)


@frozen
class PreferredSchedulingTerm:
    """A weighted preferred node selector term."""

    weight: int
    preference: NodeSelectorTerm


@frozen
class NodeAffinity:
    """Required and preferred node affinity."""

    required_during_scheduling_ignored_during_execution: NodeSelector | None = None
    preferred_during_scheduling_ignored_during_execution: list[PreferredSchedulingTerm] = field(
        factory=list
    )


@frozen
class PodAffinityTerm:
    """Pods matching the selector (in the namespaces) within the topology domain."""

    topology_key: str = ""
    label_selector: LabelSelector | None = None
    namespaces: list[str] = field(factory=list)
    namespace_selector: LabelSelector | None = None
    match_label_keys: list[str] = field(factory=list)
    mismatch_label_keys: list[str] = field(factory=list)


@frozen
class WeightedPodAffinityTerm:
    """A weighted preferred pod (anti-)affinity term."""

    weight: int
    pod_affinity_term: PodAffinityTerm


@frozen
class PodAffinity:
    """Pod affinity or anti-affinity (same shape)."""

    required_during_scheduling_ignored_during_execution: list[PodAffinityTerm] = field(factory=list)
    preferred_during_scheduling_ignored_during_execution: list[WeightedPodAffinityTerm] = field(
        factory=list
    )


@frozen
class Affinity:
    """A pod's `spec.affinity`."""

    node_affinity: NodeAffinity | None = None
    pod_affinity: PodAffinity | None = None
    pod_anti_affinity: PodAffinity | None = None


@frozen
class TopologySpreadConstraint:
    """A `topologySpreadConstraints` entry."""

    max_skew: int
    topology_key: str
    when_unsatisfiable: str
    label_selector: LabelSelector | None = None
    min_domains: int | None = None
    node_affinity_policy: str | None = None
    node_taints_policy: str | None = None
    match_label_keys: list[str] = field(factory=list)


@frozen
class PodSchedulingGate:
    """A scheduling gate: the pod is not scheduled while any gate remains."""

    name: str


@frozen
class PodSpec:
    """The subset of `v1.PodSpec` the scheduler reads."""

    containers: list[Container] = field(factory=list)
    init_containers: list[Container] = field(factory=list)
    node_name: str = ""
    scheduler_name: str = DEFAULT_SCHEDULER_NAME
    priority: int | None = None
    priority_class_name: str = ""
    preemption_policy: str | None = None
    overhead: ResourceList = field(factory=dict)
    node_selector: dict[str, str] = field(factory=dict)
    affinity: Affinity | None = None
    tolerations: list[Toleration] = field(factory=list)
    scheduling_gates: list[PodSchedulingGate] = field(factory=list)
    topology_spread_constraints: list[TopologySpreadConstraint] = field(factory=list)
    volumes: list[Volume] = field(factory=list)
    resources: ResourceRequirements | None = None
    """Pod-level requests and limits (PodLevelResources, on by default since 1.34): for
    cpu, memory and hugepages they stand for the whole pod instead of its containers' sum."""
    host_network: bool = False
    """The pod uses the node's network: the API server defaults every container port's
    `hostPort` to its `containerPort`."""
    resource_claims: list[PodResourceClaim] = field(factory=list)
    """Dynamic resource claims (DRA): each names a ResourceClaim or a template."""


@frozen
class PodCondition:
    """A pod condition, e.g. PodScheduled=False reason Unschedulable."""

    type: str
    status: str
    reason: str = ""
    message: str = ""
    last_transition_time: Time | None = field(default=None, converter=as_time)


@frozen
class PodStatus:
    """The subset of `v1.PodStatus` the scheduler reads and writes."""

    phase: str = ""
    conditions: list[PodCondition] = field(factory=list)
    nominated_node_name: str = ""
    start_time: Time | None = field(default=None, converter=as_time)
    resource_claim_statuses: list[PodResourceClaimStatus] = field(factory=list)
    """The claims generated from the pod's templates (the resource-claim controller's)."""


@frozen
class Pod:
    """A pod. Objects are immutable: change one with `attrs.evolve`."""

    metadata: ObjectMeta = field(factory=ObjectMeta)
    spec: PodSpec = field(factory=PodSpec)
    status: PodStatus = field(factory=PodStatus)

    @property
    def key(self) -> str:
        """`namespace/name`, the way upstream names a pod in messages."""
        return f"{self.metadata.namespace}/{self.metadata.name}"

    @property
    def uid(self) -> str:
        return self.metadata.uid

    @property
    def priority(self) -> int:
        """`spec.priority`, 0 when unset (upstream's corev1helpers.PodPriority)."""
        return self.spec.priority if self.spec.priority is not None else 0
