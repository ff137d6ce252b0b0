"""What became of each pending pod: its last attempt's result, and why."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from attrs import define, field

from kubesched.api import Pod, ephemeral_claim_name
from kubesched.framework._interface import ClusterClient
from kubesched.framework._status import Status
from kubesched.scheduler.extenders import ExtenderNodeVerdict

SCHEDULED = "Scheduled"
UNSCHEDULABLE = "Unschedulable"
ERROR = "Error"
PREEMPTED = "Preempted"
"""Bound in this run, then evicted to make room for another pod."""
DELETED = "Deleted"
"""Bound in this run, then deleted (not by preemption)."""
GATED = "Gated"
"""Never attempted: a PreEnqueue plugin (SchedulingGates, say) held it out of the queue.
A pod with `spec.schedulingGates` carries the API server's PodScheduled condition, reason
`SchedulingGated`."""
SKIPPED = "Skipped"
"""Being deleted (`metadata.deletionTimestamp` set) when popped: upstream's skipPodSchedule
drops it with a FailedScheduling event and no condition, and never retries it."""
STATUSES = (SCHEDULED, UNSCHEDULABLE, ERROR, PREEMPTED, DELETED, GATED, SKIPPED)


@define
class NodeExplanation:
    """One node in an attempt: its Filter status (None: it passed), and, when scored, each
    Score plugin's (normalized, weighted) score and the total; what each extender that saw
    the node said of it."""

    filter: Status | None = None
    scores: dict[str, tuple[int, int]] = field(factory=dict)
    total: int | None = None
    extenders: dict[str, ExtenderNodeVerdict] = field(factory=dict)
    resources: dict[str, tuple[int, int]] = field(factory=dict)
    """For each resource the pod requests: the node's (allocatable, requested by the pods
    on it) when the attempt looked at it."""


@define
class NodeGroup:
    """Nodes of an attempt left out of a short explanation that got the same verdict: the
    Filter status (None: they passed Filter but scored below the nodes shown), how many,
    and the first few names in the scheduler's node order."""

    filter: Status | None
    count: int
    examples: list[str]


@define
class PodOutcome:
    """A pending pod's fate so far: the latest attempt decides status, node and message."""

    pod: str
    profile: str
    status: str = UNSCHEDULABLE
    node: str | None = None
    message: str = ""
    attempts: int = 0
    nominated_node: str | None = None
    victims: list[str] = field(factory=list)
    nodes: dict[str, NodeExplanation] | None = None
    preempted_by: str | None = None
    """`namespace/name` of the pod whose preemption evicted this one."""
    stopped: str | None = None
    """Why the simulation stopped retrying a pod kube-scheduler would keep retrying."""
    preemption: Mapping[str, Any] | None = None
    """With explanations on: what the PostFilter plugin that nominated a node for the pod
    weighed (DefaultPreemption: candidates, victims, PDB violations, the deciding criterion)."""
    volumes: dict[str, str] = field(factory=dict)
    """For a bound pod: each of its claims (`namespace/name`) -> the volume bound to it."""
    request: dict[str, int] | None = None
    """With explanations on: the pod's effective request as NodeResourcesFit compares it
    (`pods` 1, cpu in millicores, bytes, counts), for its last attempt."""
    not_shown: list[NodeGroup] | None = None
    """With a short explanation: the nodes of the last attempt left out of `nodes`, grouped
    by verdict, the largest group first; None when every node is shown."""
    devices: dict[str, list[str]] = field(factory=dict)
    """For a bound pod: each of its ResourceClaims (`namespace/name`) -> the devices
    allocated to it (`driver/pool/device`)."""

    def left_node(self, preemptor: str | None) -> None:
        """The pod, bound in this run, is gone: evicted by `preemptor`, or deleted."""
        self.node = None
        if preemptor is None:
            self.status, self.message = DELETED, "deleted after it was bound"
        else:
            self.status, self.preempted_by = PREEMPTED, preemptor
            self.message = f"preempted by {preemptor}"


def claimed_volumes(client: ClusterClient, pod: Pod) -> dict[str, str]:
    """The pod's claims (`namespace/name`) and the volume each is bound to now ("" if none)."""
    found: dict[str, str] = {}
    namespace = pod.metadata.namespace
    for volume in pod.spec.volumes:
        if volume.persistent_volume_claim is not None:
            name = volume.persistent_volume_claim.claim_name
        elif volume.ephemeral is not None:
            name = ephemeral_claim_name(pod.metadata.name, volume)
        else:
            continue
        claim = client.get_persistent_volume_claim(namespace, name)
        found[f"{namespace}/{name}"] = claim.spec.volume_name if claim is not None else ""
    return found


def claimed_devices(client: ClusterClient, pod: Pod) -> dict[str, list[str]]:
    """The pod's ResourceClaims (`namespace/name`) and the devices allocated to each now
    (`driver/pool/device`); empty when the cluster serves no resource claims."""
    get_claim = getattr(client, "get_resource_claim", None)
    if get_claim is None or not pod.spec.resource_claims:
        return {}
    namespace = pod.metadata.namespace
    generated = {s.name: s.resource_claim_name for s in pod.status.resource_claim_statuses}
    found: dict[str, list[str]] = {}
    for entry in pod.spec.resource_claims:
        name = entry.resource_claim_name or generated.get(entry.name)
        if name is None:
            continue
        claim = get_claim(namespace, name)
        allocation = claim.status.allocation if claim is not None else None
        found[f"{namespace}/{name}"] = [
            f"{r.driver}/{r.pool}/{r.device}"
            for r in (allocation.devices.results if allocation is not None else [])
        ]
    return found
