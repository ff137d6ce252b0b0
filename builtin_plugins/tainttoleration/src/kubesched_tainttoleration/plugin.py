"""The TaintToleration plugin: Filter on hard taints, Score on PreferNoSchedule ones."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from attrs import frozen
from numpy.typing import NDArray

from kubesched import hookimpl
from kubesched.api import Pod, Toleration
from kubesched.errors import PluginError
from kubesched.framework import (
    DEFAULT_FEATURE_GATES,
    MAX_NODE_SCORE,
    TAINT_TOLERATION_COMPARISON_OPERATORS,
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
    QueueingHint,
    Status,
    default_normalize_score,
)
from kubesched_tainttoleration.hints import (
    schedulable_after_node_change,
    schedulable_after_pod_toleration_change,
)
from kubesched_tainttoleration.taint_sets import TaintSetIndex
from kubesched_tainttoleration.tolerations import (
    all_tolerated,
    count_untolerated,
    hard_taints,
    prefer_no_schedule_taints,
    prefer_no_schedule_tolerations,
)

REASON_UNTOLERATED = "node(s) had untolerated taint(s)"
PRE_SCORE_STATE_KEY = "PreScoreTaintToleration"
HARD_COLUMN = "TaintToleration/hardTaintSet"
PREFER_COLUMN = "TaintToleration/preferNoScheduleTaintSet"

_HARD_SETS = TaintSetIndex(hard_taints, all_tolerated, np.bool_, missing=False)
_PREFER_SETS = TaintSetIndex(prefer_no_schedule_taints, count_untolerated, np.int64, missing=0)


@frozen
class _PreScoreState:
    """The pod's tolerations that can cover PreferNoSchedule taints."""

    tolerations: tuple[Toleration, ...]

    def clone(self) -> _PreScoreState:
        return self


def _read_pre_score_state(state: CycleState) -> _PreScoreState | Status:
    if PRE_SCORE_STATE_KEY not in state:
        return Status.error(f'failed to read "{PRE_SCORE_STATE_KEY}" from cycleState: not found')
    return state.read_as(PRE_SCORE_STATE_KEY, _PreScoreState)


def _invalid_node_info() -> Status:
    return Status.error("invalid nodeInfo")


class TaintToleration:
    """Checks a pod tolerates a node's taints (upstream's TaintToleration).

    The per-node and batch hooks take every hookspec argument, so the runtime
    calls them without an adapter.
    """

    name = "TaintToleration"

    def __init__(self, args: object = None, handle: Handle | None = None) -> None:
        """No args; the handle's TaintTolerationComparisonOperators gate enables the Gt and
        Lt toleration operators (upstream's fts.EnableTaintTolerationComparisonOperators)."""
        gates = handle.feature_gates if handle is not None else DEFAULT_FEATURE_GATES
        self.comparison = gates.enabled(TAINT_TOLERATION_COMPARISON_OPERATORS)

    def node_hint(self, pod: Pod, old_obj: Any, new_obj: Any) -> QueueingHint:
        """The node-change queueing hint under this plugin's gate."""
        return schedulable_after_node_change(pod, old_obj, new_obj, self.comparison)

    @hookimpl
    def events_to_register(self) -> Sequence[ClusterEventWithHint]:
        return (
            ClusterEventWithHint(
                ClusterEvent(EventResource.NODE, ActionType.ADD | ActionType.UPDATE_NODE_TAINT),
                self.node_hint,
            ),
            ClusterEventWithHint(
                ClusterEvent(EventResource.POD, ActionType.UPDATE_POD_TOLERATION),
                schedulable_after_pod_toleration_change,
            ),
        )

    @hookimpl
    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Status | None:
        """Reject a node with a NoSchedule or NoExecute taint no toleration covers."""
        node = node_info.node
        if node is None:
            return _invalid_node_info()
        if _HARD_SETS.outcome(node.spec.taints, pod.spec.tolerations, self.comparison):
            return None
        return Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, REASON_UNTOLERATED)

    @hookimpl
    def filter_batch(self, state: CycleState, pod: Pod, table: NodeTable) -> NDArray[np.bool_]:
        """Filter over every row: one verdict per distinct hard-taint set, spread by id."""
        ids = table.column(HARD_COLUMN, _HARD_SETS.id_of, np.int64, node_only=True)
        verdicts: NDArray[np.bool_] = _HARD_SETS.values_for(
            tuple(pod.spec.tolerations), self.comparison
        )[ids]
        return verdicts

    @hookimpl
    def pre_score(self, state: CycleState, pod: Pod) -> None:
        state.write(
            PRE_SCORE_STATE_KEY,
            _PreScoreState(prefer_no_schedule_tolerations(pod.spec.tolerations)),
        )

    @hookimpl
    def score(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> int | Status:
        """The number of PreferNoSchedule taints the pod does not tolerate."""
        pre_score = _read_pre_score_state(state)
        if isinstance(pre_score, Status):
            return pre_score
        node = node_info.node
        if node is None:
            return _invalid_node_info()
        return int(_PREFER_SETS.outcome(node.spec.taints, pre_score.tolerations, self.comparison))

    @hookimpl
    def score_batch(
        self, state: CycleState, pod: Pod, table: NodeTable, rows: NDArray[np.intp]
    ) -> NDArray[np.int64]:
        """Score for `rows`: one count per distinct PreferNoSchedule set, spread by id."""
        pre_score = _read_pre_score_state(state)
        if isinstance(pre_score, Status):
            raise PluginError(pre_score.message)
        ids = table.column(PREFER_COLUMN, _PREFER_SETS.id_of, np.int64, node_only=True)[rows]
        values = _PREFER_SETS.values_for(pre_score.tolerations, self.comparison)
        counts: NDArray[np.int64] = values[ids]
        return counts

    @hookimpl
    def normalize_score(self, scores: NodeScoreList) -> None:
        """Fewer untolerated PreferNoSchedule taints score higher (reverse normalisation)."""
        default_normalize_score(MAX_NODE_SCORE, True, scores.scores)
