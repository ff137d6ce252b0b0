"""SelectVictimsOnNode for many nodes at once: the same victims as the per-node form
(`victims.select_victims_on_node`), with one Filter pass over all the nodes per step.

Each node is copied and emptied of the pods the preemptor may evict; one
`feasible_mask` over a table of those copies says where the preemptor fits.
Then the reprieve runs in rounds: round j puts back every node's j-th victim
(in the per-node order: PDB-violating first, each group most important
first) and one more mask says which nodes still fit; where not, that pod is
a victim. A node's outcome is what the per-node form gives, step for step.

Filter counts the pods nominated to a node (upstream's two passes): a node
with some has a second copy with them added, in a second table, and the pod
fits only where both copies pass. This holds while the cycle's state does not
depend on which pods a node runs (no active PreFilter AddPod/RemovePod):
`ready` checks it. Where the preemptor
does not fit on the emptied node, its Filter status is worked out only when
asked (`Deferred`): the dry run reads it only if no candidate is found.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from attrs import frozen
from numpy.typing import NDArray

from kubesched.api import Pod, PodDisruptionBudget
from kubesched.errors import KubeschedError
from kubesched.framework import Code, CycleState, Handle, NodeInfo, NodeTable, PodInfo, Status
from kubesched_defaultpreemption.candidates import Candidate
from kubesched_defaultpreemption.importance import MoreImportantPod, by_importance
from kubesched_defaultpreemption.pdb import split_by_pdb_violation
from kubesched_defaultpreemption.victims import NO_VICTIMS_REASON, PreemptionAllowed


@frozen
class Deferred:
    """The Filter status of a node where the preemptor does not fit even emptied,
    worked out when `resolve` is called."""

    resolve: Callable[[], Status]


Outcome = Candidate | Status | Deferred
"""One node's dry-run result: its candidate, its status, or its status to work out."""


def ready(handle: Handle, state: CycleState) -> bool:
    """Can this cycle's victims be selected in batch? (The handle offers the batch
    Filter, and no PreFilter extension would change the state as pods come and go.)"""
    active: Any = getattr(handle, "pre_filter_extensions_active", None)
    return (
        active is not None
        and getattr(handle, "feasible_mask", None) is not None
        and not active(state)
    )


def nominated_to_count(handle: Handle, pod: Pod, node_name: str) -> list[PodInfo]:
    """The pods nominated to this node that Filter counts for `pod` (priority at least
    the pod's, not the pod itself), in the nominator's order."""
    try:
        nominated = handle.nominator.nominated_pods_for_node(node_name)
    except KubeschedError:  # a framework without a nominator: nothing is nominated
        return []
    uid, priority = pod.metadata.uid, pod.priority
    return [pi for pi in nominated if pi.pod.priority >= priority and pi.uid != uid]


class _Node:
    """One node's copies and where its reprieve stands: `copy` without the nominated
    pods, `counted` with them (only when some are counted)."""

    __slots__ = ("copy", "counted", "num_violating", "order", "victims", "violating")

    def __init__(self, copy: NodeInfo, counted: NodeInfo | None) -> None:
        self.copy = copy
        self.counted = counted
        self.order: list[PodInfo] = []
        self.violating = 0
        self.victims: list[PodInfo] = []
        self.num_violating = 0

    def add(self, victim: PodInfo) -> None:
        self.copy.add_pod_info(victim)
        if self.counted is not None:
            self.counted.add_pod_info(victim)

    def remove(self, victim: PodInfo) -> None:
        self.copy.remove_pod(victim.pod)
        if self.counted is not None:
            self.counted.remove_pod(victim.pod)


class _Tables:
    """The what-if tables: every working node's copy, and the copies with nominated
    pods counted (Filter's first pass) for the nodes that have some."""

    def __init__(self, handle: Handle, state: CycleState, pod: Pod, work: list[_Node]) -> None:
        self._mask: Any = getattr(handle, "feasible_mask")  # noqa: B009 (see `ready`)
        self._state, self._pod = state, pod
        self.plain = NodeTable([n.copy for n in work])
        self.counted_rows = [i for i, n in enumerate(work) if n.counted is not None]
        self._where = {row: k for k, row in enumerate(self.counted_rows)}
        self.counted = NodeTable(
            [c for i in self.counted_rows if (c := work[i].counted) is not None]
        )

    def update(self, work: list[_Node], rows: list[int]) -> None:
        """Recompute the columns of these working rows after their copies changed."""
        self.plain.replace_rows((row, work[row].copy) for row in rows)
        counted = [(self._where[row], work[row].counted) for row in rows if row in self._where]
        self.counted.replace_rows((k, ni) for k, ni in counted if ni is not None)

    def fits(self) -> NDArray[np.bool_] | None:
        """Where the pod fits (both passes), or None when a Filter plugin failed."""
        plain = self._mask(self._state, self._pod, self.plain)
        if isinstance(plain, Status):
            return None
        fits: NDArray[np.bool_] = np.array(plain, dtype=bool)
        if self.counted_rows:
            counted = self._mask(self._state, self._pod, self.counted)
            if isinstance(counted, Status):
                return None
            fits[self.counted_rows] &= counted
        return fits


