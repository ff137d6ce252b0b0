"""The InterPodAffinity plugin: required pod affinity and anti-affinity as a Filter,
preferred terms (and existing pods' terms) as a Score."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from kubesched import hookimpl
from kubesched.api import Pod
from kubesched.errors import ConfigError, InputError, PluginError
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
    StateNotFoundError,
    Status,
    pod_affinity_terms,
)
from kubesched_interpodaffinity import columns, from_index, hints
from kubesched_interpodaffinity.args import InterPodAffinityArgs
from kubesched_interpodaffinity.filtering import (
    REASON_AFFINITY,
    REASON_ANTI_AFFINITY,
    REASON_EXISTING_ANTI_AFFINITY,
    PreFilterState,
    satisfies_affinity,
    satisfies_anti_affinity,
    satisfies_existing_anti_affinity,
)
from kubesched_interpodaffinity.index import ClusterIndex
from kubesched_interpodaffinity.parse_error import parse_error
from kubesched_interpodaffinity.scoring import PreScoreState, normalize

PRE_FILTER_STATE_KEY = "PreFilterInterPodAffinity"
PRE_SCORE_STATE_KEY = "PreScoreInterPodAffinity"


def _read(state: CycleState, key: str) -> Status | None:
    if key in state:
        return None
    return Status.error(f'error reading "{key}" from cycleState: not found')


def _problem(e: InputError) -> str:
    return f"{e.field}: {e.message}" if e.field else e.message


class InterPodAffinity:
    """Places pods with or away from other pods by topology (upstream's InterPodAffinity)."""

    name = "InterPodAffinity"
    args_type = InterPodAffinityArgs
    args_kind = "InterPodAffinityArgs"

    def __init__(self, args: InterPodAffinityArgs | None, handle: Handle) -> None:
        self.args = args if args is not None else InterPodAffinityArgs()
        errors = self.args.validate("")
        if errors:
            raise ConfigError(errors)
        self.handle = handle
        self.index = ClusterIndex()

    @hookimpl
    def events_to_register(self) -> Sequence[ClusterEventWithHint]:
        pod_actions = ActionType.ADD | ActionType.UPDATE_POD_LABEL | ActionType.DELETE
        node_actions = ActionType.ADD | ActionType.UPDATE_NODE_LABEL
        return (
            ClusterEventWithHint(
                ClusterEvent(EventResource.POD, pod_actions), hints.schedulable_after_pod_change
            ),
            ClusterEventWithHint(
                ClusterEvent(EventResource.NODE, node_actions), hints.schedulable_after_node_change
            ),
        )

    # -- PreFilter and its extensions ---------------------------------------------------

    @hookimpl
    def pre_filter(self, state: CycleState, pod: Pod, nodes: Sequence[NodeInfo]) -> Status | None:
        """Count the existing pods that matter to the pod per topology pair; Skip when
        there is nothing to check."""
        try:
            terms = pod_affinity_terms(pod)
        except InputError as e:
            problem = parse_error(pod) or _problem(e)
            return Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, f"parsing pod: {problem}")
        namespaces = self.handle.client.namespaces()
        table = self.handle.snapshot_shared_lister().node_table
        pre = from_index.pre_filter_state(pod, terms, table, self.index, namespaces)
        if pre is None or pre.is_trivial():
            return Status(Code.SKIP)
        state.write(PRE_FILTER_STATE_KEY, pre)
        return None

    def _update(
        self, state: CycleState, pod_info: PodInfo, node_info: NodeInfo, value: int
    ) -> Status | None:
        missing = _read(state, PRE_FILTER_STATE_KEY)
        if missing is not None:
            return missing
        if node_info.node is None:
            return Status.error("node not found")
        pre = state.read_as(PRE_FILTER_STATE_KEY, PreFilterState)
        pre.update_with_pod(pod_info, node_info.node, value)
        return None

    @hookimpl
    def pre_filter_add_pod(
        self, state: CycleState, pod_info_to_add: PodInfo, node_info: NodeInfo
    ) -> Status | None:
        """Count a pod as running on the node (a nominated pod, a preemption dry run)."""
        return self._update(state, pod_info_to_add, node_info, 1)

    @hookimpl
    def pre_filter_remove_pod(
        self, state: CycleState, pod_info_to_remove: PodInfo, node_info: NodeInfo
    ) -> Status | None:
        """Count a pod as gone from the node (a preemption victim)."""
        return self._update(state, pod_info_to_remove, node_info, -1)

    # -- Filter -------------------------------------------------------------------------

    @hookimpl
    def filter(self, state: CycleState, node_info: NodeInfo) -> Status | None:
        """The pod's affinity (UnschedulableAndUnresolvable), its anti-affinity, then
        existing pods' anti-affinity (Unschedulable: preemption may help)."""
        try:
            pre = state.read(PRE_FILTER_STATE_KEY)
        except StateNotFoundError:
            return _read(state, PRE_FILTER_STATE_KEY)
        node = node_info.node
        if node is None:
            return Status.error("node not found")
        assert isinstance(pre, PreFilterState)
        labels = node.metadata.labels
        if pre.affinity_terms and not satisfies_affinity(pre, labels):
            return Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, REASON_AFFINITY)
        if pre.anti_affinity and not satisfies_anti_affinity(pre, labels):
            return Status(Code.UNSCHEDULABLE, REASON_ANTI_AFFINITY)
        if pre.existing_anti_affinity and not satisfies_existing_anti_affinity(pre, labels):
            return Status(Code.UNSCHEDULABLE, REASON_EXISTING_ANTI_AFFINITY)
        return None

    @hookimpl
    def filter_batch(self, state: CycleState, table: NodeTable) -> NDArray[np.bool_]:
        if PRE_FILTER_STATE_KEY not in state:
            raise PluginError(f'error reading "{PRE_FILTER_STATE_KEY}" from cycleState')
        return columns.filter_mask(table, state.read_as(PRE_FILTER_STATE_KEY, PreFilterState))

    # -- Scoring ------------------------------------------------------------------------

    @hookimpl
    def pre_score(self, state: CycleState, pod: Pod, nodes: Sequence[NodeInfo]) -> Status | None:
        """Sum the weights per topology domain over the cluster; Skip when nothing scores."""
        if len(nodes) == 0:
            return Status(Code.SKIP)
        try:
            terms = pod_affinity_terms(pod)
        except InputError as e:
            return Status.error(f"failed to parse pod: {_problem(e)}")
        table = self.handle.snapshot_shared_lister().node_table
        namespaces = self.handle.client.namespaces()
        pre = from_index.pre_score_state(pod, terms, table, self.index, namespaces, self.args)
        if pre is None:
            return Status(Code.SKIP)
        state.write(PRE_SCORE_STATE_KEY, pre)
        return None

    @hookimpl
    def score(self, state: CycleState, node_info: NodeInfo) -> int | Status:
        """The summed weights of the node's topology domains."""
        missing = _read(state, PRE_SCORE_STATE_KEY)
        if missing is not None:
            return missing
        node = node_info.node
        if node is None:
            return Status.error("node not found")
        return state.read_as(PRE_SCORE_STATE_KEY, PreScoreState).score(node.metadata.labels)

    @hookimpl
    def score_batch(
        self, state: CycleState, table: NodeTable, rows: NDArray[np.intp]
    ) -> NDArray[np.int64]:
        if PRE_SCORE_STATE_KEY not in state:
            raise PluginError(f'error reading "{PRE_SCORE_STATE_KEY}" from cycleState')
        return columns.scores(table, rows, state.read_as(PRE_SCORE_STATE_KEY, PreScoreState))

    @hookimpl
    def normalize_score(self, state: CycleState, scores: NodeScoreList) -> Status | None:
        """min..max onto 0..100."""
        missing = _read(state, PRE_SCORE_STATE_KEY)
        if missing is not None:
            return missing
        if not state.read_as(PRE_SCORE_STATE_KEY, PreScoreState).totals:
            return None
        scores.scores[:] = normalize(scores.scores)
        return None
