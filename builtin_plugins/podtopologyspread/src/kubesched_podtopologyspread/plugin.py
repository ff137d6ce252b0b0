"""The PodTopologySpread plugin: DoNotSchedule constraints filter, ScheduleAnyway ones score."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

import numpy as np
from numpy.typing import NDArray

from kubesched import hookimpl
from kubesched.api import Pod, Selector
from kubesched.errors import ConfigError, InputError, KubeschedError, PluginError
from kubesched.framework import (
    ActionType,
    ClusterEvent,
    ClusterEventWithHint,
    Code,
    CycleState,
    EventResource,
    Handle,
    NodeInfo,
    NodeScoreList,
    NodeTable,
    PodInfo,
    Status,
)
from kubesched_nodeaffinity.pod_affinity import required_node_affinity
from kubesched_podtopologyspread.args import SYSTEM_DEFAULTING, PodTopologySpreadArgs
from kubesched_podtopologyspread.columns import code_column, value_codes
from kubesched_podtopologyspread.constraints import (
    DO_NOT_SCHEDULE,
    SCHEDULE_ANYWAY,
    SYSTEM_DEFAULT_CONSTRAINTS,
    Constraint,
    compile_constraints,
    default_constraints,
)
from kubesched_podtopologyspread.counting import count_by_node, count_by_table, node_of
from kubesched_podtopologyspread.default_selector import WorkloadSource, default_selector
from kubesched_podtopologyspread.filtering import PreFilterState, passes_batch, violated
from kubesched_podtopologyspread.hints import (
    schedulable_after_node_change,
    schedulable_after_pod_change,
)
from kubesched_podtopologyspread.scoring import (
    PreScoreState,
    count_domains_by_node,
    count_domains_by_table,
    normalize,
    register_domains,
    register_domains_by_table,
    score_node,
    score_rows,
)

REASON_CONSTRAINTS_NOT_MATCH = "node(s) didn't match pod topology spread constraints"
REASON_NODE_LABEL_NOT_MATCH = REASON_CONSTRAINTS_NOT_MATCH + " (missing required label)"
PRE_FILTER_STATE_KEY = "PreFilterPodTopologySpread"
PRE_SCORE_STATE_KEY = "PreScorePodTopologySpread"

NO_WORKLOAD = Selector()
"""The selector of a pod that no Service, ReplicationController, ReplicaSet or StatefulSet
selects: empty, so default constraints do not apply to it."""


def _missing(key: str) -> Status:
    return Status.error(f'reading "{key}" from cycleState: not found')


def _pre_filter_state(state: CycleState) -> PreFilterState | Status:
    if PRE_FILTER_STATE_KEY not in state:
        return _missing(PRE_FILTER_STATE_KEY)
    return state.read_as(PRE_FILTER_STATE_KEY, PreFilterState)


def _pre_score_state(state: CycleState) -> PreScoreState | Status:
    if PRE_SCORE_STATE_KEY not in state:
        return _missing(PRE_SCORE_STATE_KEY)
    return state.read_as(PRE_SCORE_STATE_KEY, PreScoreState)


class PodTopologySpread:
    """Spreads pods across topology domains (upstream's PodTopologySpread)."""

    name = "PodTopologySpread"
    args_type = PodTopologySpreadArgs
    args_kind = "PodTopologySpreadArgs"

    def __init__(self, args: PodTopologySpreadArgs | None = None, handle: Handle | None = None):
        """Validate the args; `System` defaulting uses upstream's system default constraints."""
        args = args or PodTopologySpreadArgs()
        problems = args.validate("")
        if problems:
            raise ConfigError(problems)
        self._handle = handle
        self._system_defaulted = args.defaulting_type == SYSTEM_DEFAULTING
        self._defaults = (
            SYSTEM_DEFAULT_CONSTRAINTS
            if self._system_defaulted
            else tuple(args.default_constraints)
        )

    def _workloads(self) -> WorkloadSource | None:
        """The cluster client, which lists Services and controllers; None without one."""
        if self._handle is None:
            return None
        try:
            return self._handle.client
        except KubeschedError:
            return None

    def workload_selector(self, pod: Pod) -> Selector:
        """The selector of the workloads that select the pod (upstream's DefaultSelector
        over Services, ReplicationControllers, ReplicaSets and StatefulSets)."""
        source = self._workloads()
        return NO_WORKLOAD if source is None else default_selector(pod, source)

    def constraints(self, pod: Pod, action: str) -> list[Constraint]:
        """The pod's constraints of kind `action`, or the defaults when it has none;
        InputError for a malformed selector."""
        own = pod.spec.topology_spread_constraints
        if own:
            return compile_constraints(own, pod.metadata.labels, action)
        if not any(c.when_unsatisfiable == action for c in self._defaults):
            return []
        selector = self.workload_selector(pod)
        if selector.empty:
            return []
        return default_constraints(self._defaults, pod, action, selector)

    def _table_for(self, nodes: Sequence[NodeInfo]) -> NodeTable | None:
        """The snapshot's table when `nodes` are its rows, else None (count node by node)."""
        if self._handle is None:
            return None
        table = self._handle.snapshot_shared_lister().node_table
        return table if table.node_infos is nodes else None

    @staticmethod
    def _rows_of(nodes: Sequence[NodeInfo], table: NodeTable) -> NDArray[np.intp] | None:
        """The table rows of `nodes` when they are a view of the table's rows, else None."""
        rows = getattr(nodes, "rows", None)
        if not isinstance(rows, np.ndarray) or not len(rows):
            return None
        if table.node_infos[int(rows[0])] is not nodes[0]:
            return None
        return rows

    @hookimpl
    def events_to_register(self) -> Sequence[ClusterEventWithHint]:
        hard = partial(self.constraints, action=DO_NOT_SCHEDULE)
        pod_actions = (
            ActionType.ADD
            | ActionType.UPDATE_POD_LABEL
            | ActionType.UPDATE_POD_TOLERATION
            | ActionType.DELETE
        )
        node_actions = (
            ActionType.ADD
            | ActionType.DELETE
            | ActionType.UPDATE_NODE_LABEL
            | ActionType.UPDATE_NODE_TAINT
        )
        return (
            ClusterEventWithHint(
                ClusterEvent(EventResource.POD, pod_actions),
                partial(schedulable_after_pod_change, hard),
            ),
            ClusterEventWithHint(
                ClusterEvent(EventResource.NODE, node_actions),
                partial(schedulable_after_node_change, hard),
            ),
        )

    @hookimpl
    def pre_filter(self, state: CycleState, pod: Pod, nodes: Sequence[NodeInfo]) -> Status | None:
        """Count matching pods per domain for the DoNotSchedule constraints, once."""
        try:
            constraints = self.constraints(pod, DO_NOT_SCHEDULE)
        except InputError as exc:
            return Status.error(f"get constraints from pod: {exc}")
        if not constraints:
            return Status(Code.SKIP)
        required = required_node_affinity(pod)
        table = self._table_for(nodes)
        if table is not None:
            counts = count_by_table(constraints, pod, table, required)
        else:
            counts = count_by_node(constraints, pod, nodes, required)
        state.write(PRE_FILTER_STATE_KEY, PreFilterState(constraints, counts, required, pod))
        return None

    def _update(
        self, state: CycleState, preemptor: Pod, pod: Pod, node: NodeInfo, delta: int
    ) -> Status | None:
        found = _pre_filter_state(state)
        if isinstance(found, Status):
            return found
        found.update_with_pod(pod, preemptor, node.node, delta)
        return None

    @hookimpl
    def pre_filter_add_pod(
        self, state: CycleState, pod_to_schedule: Pod, pod_info_to_add: PodInfo, node_info: NodeInfo
    ) -> Status | None:
        return self._update(state, pod_to_schedule, pod_info_to_add.pod, node_info, 1)

    @hookimpl
    def pre_filter_remove_pod(
        self,
        state: CycleState,
        pod_to_schedule: Pod,
        pod_info_to_remove: PodInfo,
        node_info: NodeInfo,
    ) -> Status | None:
        return self._update(state, pod_to_schedule, pod_info_to_remove.pod, node_info, -1)

    @hookimpl
    def filter(self, state: CycleState, node_info: NodeInfo) -> Status | None:
        """Reject a node lacking a topology key, or whose domain would exceed maxSkew."""
        found = _pre_filter_state(state)
        if isinstance(found, Status):
            return found
        failed = violated(found, node_of(node_info).metadata.labels)
        if failed is None:
            return None
        if failed < 0:
            return Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, REASON_NODE_LABEL_NOT_MATCH)
        return Status(Code.UNSCHEDULABLE, REASON_CONSTRAINTS_NOT_MATCH)

    @hookimpl
    def filter_batch(self, state: CycleState, table: NodeTable) -> NDArray[np.bool_]:
        """Filter over every row: the same kernel on the rows' value codes."""
        found = _pre_filter_state(state)
        if isinstance(found, Status):
            raise PluginError(found.message)
        keys = [c.topology_key for c in found.constraints]
        columns = [code_column(table, key) for key in keys]
        dense = [
            value_codes(key).dense(counts) for key, counts in zip(keys, found.counts, strict=True)
        ]
        if not columns:
            return np.ones(len(table), dtype=np.bool_)
        return passes_batch(found, columns, dense)

    @hookimpl
    def pre_score(self, state: CycleState, pod: Pod, nodes: Sequence[NodeInfo]) -> Status | None:
        """Register the feasible nodes' domains and count matching pods in them, once."""
        lister = self._handle.snapshot_shared_lister() if self._handle is not None else None
        all_nodes = lister.node_infos() if lister is not None else nodes
        if not all_nodes:
            return Status(Code.SKIP)
        require_all = bool(pod.spec.topology_spread_constraints) or not self._system_defaulted
        try:
            constraints = self.constraints(pod, SCHEDULE_ANYWAY)
        except InputError as exc:
            return Status.error(f"calculating preScoreState: {exc}")
        if not constraints:
            return Status(Code.SKIP)
        rows = self._rows_of(nodes, lister.node_table) if lister is not None else None
        if rows is not None and lister is not None:
            table = lister.node_table
            ignored, counts, weights = register_domains_by_table(
                constraints, table, rows, require_all
            )
        else:
            ignored, counts, weights = register_domains(constraints, nodes, require_all)
        pre_score = PreScoreState(constraints, ignored, counts, weights)
        required = required_node_affinity(pod)
        if lister is not None:
            count_domains_by_table(pre_score, pod, lister.node_table, required, require_all)
        else:
            count_domains_by_node(pre_score, pod, all_nodes, required, require_all)
        state.write(PRE_SCORE_STATE_KEY, pre_score)
        return None

    @hookimpl
    def score(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> int | Status:
        """Matching pods in the node's domains, weighted; fewer is better after normalising."""
        found = _pre_score_state(state)
        if isinstance(found, Status):
            return found
        return score_node(found, pod, node_info)

    @hookimpl
    def score_batch(
        self, state: CycleState, pod: Pod, table: NodeTable, rows: NDArray[np.intp]
    ) -> NDArray[np.int64]:
        found = _pre_score_state(state)
        if isinstance(found, Status):
            raise PluginError(found.message)
        return score_rows(found, pod, table, rows)

    @hookimpl
    def normalize_score(self, state: CycleState, scores: NodeScoreList) -> Status | None:
        found = _pre_score_state(state)
        if isinstance(found, Status):
            return found
        normalize(found, scores.names, scores.scores)
        return None