def select_victims_batch(
    handle: Handle,
    state: CycleState,
    pod: Pod,
    nodes: Sequence[NodeInfo],
    pdbs: Sequence[PodDisruptionBudget],
    *,
    preemption_allowed: PreemptionAllowed,
    more_important: MoreImportantPod,
) -> list[Outcome] | None:
    """Every node's outcome, in order, as `select_victims_on_node` would give it on a
    copy of the node and of `state` (`ready` must hold). None when a Filter plugin
    fails: the per-node form then says on which nodes."""
    outcomes: list[Outcome | None] = [None] * len(nodes)
    work: list[_Node] = []
    where: list[int] = []
    for i, node_info in enumerate(nodes):
        copy = node_info.snapshot()
        potential = [p for p in copy.pods if preemption_allowed(copy, p, pod)]
        if not potential:
            outcomes[i] = Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, NO_VICTIMS_REASON)
            continue
        _remove_all(copy, potential)
        nominated = nominated_to_count(handle, pod, copy.name)
        counted = None
        if nominated:
            counted = copy.snapshot()
            for pi in nominated:
                counted.add_pod_info(pi)
        entry = _Node(copy, counted)
        violating, non_violating = split_by_pdb_violation(
            by_importance(potential, more_important), pdbs
        )
        entry.order = [*violating, *non_violating]
        entry.violating = len(violating)
        work.append(entry)
        where.append(i)
    if not work:
        return [o for o in outcomes if o is not None]
    tables = _Tables(handle, state, pod, work)
    fits = tables.fits()
    if fits is None:
        return None
    alive: list[int] = []
    for row, entry in enumerate(work):
        if fits[row]:
            alive.append(row)
        else:
            outcomes[where[row]] = Deferred(_reason(handle, state, pod, entry.copy))
    step = 0
    while True:
        round_rows = [row for row in alive if step < len(work[row].order)]
        if not round_rows:
            break
        for row in round_rows:
            work[row].add(work[row].order[step])
        tables.update(work, round_rows)
        fits = tables.fits()
        if fits is None:
            return None
        for row in round_rows:  # a row's columns are brought up to date when it next runs
            if fits[row]:
                continue
            entry = work[row]
            victim = entry.order[step]
            entry.remove(victim)
            entry.victims.append(victim)
            if step < entry.violating:
                entry.num_violating += 1
        step += 1
    for row in alive:
        entry = work[row]
        victims = entry.victims
        if entry.violating and len(entry.order) > entry.violating:
            victims = by_importance(victims, more_important)
        outcomes[where[row]] = Candidate(
            entry.copy.name, tuple(v.pod for v in victims), entry.num_violating
        )
    return [o for o in outcomes if o is not None]


def _remove_all(copy: NodeInfo, victims: list[PodInfo]) -> None:
    """Remove these pods from the copy: what removing them one by one leaves (every sum
    at 0 when all go), at once when they are all its pods."""
    if len(victims) != len(copy.pods):
        for victim in victims:
            copy.remove_pod(victim.pod)
        return
    copy.pods = []
    copy.pods_with_affinity = []
    copy.pods_with_required_anti_affinity = []
    copy.requested = dict.fromkeys(copy.requested, 0)
    copy.non_zero_requested = dict.fromkeys(copy.non_zero_requested, 0)
    copy.used_ports = {}
    if copy.node is not None:
        copy.set_node(copy.node)  # a new generation, as removing them would give it


def _reason(handle: Handle, state: CycleState, pod: Pod, copy: NodeInfo) -> Callable[[], Status]:
    """The per-node Filter status of the emptied copy, as the per-node form returns it."""

    def resolve() -> Status:
        status = handle.run_filter_plugins_with_nominated_pods(state, pod, copy)
        if status is None or status.is_success():
            return Status.error(
                f'a filter_batch rejected the emptied node "{copy.name}" but filter accepts it'
            )
        return status

    return resolve
