"""The fewest pods to evict from one node so the preemptor fits there
(upstream's SelectVictimsOnNode), worked out on a copy of the node."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from kubesched.api import Pod, PodDisruptionBudget
from kubesched.framework import Code, CycleState, Handle, NodeInfo, PodInfo, Status, is_success
from kubesched_defaultpreemption.candidates import Candidate
from kubesched_defaultpreemption.importance import MoreImportantPod, by_importance
from kubesched_defaultpreemption.pdb import split_by_pdb_violation

NO_VICTIMS_REASON = "No preemption victims found for incoming pod"

PreemptionAllowed = Callable[[NodeInfo, PodInfo, Pod], bool]
"""May this pod on this node be evicted for the preemptor? `(node_info, victim, preemptor)`."""


class _ExtensionError(Exception):
    """A PreFilter AddPod/RemovePod extension failed; carries its Error status."""

    def __init__(self, status: Status) -> None:
        super().__init__(status.message)
        self.status = status


def _as_error(status: Status) -> Status:
    """A failed extension's status as an Error (upstream's AsStatus(status.AsError())):
    its message, and the exception behind it if there is one."""
    return Status(Code.ERROR, status.message, err=status.err)


def select_victims_on_node(
    handle: Handle,
    state: CycleState,
    pod: Pod,
    node_info: NodeInfo,
    pdbs: Sequence[PodDisruptionBudget],
    *,
    preemption_allowed: PreemptionAllowed,
    more_important: MoreImportantPod,
) -> Candidate | Status:
    """Evict every pod that may be preempted, check the preemptor fits, then put
    back ("reprieve") as many as still leave room: the PodDisruptionBudget-violating
    ones first, each group from the most important down.

    `state` and `node_info` are the caller's copies and are changed. Returns
    the victims (most important first) with the number of PDB violations among
    them, UnschedulableAndUnresolvable when no pod may be evicted, the Filter
    status when the preemptor does not fit even on the emptied node, or an
    Error when a PreFilter extension fails.
    """

    def remove(victim: PodInfo) -> None:
        node_info.remove_pod(victim.pod)
        status = handle.run_pre_filter_extension_remove_pod(state, pod, victim, node_info)
        if status is not None and not status.is_success():
            raise _ExtensionError(_as_error(status))

    def add(victim: PodInfo) -> None:
        node_info.add_pod_info(victim)
        status = handle.run_pre_filter_extension_add_pod(state, pod, victim, node_info)
        if status is not None and not status.is_success():
            raise _ExtensionError(_as_error(status))

    def fits() -> Status | None:
        return handle.run_filter_plugins_with_nominated_pods(state, pod, node_info)

    potential = [p for p in node_info.pods if preemption_allowed(node_info, p, pod)]
    victims: list[PodInfo] = []
    num_violating = 0
    try:
        for victim in potential:
            remove(victim)
        if not potential:
            return Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, NO_VICTIMS_REASON)
        status = fits()
        if status is not None and not status.is_success():
            return status
        violating, non_violating = split_by_pdb_violation(
            by_importance(potential, more_important), pdbs
        )
        for group_violates, group in ((True, violating), (False, non_violating)):
            for victim in group:
                add(victim)
                if not is_success(fits()):
                    remove(victim)
                    victims.append(victim)
                    if group_violates:
                        num_violating += 1
    except _ExtensionError as e:
        return e.status
    if violating and non_violating:
        victims = by_importance(victims, more_important)
    return Candidate(node_info.name, tuple(v.pod for v in victims), num_violating)
