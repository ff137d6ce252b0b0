"""The pod builder, after upstream's `st.MakePod()`."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from attrs import evolve

from kubesched.api import (
    RESTART_POLICY_ALWAYS,
    Affinity,
    Container,
    ContainerPort,
    LabelSelector,
    NodeAffinity,
    NodeSelector,
    NodeSelectorTerm,
    ObjectMeta,
    OwnerReference,
    PersistentVolumeClaimVolumeSource,
    Pod,
    PodAffinity,
    PodAffinityTerm,
    PodCondition,
    PodSchedulingGate,
    PreferredSchedulingTerm,
    ResourceList,
    ResourceRequirements,
    Toleration,
    TopologySpreadConstraint,
    Volume,
    WeightedPodAffinityTerm,
)
from kubesched.testing._object_builder import (
    PAUSE_IMAGE,
    Amount,
    When,
    _ObjectBuilder,
    _requirement,
    resource_list,
    to_time,
)


class PodBuilder(_ObjectBuilder[Pod]):
    """Builds a `Pod` step by step; start one with `make_pod(name)`."""

    def __init__(self, name: str) -> None:
        super().__init__("Pod", Pod(metadata=ObjectMeta(name=name, namespace="default")))

    @property
    def _affinity(self) -> Affinity:
        return self._obj.spec.affinity or Affinity()

    @property
    def _node_affinity(self) -> NodeAffinity:
        return self._affinity.node_affinity or NodeAffinity()

    # metadata

    def namespace(self, namespace: str) -> PodBuilder:
        return self._meta(namespace=namespace)

    def creation_timestamp(self, when: When) -> PodBuilder:
        return self._meta(creation_timestamp=to_time(when))

    def deletion_timestamp(self, when: When) -> PodBuilder:
        """Mark the pod terminating."""
        return self._meta(deletion_timestamp=to_time(when))

    def owner_reference(self, kind: str, name: str, api_version: str = "apps/v1") -> PodBuilder:
        """Set the controlling owner (replacing any other owner), as upstream's OwnerReference."""
        owner = OwnerReference(api_version=api_version, kind=kind, name=name, controller=True)
        return self._meta(owner_references=[owner])

    # spec: scheduling fields

    def node(self, node_name: str) -> PodBuilder:
        """`spec.nodeName`: the pod is bound (or asks for that node)."""
        return self._spec(node_name=node_name)

    def scheduler_name(self, name: str) -> PodBuilder:
        return self._spec(scheduler_name=name)

    def priority(self, value: int) -> PodBuilder:
        return self._spec(priority=value)

    def priority_class_name(self, name: str) -> PodBuilder:
        return self._spec(priority_class_name=name)

    def preemption_policy(self, policy: str) -> PodBuilder:
        return self._spec(preemption_policy=policy)

    def node_selector(self, selector: Mapping[str, str]) -> PodBuilder:
        return self._spec(node_selector=dict(selector))

    def scheduling_gates(self, *names: str) -> PodBuilder:
        gates = [PodSchedulingGate(name=n) for n in names]
        return self._spec(scheduling_gates=[*self._obj.spec.scheduling_gates, *gates])

    def toleration(
        self,
        key: str = "",
        *,
        value: str = "",
        effect: str = "",
        operator: str | None = None,
        seconds: int | None = None,
    ) -> PodBuilder:
        """Add a toleration; without an operator, Exists when no value is given, else Equal."""
        op = operator if operator is not None else ("Equal" if value else "Exists")
        tol = Toleration(
            key=key, operator=op, value=value, effect=effect, toleration_seconds=seconds
        )
        return self._spec(tolerations=[*self._obj.spec.tolerations, tol])

    def overhead(
        self, resources: Mapping[str, Amount] | None = None, **named: Amount
    ) -> PodBuilder:
        return self._spec(overhead=resource_list(resources, **named))

    # spec: containers

    def _add_container(self, container: Container, *, init: bool = False) -> PodBuilder:
        if init:
            return self._spec(init_containers=[*self._obj.spec.init_containers, container])
        return self._spec(containers=[*self._obj.spec.containers, container])

    def _add_requesting(
        self, prefix: str, requests: ResourceList, *, init: bool, restart_policy: str | None = None
    ) -> PodBuilder:
        if not requests:
            return self
        siblings = self._obj.spec.init_containers if init else self._obj.spec.containers
        container = Container(
            name=f"{prefix}{len(siblings)}",
            image=PAUSE_IMAGE,
            resources=ResourceRequirements(requests=requests),
            restart_policy=restart_policy,
        )
        return self._add_container(container, init=init)

    def container(self, image: str) -> PodBuilder:
        """Add a container running `image` with no requests."""
        name = f"con{len(self._obj.spec.containers)}"
        return self._add_container(Container(name=name, image=image))

    def req(self, resources: Mapping[str, Amount] | None = None, **named: Amount) -> PodBuilder:
        """Add a container requesting these resources (nothing is added for none)."""
        return self._add_requesting("con", resource_list(resources, **named), init=False)

    def init_req(
        self, resources: Mapping[str, Amount] | None = None, **named: Amount
    ) -> PodBuilder:
        """Add an init container requesting these resources."""
        return self._add_requesting("init-con", resource_list(resources, **named), init=True)

    def sidecar_req(
        self, resources: Mapping[str, Amount] | None = None, **named: Amount
    ) -> PodBuilder:
        """Add a sidecar (an init container with restartPolicy Always) requesting these."""
        return self._add_requesting(
            "sidecar-con",
            resource_list(resources, **named),
            init=True,
            restart_policy=RESTART_POLICY_ALWAYS,
        )

    def host_port(self, port: int, protocol: str = "TCP", host_ip: str = "") -> PodBuilder:
        """Add a container listening on `port` of the host."""
        ports = [ContainerPort(host_port=port, protocol=protocol, host_ip=host_ip)]
        return self._add_container(Container(name="container", image=PAUSE_IMAGE, ports=ports))

    # spec: affinity and spreading

    def node_affinity(self, affinity: NodeAffinity | None) -> PodBuilder:
        """Replace the whole node affinity."""
        return self._spec(affinity=evolve(self._affinity, node_affinity=affinity))

    def _required_term(self, term: NodeSelectorTerm) -> PodBuilder:
        current = self._node_affinity.required_during_scheduling_ignored_during_execution
        terms = current.node_selector_terms if current else []
        required = NodeSelector(node_selector_terms=[*terms, term])
        return self.node_affinity(
            evolve(
                self._node_affinity, required_during_scheduling_ignored_during_execution=required
            )
        )

    def node_affinity_in(
        self, key: str, values: Iterable[str], *, match_fields: bool = False
    ) -> PodBuilder:
        """Add a required node selector term `key In values` (terms are ORed); with
        `match_fields` the term matches node fields (`metadata.name`) instead of labels."""
        requirement = _requirement(key, "In", values)
        if match_fields:
            return self._required_term(NodeSelectorTerm(match_fields=[requirement]))
        return self._required_term(NodeSelectorTerm(match_expressions=[requirement]))

    def node_affinity_not_in(self, key: str, values: Iterable[str]) -> PodBuilder:
        """Add a required node selector term `key NotIn values` (terms are ORed)."""
        return self._required_term(
            NodeSelectorTerm(match_expressions=[_requirement(key, "NotIn", values)])
        )

    def preferred_node_affinity(self, weight: int, key: str, values: Iterable[str]) -> PodBuilder:
        """Add a preferred node affinity term `key In values` with this weight."""
        term = PreferredSchedulingTerm(
            weight=weight,
            preference=NodeSelectorTerm(match_expressions=[_requirement(key, "In", values)]),
        )
        na = self._node_affinity
        preferred = [*na.preferred_during_scheduling_ignored_during_execution, term]
        return self.node_affinity(
            evolve(na, preferred_during_scheduling_ignored_during_execution=preferred)
        )

    def _pod_affinity(
        self,
        anti: bool,
        topology_key: str,
        selector: LabelSelector | None,
        weight: int | None,
        namespaces: Iterable[str],
    ) -> PodBuilder:
        term = PodAffinityTerm(
            topology_key=topology_key, label_selector=selector, namespaces=list(namespaces)
        )
        affinity = self._affinity
        current = (affinity.pod_anti_affinity if anti else affinity.pod_affinity) or PodAffinity()
        if weight is None:
            required = [*current.required_during_scheduling_ignored_during_execution, term]
            updated = evolve(current, required_during_scheduling_ignored_during_execution=required)
        else:
            weighted = WeightedPodAffinityTerm(weight=weight, pod_affinity_term=term)
            preferred = [*current.preferred_during_scheduling_ignored_during_execution, weighted]
            updated = evolve(
                current, preferred_during_scheduling_ignored_during_execution=preferred
            )
        if anti:
            return self._spec(affinity=evolve(affinity, pod_anti_affinity=updated))
        return self._spec(affinity=evolve(affinity, pod_affinity=updated))

    def pod_affinity(
        self,
        topology_key: str,
        selector: LabelSelector | None,
        *,
        weight: int | None = None,
        namespaces: Iterable[str] = (),
    ) -> PodBuilder:
        """Add a pod affinity term: required, or preferred when a `weight` is given."""
        return self._pod_affinity(False, topology_key, selector, weight, namespaces)

    def pod_anti_affinity(
        self,
        topology_key: str,
        selector: LabelSelector | None,
        *,
        weight: int | None = None,
        namespaces: Iterable[str] = (),
    ) -> PodBuilder:
        """Add a pod anti-affinity term: required, or preferred when a `weight` is given."""
        return self._pod_affinity(True, topology_key, selector, weight, namespaces)

    def spread_constraint(
        self,
        max_skew: int,
        topology_key: str,
        when_unsatisfiable: str,
        selector: LabelSelector | None,
        *,
        min_domains: int | None = None,
        node_affinity_policy: str | None = None,
        node_taints_policy: str | None = None,
        match_label_keys: Iterable[str] = (),
    ) -> PodBuilder:
        """Add a topology spread constraint."""
        constraint = TopologySpreadConstraint(
            max_skew=max_skew,
            topology_key=topology_key,
            when_unsatisfiable=when_unsatisfiable,
            label_selector=selector,
            min_domains=min_domains,
            node_affinity_policy=node_affinity_policy,
            node_taints_policy=node_taints_policy,
            match_label_keys=list(match_label_keys),
        )
        constraints = [*self._obj.spec.topology_spread_constraints, constraint]
        return self._spec(topology_spread_constraints=constraints)

    # volumes

    def volume(self, volume: Volume) -> PodBuilder:
        """Add a volume to `spec.volumes`."""
        return self._spec(volumes=[*self._obj.spec.volumes, volume])

    def pvc(self, claim_name: str) -> PodBuilder:
        """Add a volume (named after the claim) backed by the claim `claim_name`."""
        source = PersistentVolumeClaimVolumeSource(claim_name=claim_name)
        return self.volume(Volume(name=claim_name, persistent_volume_claim=source))

    # status

    def phase(self, phase: str) -> PodBuilder:
        return self._status(phase=phase)

    def nominated_node_name(self, node_name: str) -> PodBuilder:
        return self._status(nominated_node_name=node_name)

    def start_time(self, when: When) -> PodBuilder:
        """`status.startTime`: preemption keeps the pods that started earlier."""
        return self._status(start_time=to_time(when))

    def condition(self, type_: str, status: str, reason: str = "") -> PodBuilder:
        added = PodCondition(type=type_, status=status, reason=reason)
        return self._status(conditions=[*self._obj.status.conditions, added])
