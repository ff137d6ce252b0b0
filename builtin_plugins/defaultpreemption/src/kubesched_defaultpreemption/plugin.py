"""The DefaultPreemption plugin (PostFilter): when a pod fits nowhere, evict
lower-priority pods from the node where that helps most, and nominate that node."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from kubesched import hookimpl
from kubesched.api import PREEMPT_NEVER, Pod, PodDisruptionBudget
from kubesched.errors import ConfigError
from kubesched.framework import (
    Code,
    CycleState,
    Diagnosis,
    FitError,
    Handle,
    NodeInfo,
    PodInfo,
    PostFilterResult,
    Status,
    Victims,
    process_preemption_with_extenders,
)
from kubesched_defaultpreemption.args import DefaultPreemptionArgs
from kubesched_defaultpreemption.batch_victims import BatchVictims, VictimOrders, batch_filter
from kubesched_defaultpreemption.candidates import Candidate, choose_candidate
from kubesched_defaultpreemption.dry_run import DryRunResult, dry_run_preemption
from kubesched_defaultpreemption.executor import (
    DISRUPTION_TARGET,
    PREEMPTION_BY_SCHEDULER,
    clear_nomination,
    prepare_candidate,
)
from kubesched_defaultpreemption.importance import MoreImportantPod, more_important_pod
from kubesched_defaultpreemption.victims import select_victims_on_node

MESSAGE_PREFIX = "preemption: "
NOT_HELPFUL_REASON = "Preemption is not helpful for scheduling"
NEVER_REASON = "not eligible due to preemptionPolicy=Never."
TERMINATING_VICTIM_REASON = "not eligible due to a terminating pod on the nominated node."
NO_CANDIDATE_REASON = "no candidate node for preemption"
OFFSET_SEED = 0
"""Seed of the dry-run offset generator when the handle offers no seeded `rng`."""

_ABSENT = Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE)
"""The status of a node missing from the filter statuses: preemption cannot help there."""


def terminating_by_preemption(pod: Pod) -> bool:
    """Is the pod being deleted because the scheduler preempted it?"""
    if pod.metadata.deletion_timestamp is None:
        return False
    for condition in pod.status.conditions:
        if condition.type == DISRUPTION_TARGET:
            return condition.status == "True" and condition.reason == PREEMPTION_BY_SCHEDULER
    return False


def nodes_where_preemption_might_help(
    all_nodes: Sequence[NodeInfo], node_statuses: Mapping[str, Status]
) -> list[NodeInfo]:
    """The nodes whose Filter status is Unschedulable, in snapshot order: evicting pods
    cannot help where it is UnschedulableAndUnresolvable, nor on nodes with no status."""
    status_of, unschedulable = node_statuses.get, Code.UNSCHEDULABLE
    return [n for n in all_nodes if status_of(n.name, _ABSENT).code == unschedulable]


def explain_choice(
    candidates: Sequence[Candidate], chosen: Candidate, decided_by: str
) -> dict[str, Any]:
    """What `simulate --explain` shows of a preemption: every candidate the dry run found,
    with its victims (most important first) and PDB violations, and why one won."""
    return {
        "candidates": [
            {
                "node": c.node_name,
                "victims": [v.key for v in c.victims],
                "pdbViolations": c.num_pdb_violations,
            }
            for c in candidates
        ],
        "chosen": chosen.node_name,
        "decidedBy": decided_by,
    }


class DefaultPreemption:
    """Upstream's DefaultPreemption with synchronous preemption.

    Like upstream's plugin struct, two policies can be replaced (on an
    instance or in a subclass): `is_eligible_pod` may forbid evicting some
    lower-priority pods, and `more_important_pod` orders the victims to reprieve.
    """

    name = "DefaultPreemption"
    batch_dry_run = True
    """Work the dry run out a chunk of nodes at a time where that gives the same result
    (see `batch_victims`); False: always node by node, as upstream does."""
    args_type = DefaultPreemptionArgs
    args_kind = "DefaultPreemptionArgs"

    def __init__(self, args: DefaultPreemptionArgs | None, handle: Handle) -> None:
        self.args = args if args is not None else DefaultPreemptionArgs()
        errors = self.args.validate("")
        if errors:
            raise ConfigError(errors)
        self.handle = handle
        self.rng: random.Random = getattr(handle, "rng", None) or random.Random(OFFSET_SEED)
        self.more_important_pod: MoreImportantPod = more_important_pod
        self._candidate_rate: float | None = None
        """Candidates per node the last batched dry run found (sizes the next one's chunks)."""
        self._victim_orders = VictimOrders()

    def is_eligible_pod(self, node_info: NodeInfo, victim: PodInfo, preemptor: Pod) -> bool:
        """May `victim` be evicted for `preemptor`, beyond having a lower priority?
        By default, yes."""
        return True

    def preemption_allowed(self, node_info: NodeInfo, victim: PodInfo, preemptor: Pod) -> bool:
        """A victim must have a lower priority than the preemptor, and be eligible."""
        return victim.pod.priority < preemptor.priority and self.is_eligible_pod(
            node_info, victim, preemptor
        )

    @hookimpl
    def post_filter(
        self, state: CycleState, pod: Pod, filtered_node_status_map: Mapping[str, Status]
    ) -> PostFilterResult | Status:
        outcome = self.preempt(state, pod, filtered_node_status_map)
        if isinstance(outcome, Status) and outcome.message:
            return Status(outcome.code, MESSAGE_PREFIX + outcome.message)
        return outcome

    def preempt(
        self, state: CycleState, pod: Pod, node_statuses: Mapping[str, Status]
    ) -> PostFilterResult | Status:
        """Upstream's Evaluator.Preempt, without the "preemption: " prefix on messages."""
        nominated = pod.status.nominated_node_name
        eligible, reason = self.pod_eligible_to_preempt_others(
            pod, node_statuses.get(nominated, _ABSENT)
        )
        if not eligible:
            return Status(Code.UNSCHEDULABLE, reason)
        all_nodes = self.handle.snapshot_shared_lister().node_infos()
        if not all_nodes:
            return Status.error("no nodes available")
        result = self.find_candidates(state, pod, all_nodes, node_statuses)
        if result.errors and not result.candidates:
            return Status.error(result.error_message())
        if not result.candidates:
            if nominated:
                clear_nomination(self.handle, pod)
            diagnosis = Diagnosis(
                node_to_status=result.node_statuses,
                absent_nodes_status=Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, NOT_HELPFUL_REASON),
            )
            return Status(Code.UNSCHEDULABLE, FitError(pod, len(all_nodes), diagnosis).message)
        candidates = self.call_extenders(pod, result.candidates)
        if isinstance(candidates, Status):
            return candidates
        if not candidates:
            return Status(Code.UNSCHEDULABLE, NO_CANDIDATE_REASON)
        best, decided_by = choose_candidate(candidates)
        status = prepare_candidate(self.handle, self.name, best, pod)
        if status is not None:
            return status
        evicted = tuple(v.key for v in best.victims if v.metadata.deletion_timestamp is None)
        details = explain_choice(candidates, best, decided_by)
        return PostFilterResult(best.node_name, evicted, details)  # terminating: not new

    def call_extenders(
        self, pod: Pod, candidates: Sequence[Candidate]
    ) -> Sequence[Candidate] | Status:
        """Let the scheduler's preempting extenders narrow the candidates' victims
        (upstream's callExtenders)."""
        extenders = getattr(self.handle, "extenders", None)
        if extenders is None or not extenders():
            return candidates
        victims = {c.node_name: Victims(c.victims, c.num_pdb_violations) for c in candidates}
        lister = self.handle.snapshot_shared_lister()
        kept = process_preemption_with_extenders(extenders(), pod, victims, lister)
        if isinstance(kept, Status):
            return kept
        return [Candidate(name, v.pods, v.num_pdb_violations) for name, v in kept.items()]

    def pod_eligible_to_preempt_others(
        self, pod: Pod, nominated_node_status: Status
    ) -> tuple[bool, str]:
        """May this pod preempt others? Not with preemptionPolicy Never, nor while a
        pod it preempted on its nominated node is still terminating (unless that node
        now rejects it for good). The string says why not."""
        if pod.spec.preemption_policy == PREEMPT_NEVER:
            return False, NEVER_REASON
        nominated = pod.status.nominated_node_name
        if not nominated or nominated_node_status.code == Code.UNSCHEDULABLE_AND_UNRESOLVABLE:
            return True, ""
        node_info = self.handle.snapshot_shared_lister().get(nominated)
        if node_info is not None:
            for p in node_info.pods:
                if self.preemption_allowed(node_info, p, pod) and terminating_by_preemption(p.pod):
                    return False, TERMINATING_VICTIM_REASON
        return True, ""

    def offset_and_num_candidates(self, num_nodes: int) -> tuple[int, int]:
        """Where the dry run starts among `num_nodes` potential nodes (at random), and
        how many candidates it looks for."""
        return self.rng.randrange(num_nodes), self.args.num_candidates(num_nodes)

    def find_candidates(
        self,
        state: CycleState,
        pod: Pod,
        all_nodes: Sequence[NodeInfo],
        node_statuses: Mapping[str, Status],
    ) -> DryRunResult:
        """Dry-run preemption on the nodes that failed Filter as Unschedulable (not
        UnschedulableAndUnresolvable), starting at a random one."""
        potential = nodes_where_preemption_might_help(all_nodes, node_statuses)
        if not potential:
            return DryRunResult([])
        pdbs = self.handle.client.pod_disruption_budgets()
        offset, num_candidates = self.offset_and_num_candidates(len(potential))
        return self.dry_run(state, pod, potential, pdbs, offset, num_candidates)

    def dry_run(
        self,
        state: CycleState,
        pod: Pod,
        potential_nodes: Sequence[NodeInfo],
        pdbs: Sequence[PodDisruptionBudget],
        offset: int,
        num_candidates: int,
    ) -> DryRunResult:
        """Upstream's DryRunPreemption: victims on each node in turn from `offset`,
        each worked out on a copy of the node and of `state`.

        With `batch_dry_run` (and a framework that can Filter many what-if node copies
        at once), nodes are worked out a chunk at a time (`batch_victims`), with the
        same candidates and victims; if that finds no candidate, the run is repeated
        node by node for every node's Filter status."""

        def per_node(node_info: NodeInfo) -> Candidate | Status:
            return self.select_victims_on_node(state.clone(), pod, node_info.snapshot(), pdbs)

        feasible_mask = batch_filter(self.handle, state) if self._batches() else None
        if feasible_mask is None:
            return dry_run_preemption(potential_nodes, offset, num_candidates, per_node)
        count = len(potential_nodes)
        ordered = [potential_nodes[(offset + i) % count] for i in range(count)]
        batch = BatchVictims(
            self.handle,
            state,
            pod,
            pdbs,
            ordered,
            num_candidates,
            feasible_mask=feasible_mask,
            per_node=per_node,
            preemption_allowed=None if self._by_priority_alone() else self.preemption_allowed,
            more_important=self.more_important_pod,
            rate=self._candidate_rate,
            orders=self._victim_orders,
        )
        result = dry_run_preemption(potential_nodes, offset, num_candidates, batch)
        self._candidate_rate = batch.candidate_rate()
        if batch.guessed and not result.candidates:
            return dry_run_preemption(potential_nodes, offset, num_candidates, per_node)
        return result

    def _by_priority_alone(self) -> bool:
        """Is `preemption_allowed` the default, deciding by priority alone (neither it nor
        `is_eligible_pod` replaced)?"""
        return (
            getattr(self.preemption_allowed, "__func__", None)
            is DefaultPreemption.preemption_allowed
            and getattr(self.is_eligible_pod, "__func__", None) is DefaultPreemption.is_eligible_pod
        )

    def _batches(self) -> bool:
        """May the dry run work in batches? Not when `select_victims_on_node` is
        replaced (the batch would bypass it), nor with `batch_dry_run` off."""
        replaced = type(self).select_victims_on_node is not DefaultPreemption.select_victims_on_node
        return self.batch_dry_run and not replaced

    def select_victims_on_node(
        self,
        state: CycleState,
        pod: Pod,
        node_info: NodeInfo,
        pdbs: Sequence[PodDisruptionBudget],
    ) -> Candidate | Status:
        """The victims on one node (see `victims.select_victims_on_node`); `state` and
        `node_info` must be copies."""
        return select_victims_on_node(
            self.handle,
            state,
            pod,
            node_info,
            pdbs,
            preemption_allowed=self.preemption_allowed,
            more_important=self.more_important_pod,
        )
