"""The victims on many nodes at once: `select_victims_on_node` worked out over a chunk
of nodes with one batch Filter per step instead of several Filter runs per node.

Step 0 filters the nodes as they would be with every pod that may be evicted removed
(a `WhatIfTable` over the snapshot's node table: no node is copied unless a plugin
reads a column that needs it); step k puts back each surviving node's k-th pod in
reprieve order and filters again, taking the pod out for good where the preemptor no
longer fits. Each node goes through exactly the adds, removes and Filter verdicts of
the per-node form, so the candidates and victims are the same. A node with pods
nominated to it that the preemptor must make room for is filtered twice per step, with
and without them, as Filter on one node does. It applies only when no PreFilter
AddPod/RemovePod extension is active (the cycle state would then differ per node); a
chunk where a Filter plugin fails goes through the per-node form, which finds the
failure.

Nodes that are not candidates get `NOT_A_CANDIDATE` instead of their Filter status,
which the batch does not work out: the dry run needs those statuses only when it
finds no candidate at all, and then runs again node by node.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from kubesched.api import Pod, PodDisruptionBudget
from kubesched.errors import KubeschedError
from kubesched.framework import (
    Code,
    CycleState,
    Handle,
    NodeInfo,
    NodeTable,
    PodInfo,
    PodNominator,
    Status,
    WhatIfTable,
    counted_nominated,
)
from kubesched_defaultpreemption.candidates import Candidate
from kubesched_defaultpreemption.importance import MoreImportantPod, by_importance
from kubesched_defaultpreemption.pdb import split_by_pdb_violation
from kubesched_defaultpreemption.victims import NO_VICTIMS_REASON, PreemptionAllowed

NOT_A_CANDIDATE = Status(Code.UNSCHEDULABLE, "not a candidate (decided in batch)")
"""Stands for the Filter status of a node the batch found no victims for."""
NO_VICTIMS = Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, NO_VICTIMS_REASON)
"""A node without pods the preemptor may evict: the per-node form's status."""

RATE_MARGIN = 1.2
"""The first chunk takes this many times the nodes an earlier dry run's rate asks for
(the rate falls as pods are nominated; one more chunk costs more than a few nodes)."""

CheckNode = Callable[[NodeInfo], "Candidate | Status"]


def batch_filter(handle: Handle, state: CycleState) -> Callable[..., Any] | None:
    """The framework's Filter over a table of what-if node copies (`feasible_mask`), or
    None when this handle has none or the cycle's PreFilter extensions are active."""
    feasible_mask = getattr(handle, "feasible_mask", None)
    extensions_active = getattr(handle, "pre_filter_extensions_active", None)
    if feasible_mask is None or extensions_active is None or extensions_active(state):
        return None
    return feasible_mask  # type: ignore[no-any-return]


class VictimOrders:
    """Per node, the pods a preemptor of some priority may evict (those of lower
    priority), in the node's order and in reprieve order (most important first): kept
    from one dry run to the next while the node is unchanged (same generation)."""

    __slots__ = ("_by_node",)

    def __init__(self) -> None:
        self._by_node: dict[str, tuple[int, int, MoreImportantPod, list[PodInfo], list[PodInfo]]]
        self._by_node = {}

    def of(
        self, node_info: NodeInfo, priority: int, more_important: MoreImportantPod
    ) -> tuple[list[PodInfo], list[PodInfo]]:
        """(potential victims in node order, the same by importance); do not modify them."""
        name, generation = node_info.name, node_info.generation
        kept = self._by_node.get(name)
        if kept is not None and kept[:2] == (generation, priority) and kept[2] == more_important:
            return kept[3], kept[4]
        potential = [p for p in node_info.pods if p.priority < priority]
        ordered = by_importance(potential, more_important) if potential else potential
        self._by_node[name] = (generation, priority, more_important, potential, ordered)
        return potential, ordered


class _Node:
    """One node in the batch and where its reprieve stands: the pods that may be evicted
    (`order`, in reprieve order once past step 0), those put back so far (`added`), its
    row in the emptied table, and a copy of it kept in step for per-node Filters."""

    __slots__ = (
        "added",
        "applied",
        "copy",
        "info",
        "nominated",
        "num_violating",
        "order",
        "row",
        "victims",
        "violating",
    )

    def __init__(
        self, info: NodeInfo, row: int, potential: list[PodInfo], nominated: Sequence[PodInfo]
    ) -> None:
        self.info = info
        self.row = row
        self.nominated = nominated
        self.order = potential
        self.added: list[PodInfo] = []
        self.violating = 0
        self.victims: list[PodInfo] = []
        self.num_violating = 0
        self.copy: NodeInfo | None = None
        self.applied: list[PodInfo] = []
        """The pods of `added` that `copy` holds."""

    @property
    def name(self) -> str:
        return self.info.name

    def working_copy(self) -> NodeInfo:
        """The node with `order` removed and `added` put back: a copy made on first use,
        then changed pod by pod as `added` grows or loses its last pod (as the per-node
        form changes its copy, so the pods are in the same order)."""
        copy = self.copy
        if copy is None:
            copy = self.copy = self.info.snapshot()
            for pi in self.order:
                copy.remove_pod(pi.pod)
        applied, added = self.applied, self.added
        while applied and (len(applied) > len(added) or applied[-1] is not added[len(applied) - 1]):
            copy.remove_pod(applied.pop().pod)
        for pi in added[len(applied) :]:
            copy.add_pod_info(pi)
            applied.append(pi)
        return copy


