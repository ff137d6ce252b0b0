"""Finding a node for one pod: PreFilter, Filter, Score, selection (upstream's schedulePod).

Filtering visits nodes from where the previous pod stopped and stops once
`num_feasible_nodes_to_find` nodes pass; a pod nominated to a node tries that
node alone first; one feasible node is taken without scoring; the highest
total score wins, ties broken uniformly at random by the scheduler's seeded generator
(v1.30's selectHost did so; v1.35 pops a heap whose order among tied nodes depends on the
parallel Filter's timing, which no seed reproduces), or by the `first` rule (`ties`).
The scheduler's extenders filter after the Filter plugins and add their
scores to the plugins' totals (`extenders.cycle`).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Mapping, Sequence

import numpy as np
from attrs import define, field
from numpy.typing import NDArray

from kubesched.api import Pod
from kubesched.framework._cycle_state import CycleState
from kubesched.framework._diagnosis import Diagnosis, FitError
from kubesched.framework._extender import EXTENDER_NAME, ExtenderError
from kubesched.framework._node_table import RowView
from kubesched.framework._runtime import FilterOutcome, Framework, ScoreOutcome
from kubesched.framework._status import Code, Status
from kubesched.scheduler.extenders import (
    ExtenderVerdicts,
    HTTPExtender,
    find_nodes_that_pass_extenders,
    has_filters,
    has_prioritizers,
    prioritize_with_extenders,
)
from kubesched.scheduler.snapshot import Snapshot
from kubesched.scheduler.ties import TIES_FIRST, TIES_RANDOM, first_in_order

MIN_FEASIBLE_NODES_TO_FIND = 100
MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND = 5
NO_NODES_AVAILABLE = "no nodes available to schedule pods"


def num_feasible_nodes_to_find(percentage: int, num_all_nodes: int) -> int:
    """How many feasible nodes are enough (upstream's numFeasibleNodesToFind).

    `percentage` 0 is adaptive: 50 % minus 1 % per 125 nodes, at least 5 %.
    """
    if num_all_nodes < MIN_FEASIBLE_NODES_TO_FIND:
        return num_all_nodes
    if percentage == 0:
        percentage = max(50 - num_all_nodes // 125, MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND)
    return max(num_all_nodes * percentage // 100, MIN_FEASIBLE_NODES_TO_FIND)


class NodeStatusView(Mapping[str, Status]):
    """Every snapshot node's Filter status: recorded ones, the absent-node status for the rest
    (upstream's NodeToStatus, as PostFilter reads it)."""

    def __init__(self, snapshot: Snapshot, diagnosis: Diagnosis) -> None:
        self._snapshot = snapshot
        self._diagnosis = diagnosis

    def __getitem__(self, name: str) -> Status:
        status = self._diagnosis.node_to_status.get(name)
        if status is not None:
            return status
        if self._snapshot.get(name) is None:
            raise KeyError(name)
        return self._diagnosis.absent_nodes_status

    def get(self, name: str, default: Status | None = None) -> Status | None:  # type: ignore[override]
        """`self[name]`, or `default` for a node not in the snapshot (read once per node)."""
        status = self._diagnosis.node_to_status.get(name)
        if status is not None:
            return status
        return default if self._snapshot.get(name) is None else self._diagnosis.absent_nodes_status

    def __iter__(self) -> Iterator[str]:
        return iter(self._snapshot.node_table.names)

    def __len__(self) -> int:
        return self._snapshot.num_nodes


@define
class ScheduleResult:
    """The chosen node, how many nodes were looked at and passed, and what Filter and Score
    said about each (for explanations): `feasible_rows` are snapshot table rows, aligned
    with `scores`."""

    host: str
    evaluated: int
    feasible: int
    filter_statuses: dict[str, Status] = field(factory=dict)
    feasible_rows: NDArray[np.intp] = field(factory=lambda: np.empty(0, dtype=np.intp))
    scores: ScoreOutcome | None = None
    extender_totals: NDArray[np.int64] | None = None
    """The extenders' part of each feasible row's total (None: no extender scored)."""


class ScheduleError(Exception):
    """The cycle failed with an error (not a rejection); `status` is the Error status."""

    def __init__(self, status: Status) -> None:
        self.status = status
        super().__init__(status.message)


@define
class Algorithm:
    """Upstream's schedulePod for one scheduler: the round-robin start index lives here."""

    rng: random.Random
    percentage_of_nodes_to_score: int = 0
    next_start_node_index: int = 0
    extenders: Sequence[HTTPExtender] = ()
    verdicts: ExtenderVerdicts = field(factory=ExtenderVerdicts)
    """What the extenders said in the latest attempt (for explanations)."""
    tie_rule: str = TIES_RANDOM
    """How a tie between the best nodes is broken (`kubesched.scheduler.ties`)."""
    tie_order: Mapping[str, int] = field(factory=dict)
    """The `first` rule's order of the node names (`ties.node_order`)."""

    def schedule_pod(
        self,
        fw: Framework,
        state: CycleState,
        pod: Pod,
        snapshot: Snapshot,
        *,
        reasons: bool = True,
    ) -> ScheduleResult:
        """The node for `pod`; raises FitError when none fits, ScheduleError on errors.

        With `reasons=False` (a pod not explained) the statuses of nodes that batch masks
        rejected are worked out only if the pod fits nowhere: the result's
        `filter_statuses` then lack them, `evaluated` still counts them."""
        num_nodes = snapshot.num_nodes
        if num_nodes == 0:
            raise ScheduleError(Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, NO_NODES_AVAILABLE))
        diagnosis = Diagnosis()
        self.verdicts = ExtenderVerdicts()
        deferred: list[FilterOutcome] = []
        lazy = not reasons and not self.extenders
        rows = self._find_nodes_that_fit(
            fw, state, pod, snapshot, diagnosis, deferred if lazy else None
        )
        if not len(rows):
            _explain_deferred(deferred, diagnosis)
            raise FitError(pod, num_nodes, diagnosis)
        statuses = diagnosis.node_to_status
        rejected = _rejected_count(snapshot, diagnosis, deferred)
        names = snapshot.node_table.names
        if len(rows) == 1:
            return ScheduleResult(names[int(rows[0])], 1 + rejected, 1, statuses, rows)
        scores = self._prioritize(fw, state, pod, snapshot, rows)
        extra = self._prioritize_with_extenders(pod, snapshot, rows)
        if scores is not None:
            totals = scores.totals if extra is None else scores.totals + extra
        else:  # no Score plugin: all 1, or the extenders' scores alone (upstream's)
            totals = np.ones(len(rows), dtype=np.int64) if extra is None else extra
        best = np.flatnonzero(totals == totals.max())
        if self.tie_rule == TIES_FIRST and len(best) > 1:
            host = first_in_order([names[int(rows[i])] for i in best.tolist()], self.tie_order)
        else:
            host = names[int(rows[best[self.rng.randrange(len(best))]])]
        return ScheduleResult(host, len(rows) + rejected, len(rows), statuses, rows, scores, extra)

    def _find_nodes_that_fit(
        self,
        fw: Framework,
        state: CycleState,
        pod: Pod,
        snapshot: Snapshot,
        diagnosis: Diagnosis,
        deferred: list[FilterOutcome] | None = None,
    ) -> NDArray[np.intp]:
        """Upstream's findNodesThatFitPod. With `deferred`, the filter outcomes whose
        rejected rows are not yet explained are appended there instead of being
        explained into `diagnosis` (`_explain_deferred` does it, in the same order)."""
        table = snapshot.node_table
        pre_result, status, narrowing = fw.run_pre_filter_plugins(state, pod, snapshot.node_infos())
        diagnosis.unschedulable_plugins = set(narrowing)
        if status is not None and not status.is_success():
            if not status.is_rejected():
                raise ScheduleError(status)
            diagnosis.absent_nodes_status = status
            diagnosis.pre_filter_msg = status.message
            diagnosis.add_plugin_status(status)
            return np.empty(0, dtype=np.intp)
        nominated = pod.status.nominated_node_name
        if nominated and nominated in table.index:
            rows = np.array([table.index[nominated]], dtype=np.intp)
            outcome = self._filter(fw, state, pod, snapshot, rows, 0, 1, diagnosis, deferred)
            if outcome.error is None and len(outcome.rows):
                try:
                    passed = self._pass_extenders(pod, snapshot, outcome.rows, diagnosis)
                except ExtenderError:
                    passed = np.empty(0, dtype=np.intp)  # upstream logs it and goes on
                if len(passed):
                    return passed
        rows = fw.candidate_rows(table, pre_result)
        if pre_result is not None and pre_result.node_names is not None:
            plugins = " ".join(sorted(narrowing))
            diagnosis.absent_nodes_status = Status(
                Code.UNSCHEDULABLE_AND_UNRESOLVABLE, f"node(s) didn't satisfy plugin(s) [{plugins}]"
            )
        pct = fw.percentage_of_nodes_to_score
        to_find = num_feasible_nodes_to_find(
            self.percentage_of_nodes_to_score if pct is None else pct, len(rows)
        )
        scoring = fw.has_score_plugins() or has_prioritizers(self.extenders)
        if not scoring and not has_filters(self.extenders):
            to_find = 1
        outcome = self._filter(
            fw, state, pod, snapshot, rows, self.next_start_node_index, to_find, diagnosis, deferred
        )
        processed = len(outcome.rows) + _rejected_count(snapshot, diagnosis, deferred or ())
        self.next_start_node_index = (self.next_start_node_index + processed) % snapshot.num_nodes
        if outcome.error is not None:
            raise ScheduleError(outcome.error)
        if not self.extenders:
            return outcome.rows
        try:
            passed = self._pass_extenders(pod, snapshot, outcome.rows, diagnosis)
        except ExtenderError as err:
            raise ScheduleError(Status.error(err)) from None
        if len(passed) != len(outcome.rows):
            diagnosis.unschedulable_plugins.add(EXTENDER_NAME)
        return passed

    def _pass_extenders(
        self, pod: Pod, snapshot: Snapshot, rows: NDArray[np.intp], diagnosis: Diagnosis
    ) -> NDArray[np.intp]:
        """The rows every interested extender lets through (upstream's
        findNodesThatPassExtenders)."""
        if not self.extenders or not len(rows):
            return rows
        table = snapshot.node_table
        nodes = [table.node_infos[row].node for row in rows.tolist()]
        passed = find_nodes_that_pass_extenders(
            self.extenders,
            pod,
            [n for n in nodes if n is not None],
            diagnosis.node_to_status,
            self.verdicts,
        )
        return np.array([table.index[n.name] for n in passed], dtype=np.intp)

    def _prioritize_with_extenders(
        self, pod: Pod, snapshot: Snapshot, rows: NDArray[np.intp]
    ) -> NDArray[np.int64] | None:
        """The extenders' weighted scores of the feasible rows (None without extenders)."""
        if not self.extenders:
            return None
        table = snapshot.node_table
        nodes = [table.node_infos[row].node for row in rows.tolist()]
        totals = prioritize_with_extenders(
            self.extenders, pod, [n for n in nodes if n is not None], self.verdicts
        )
        names = table.names
        return np.array([totals.get(names[row], 0) for row in rows.tolist()], dtype=np.int64)

    @staticmethod
    def _filter(
        fw: Framework,
        state: CycleState,
        pod: Pod,
        snapshot: Snapshot,
        rows: NDArray[np.intp],
        start: int,
        to_find: int,
        diagnosis: Diagnosis,
        deferred: list[FilterOutcome] | None = None,
    ) -> FilterOutcome:
        outcome = fw.find_feasible_nodes(
            state,
            pod,
            snapshot.node_table,
            rows=rows,
            start=start,
            num_to_find=to_find,
            reasons=deferred is None,
        )
        if len(outcome.unexplained) and deferred is not None:
            deferred.append(outcome)
        else:
            _record(outcome, diagnosis)
        return outcome

    @staticmethod
    def _prioritize(
        fw: Framework, state: CycleState, pod: Pod, snapshot: Snapshot, rows: NDArray[np.intp]
    ) -> ScoreOutcome | None:
        """Scores of the feasible rows; None when the profile has no Score plugin (all 1)."""
        if not fw.has_score_plugins():
            return None
        nodes = RowView(snapshot.node_table.node_infos, rows)
        status = fw.run_pre_score_plugins(state, pod, nodes)
        if status is not None and not status.is_success():
            raise ScheduleError(status)
        scores = fw.run_score_plugins(state, pod, snapshot.node_table, rows)
        if isinstance(scores, Status):
            raise ScheduleError(scores)
        return scores


def _record(outcome: FilterOutcome, diagnosis: Diagnosis) -> None:
    """Add a filter outcome's statuses to the diagnosis (upstream's NodeToStatus.Set and
    AddPluginStatus)."""
    diagnosis.node_to_status.update(outcome.statuses)
    statuses = outcome.statuses.values()
    for status in dict(zip(map(id, statuses), statuses, strict=True)).values():
        diagnosis.add_plugin_status(status)


def _explain_deferred(deferred: Sequence[FilterOutcome], diagnosis: Diagnosis) -> None:
    """Work out the deferred outcomes' reasons into the diagnosis, as an eager filter would
    have recorded them; a per-node form contradicting its mask is a ScheduleError."""
    for outcome in deferred:
        outcome.explain_rejected()
        if outcome.error is not None:
            raise ScheduleError(outcome.error)
        _record(outcome, diagnosis)


def _rejected_count(
    snapshot: Snapshot, diagnosis: Diagnosis, deferred: Iterable[FilterOutcome]
) -> int:
    """How many distinct nodes were rejected: the recorded statuses and the deferred ones
    (a node rejected on both passes, the nominated node's and the full one, counts once)."""
    recorded = diagnosis.node_to_status
    deferred = list(deferred)
    count = len(recorded)
    if not recorded and len(deferred) <= 1:
        return count + sum(len(outcome.unexplained) for outcome in deferred)
    seen = {snapshot.node_table.index.get(name, -1) for name in recorded}
    for outcome in deferred:
        for row in outcome.unexplained.tolist():
            if row not in seen:
                seen.add(row)
                count += 1
    return count
