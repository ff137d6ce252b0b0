"""Carrying out a preemption: evict the victims and clear lower-priority nominations
(upstream's synchronous prepareCandidate)."""

from __future__ import annotations

from kubesched.api import Pod, PodCondition
from kubesched.framework import Handle, Status
from kubesched_defaultpreemption.candidates import Candidate

DISRUPTION_TARGET = "DisruptionTarget"
PREEMPTION_BY_SCHEDULER = "PreemptionByScheduler"
WAITING_POD_REJECTION = "preempted"


def disruption_condition(preemptor: Pod) -> PodCondition:
    """The condition a victim gets before it is deleted."""
    return PodCondition(
        type=DISRUPTION_TARGET,
        status="True",
        reason=PREEMPTION_BY_SCHEDULER,
        message=f"{preemptor.spec.scheduler_name}: preempting to accommodate a higher priority pod",
    )


def _has_condition(pod: Pod, condition: PodCondition) -> bool:
    return any(
        (c.type, c.status, c.reason, c.message)
        == (condition.type, condition.status, condition.reason, condition.message)
        for c in pod.status.conditions
    )


def preempt_pod(
    handle: Handle, plugin_name: str, node_name: str, preemptor: Pod, victim: Pod
) -> None:
    """Evict one victim: a pod waiting at Permit is rejected there; any other gets the
    DisruptionTarget condition and is deleted. Either way a Preempted event is recorded.

    Raises whatever the cluster client raises.
    """
    waiting = handle.get_waiting_pod(victim.uid)
    if waiting is not None:
        waiting.reject(plugin_name, WAITING_POD_REJECTION)
    else:
        condition = disruption_condition(preemptor)
        if not _has_condition(victim, condition):
            victim = handle.client.update_pod_status(victim, condition=condition)
        handle.client.delete_pod(victim, reason=f"preempted by {preemptor.key}")
    handle.event_recorder.event(
        victim,
        "Normal",
        "Preempted",
        "Preempting",
        f"Preempted by pod {preemptor.uid} on node {node_name}",
    )


def prepare_candidate(
    handle: Handle, plugin_name: str, candidate: Candidate, preemptor: Pod
) -> Status | None:
    """Evict the candidate's victims (those already terminating are left alone), then
    clear the nomination of every lower-priority pod nominated to the node: it may
    no longer fit there, and clearing sends it back to look for another node.

    An eviction that fails stops the others and is returned as an Error; a
    nomination that cannot be cleared is not an error.
    """
    for victim in candidate.victims:
        if victim.metadata.deletion_timestamp is not None:
            continue
        try:
            preempt_pod(handle, plugin_name, candidate.node_name, preemptor, victim)
        except Exception as e:  # the cluster client's failure, whatever its type
            return Status.error(e)
    for nominated in handle.nominator.nominated_pods_for_node(candidate.node_name):
        if nominated.pod.priority < preemptor.priority:
            clear_nomination(handle, nominated.pod)
    return None


def clear_nomination(handle: Handle, pod: Pod) -> None:
    """Clear the pod's `status.nominatedNodeName`; a failure is not critical (upstream
    logs it and carries on)."""
    try:
        handle.client.update_pod_status(pod, nominated_node_name="")
    except Exception:  # the cluster client's failure, whatever its type
        return