def _copy_of(nodes: Sequence[_Node], where: list[int], row: int) -> NodeInfo:
    """Row `row` of `_fits`'s table as a NodeInfo: a node's working copy, or (past the
    nodes) a copy of it with its nominated pods added, for each of `where`."""
    if row < len(nodes):
        return nodes[row].working_copy()
    node = nodes[where[row - len(nodes)]]
    copy = node.working_copy().snapshot()
    for pi in node.nominated:
        copy.add_pod_info(pi)
    return copy


class BatchVictims:
    """`check_node` for the dry run that works out victims a chunk of nodes at a time,
    in the dry run's visiting order (`ordered`); `per_node` is the per-node form.
    `preemption_allowed` None: every pod of lower priority than the preemptor may go."""

    def __init__(
        self,
        handle: Handle,
        state: CycleState,
        pod: Pod,
        pdbs: Sequence[PodDisruptionBudget],
        ordered: Sequence[NodeInfo],
        chunk: int,
        *,
        feasible_mask: Callable[..., Any],
        per_node: CheckNode,
        preemption_allowed: PreemptionAllowed | None,
        more_important: MoreImportantPod,
        rate: float | None = None,
        orders: VictimOrders | None = None,
    ) -> None:
        try:
            nominator: PodNominator | None = handle.nominator
        except KubeschedError:  # a framework without one: no pod is nominated anywhere
            nominator = None
        self.handle = handle
        self._nominated: Callable[[str], Sequence[PodInfo]] = (
            (lambda _name: ()) if nominator is None else counted_nominated(nominator, pod)
        )
        """The pods nominated to a node that the preemptor must make room for."""
        self.emptied = NodeTable([])
        """The chunk's nodes with every pod that may be evicted removed."""
        self.state = state
        self.pod = pod
        self.pdbs = pdbs
        self.ordered = ordered
        self.wanted = max(chunk, 1)
        self.rate = rate
        """Candidates per node found by an earlier dry run: sizes the first chunk."""
        self.feasible_mask = feasible_mask
        self.per_node = per_node
        self.preemption_allowed = preemption_allowed
        self.more_important = more_important
        self.orders = orders or VictimOrders()
        self.position = 0
        self.results: dict[str, Candidate | Status] = {}
        self.covered: set[str] = set()
        self.found = 0
        """Candidates (with victims) found so far."""
        self.guessed = False
        """Did any node get NOT_A_CANDIDATE?"""

    def __call__(self, node_info: NodeInfo) -> Candidate | Status:
        name = node_info.name
        if name not in self.covered and self.position < len(self.ordered):
            end = min(self.position + self._chunk_size(), len(self.ordered))
            chunk = self.ordered[self.position : end]
            self.covered.update(n.name for n in chunk)
            self._work_out(chunk)
            self.position = end
        outcome = self.results.pop(name, None)
        return self.per_node(node_info) if outcome is None else outcome

    def _chunk_size(self) -> int:
        """How many nodes the next chunk takes: as many as should give the candidates
        still wanted at the rate found so far (nodes past the dry run's stop are
        worked out for nothing, nodes short of it cost another chunk)."""
        missing = max(self.wanted - self.found, 1)
        if not self.position and self.rate:
            return math.ceil(missing * RATE_MARGIN / self.rate)
        if not self.found:
            return missing if not self.position else 2 * self.position
        return max(-(-missing * self.position // self.found), 8)

    def candidate_rate(self) -> float | None:
        """Candidates found per node worked out, for the next dry run's `rate`."""
        return self.found / self.position if self.found else None

    def _work_out(self, nodes: Sequence[NodeInfo]) -> None:
        """Fill `results` for these nodes (those left out go through the per-node form)."""
        pod, allowed = self.pod, self.preemption_allowed
        infos: list[NodeInfo] = []
        potentials: list[list[PodInfo]] = []
        orders: list[list[PodInfo] | None] = []
        for node_info in nodes:
            ordered = None
            if allowed is None:
                potential, ordered = self.orders.of(node_info, pod.priority, self.more_important)
            else:
                potential = [p for p in node_info.pods if allowed(node_info, p, pod)]
            if not potential:
                self.results[node_info.name] = NO_VICTIMS
                continue
            infos.append(node_info)
            potentials.append(potential)
            orders.append(ordered)
        nominated = [self._nominated(ni.name) for ni in infos]
        fits = self._step_zero(nodes, infos, potentials, nominated)
        if fits is None:
            return
        alive: list[_Node] = []
        for i, fit in enumerate(fits):
            if not fit:
                self.results[infos[i].name] = NOT_A_CANDIDATE
                self.guessed = True
                continue
            node = _Node(infos[i], i, potentials[i], nominated[i])
            ordered = orders[i] or by_importance(node.order, self.more_important)
            if self.pdbs:
                violating, non_violating = split_by_pdb_violation(ordered, self.pdbs)
                node.order = violating + non_violating
                node.violating = len(violating)
            else:
                node.order = ordered
            alive.append(node)
        if not self._reprieve(alive):
            for node_info in infos:
                self.results.pop(node_info.name, None)
            return
        for node in alive:
            victims = node.victims
            if 0 < node.violating < len(node.order):
                victims = by_importance(victims, self.more_important)
            if victims:
                self.found += 1
            self.results[node.name] = Candidate(
                node.name, tuple(v.pod for v in victims), node.num_violating
            )

    def _step_zero(
        self,
        nodes: Sequence[NodeInfo],
        infos: list[NodeInfo],
        potentials: list[list[PodInfo]],
        nominated: list[Sequence[PodInfo]],
    ) -> list[bool] | None:
        """Step 0 for `infos` (the chunk's nodes with pods that may go): does the preemptor
        pass Filter on each with those pods removed (`emptied`, made here), and also with
        its nominated pods then added where it has any? None when a plugin failed."""
        table = self._table_of(nodes)
        rows = [table.index[ni.name] for ni in infos]
        self.emptied = WhatIfTable(table, rows, [(pods, ()) for pods in potentials])
        return self._filter_twice(range(len(infos)), [()] * len(infos), nominated)

    def _table_of(self, nodes: Sequence[NodeInfo]) -> NodeTable:
        """The snapshot's node table when it holds these very nodes (its columns are then
        reused), else a table of just them."""
        try:
            table = self.handle.snapshot_shared_lister().node_table
        except (AttributeError, KubeschedError):
            return NodeTable(nodes)
        index, infos = table.index, table.node_infos
        for ni in nodes:
            row = index.get(ni.name)
            if row is None or infos[row] is not ni:
                return NodeTable(nodes)
        return table

    def _fits(self, nodes: Sequence[_Node]) -> list[bool] | None:
        """Does the preemptor pass Filter on each emptied node with its `added` pods put
        back (and with its nominated pods too)? Per-node Filters see the nodes' working
        copies. None when a plugin failed."""
        return self._filter_twice(
            [n.row for n in nodes],
            [n.added for n in nodes],
            [n.nominated for n in nodes],
            nodes,
        )

    def _filter_twice(
        self,
        rows: Sequence[int],
        put_back: Sequence[Sequence[PodInfo]],
        nominated: Sequence[Sequence[PodInfo]],
        copies: Sequence[_Node] | None = None,
    ) -> list[bool] | None:
        """Does the preemptor pass Filter on each of `rows` of the emptied table with its
        `put_back` pods added, and also with its `nominated` pods added after them where
        it has any (both passes must pass, as upstream's RunFilterPluginsWithNominatedPods)?
        `copies`: the nodes whose working copies per-node Filters see (default: copies
        of the emptied rows). None when a plugin failed."""
        count = len(rows)
        if not count:
            return []
        where = [i for i in range(count) if nominated[i]]
        changes: list[tuple[Sequence[PodInfo], Sequence[PodInfo]]]
        changes = [((), pods) for pods in put_back]
        changes += [((), [*put_back[i], *nominated[i]]) for i in where]
        copy_of = None if copies is None else partial(_copy_of, copies, where)
        table = WhatIfTable(
            self.emptied, [*rows, *(rows[i] for i in where)], changes, copy_of=copy_of
        )
        mask = self.feasible_mask(self.state, self.pod, table)
        if isinstance(mask, Status):
            return None
        fits: list[bool] = mask[:count].tolist()
        for i, f in zip(where, mask[count:].tolist(), strict=True):
            fits[i] = fits[i] and f
        return fits

    def _reprieve(self, nodes: list[_Node]) -> bool:
        """Put back each node's pods in order, one step for all nodes at a time; a pod
        after which the preemptor no longer fits is a victim. False when a plugin failed."""
        step = 0
        active = nodes
        while active:
            active = [n for n in active if step < len(n.order)]
            for node in active:
                node.added.append(node.order[step])
            fits = self._fits(active)
            if fits is None:
                return False
            for node, fit in zip(active, fits, strict=True):
                if fit:
                    continue
                victim = node.added.pop()
                node.victims.append(victim)
                if step < node.violating:
                    node.num_violating += 1
            step += 1
        return True
