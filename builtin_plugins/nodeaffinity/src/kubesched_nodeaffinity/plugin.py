"""The NodeAffinity plugin: nodeSelector and node affinity, required (Filter) and
preferred (Score), plus the scheduler-enforced `addedAffinity` of its args."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

import numpy as np
from attrs import frozen
from numpy.typing import NDArray

from kubesched import hookimpl
from kubesched.api import Node, Pod
from kubesched.errors import ConfigError, PluginError
from kubesched.framework import (
    MAX_NODE_SCORE,
    ActionType,
    ClusterEvent,
    ClusterEventWithHint,
    Code,
    CycleState,
    EventResource,
    NodeInfo,
    NodeScoreList,
    NodeTable,
    PreFilterResult,
    Status,
    default_normalize_score,
)
from kubesched_nodeaffinity import evaluator
from kubesched_nodeaffinity.args import NodeAffinityArgs
from kubesched_nodeaffinity.columns import TableView
from kubesched_nodeaffinity.evaluator import NodeView, Truth, View
from kubesched_nodeaffinity.hints import schedulable_after_node_change
from kubesched_nodeaffinity.pod_affinity import (
    RequiredNodeAffinity,
    pinned_node_names,
    preferred_node_affinity,
    required_node_affinity,
    required_selector,
)
from kubesched_nodeaffinity.selectors import (
    NodeSelectorMatcher,
    PreferredTerms,
    SelectorParseError,
    parse_node_selector,
    parse_preferred_terms,
)

REASON_POD = "node(s) didn't match Pod's node affinity/selector"
REASON_ENFORCED = "node(s) didn't match scheduler-enforced node affinity"
REASON_CONFLICT = "pod affinity terms conflict"
PRE_FILTER_STATE_KEY = "PreFilterNodeAffinity"
PRE_SCORE_STATE_KEY = "PreScoreNodeAffinity"

_NO_NODE = Node()
"""What a NodeInfo without a node object is matched as: no name, no labels."""


@frozen
class _PreFilterState:
    """The pod's parsed nodeSelector and required affinity; pods added or removed do not
    change it, so clones share it."""

    required: RequiredNodeAffinity

    def clone(self) -> _PreFilterState:
        return self


@frozen
class _PreScoreState:
    """The pod's parsed preferred terms (None when it has none)."""

    preferred: PreferredTerms | None

    def clone(self) -> _PreScoreState:
        return self


def _node_of(node_info: NodeInfo) -> Node:
    return node_info.node or _NO_NODE


class NodeAffinity:
    """Checks and scores nodes against the pod's nodeSelector and node affinity."""

    name = "NodeAffinity"
    args_type = NodeAffinityArgs
    args_kind = "NodeAffinityArgs"

    def __init__(self, args: NodeAffinityArgs | None = None, handle: object = None) -> None:
        """Parse the added affinity once; invalid args raise ConfigError with every problem."""
        args = args or NodeAffinityArgs()
        problems = args.validate("")
        if problems:
            raise ConfigError(problems)
        added = args.added_affinity
        required = added.required_during_scheduling_ignored_during_execution if added else None
        preferred = added.preferred_during_scheduling_ignored_during_execution if added else []
        self._added_required: NodeSelectorMatcher | None = (
            None if required is None else parse_node_selector(required)
        )
        self._added_preferred: PreferredTerms | None = (
            parse_preferred_terms(preferred) if preferred else None
        )

    @hookimpl
    def events_to_register(self) -> Sequence[ClusterEventWithHint]:
        return (
            ClusterEventWithHint(
                ClusterEvent(EventResource.NODE, ActionType.ADD | ActionType.UPDATE_NODE_LABEL),
                partial(schedulable_after_node_change, self._added_required),
            ),
        )

    @hookimpl
    def pre_filter(self, state: CycleState, pod: Pod) -> Status | PreFilterResult | None:
        """Parse the pod's requirements once; Skip when there are none; narrow to the
        nodes named by `matchFields: metadata.name In [...]` when every term names some."""
        selector = required_selector(pod)
        if selector is None and self._added_required is None and not pod.spec.node_selector:
            return Status(Code.SKIP)
        state.write(PRE_FILTER_STATE_KEY, _PreFilterState(required_node_affinity(pod)))
        if selector is None or not selector.node_selector_terms:
            return None
        names = pinned_node_names(selector)
        if names is None:
            return None
        if not names:
            return Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, REASON_CONFLICT)
        return PreFilterResult(names)

    def _required(self, state: CycleState, pod: Pod) -> RequiredNodeAffinity:
        """From PreFilter's state, or parsed here when PreFilter did not run."""
        if PRE_FILTER_STATE_KEY in state:
            return state.read_as(PRE_FILTER_STATE_KEY, _PreFilterState).required
        return required_node_affinity(pod)

    def _enforced(self, view: View) -> Truth:
        """Whether the node(s) match the scheduler-enforced affinity of the args."""
        added = self._added_required
        return view.constant(True) if added is None else evaluator.selector(added, view)

    def filter_masks(
        self, state: CycleState, pod: Pod, table: NodeTable
    ) -> tuple[NDArray[np.bool_], NDArray[np.bool_]]:
        """Over every row: matches the enforced affinity, matches the pod's own. Filter's
        verdict and reason for a row follow from the two, as `filter` derives them."""
        view = TableView(table)
        return self._enforced(view), evaluator.required(self._required(state, pod), view)

    @hookimpl
    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Status | None:
        meta = _node_of(node_info).metadata
        view = NodeView(meta.labels, meta.name)
        added = self._added_required
        if added is not None and not evaluator.selector(added, view):
            return Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, REASON_ENFORCED)
        if not evaluator.required(self._required(state, pod), view):
            return Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, REASON_POD)
        return None

    @hookimpl
    def filter_batch(self, state: CycleState, pod: Pod, table: NodeTable) -> NDArray[np.bool_]:
        enforced, own = self.filter_masks(state, pod, table)
        return enforced & own

    @hookimpl
    def pre_score(self, state: CycleState, pod: Pod) -> Status | None:
        """Parse the pod's preferred terms once; Skip when neither the pod nor the args
        have any; an Error when the pod's terms do not parse."""
        try:
            preferred = preferred_node_affinity(pod)
        except SelectorParseError as e:
            return Status.error(e)
        if preferred is None and self._added_preferred is None:
            return Status(Code.SKIP)
        state.write(PRE_SCORE_STATE_KEY, _PreScoreState(preferred))
        return None

    def _preferred(self, state: CycleState, pod: Pod) -> PreferredTerms | None:
        """From PreScore's state, or parsed here (raising SelectorParseError) without it."""
        if PRE_SCORE_STATE_KEY in state:
            return state.read_as(PRE_SCORE_STATE_KEY, _PreScoreState).preferred
        return preferred_node_affinity(pod)

    def _scoring_terms(self, state: CycleState, pod: Pod) -> list[PreferredTerms]:
        preferred = self._preferred(state, pod)
        return [t for t in (self._added_preferred, preferred) if t is not None]

    @hookimpl
    def score(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> int | Status:
        """The summed weights of the added and the pod's preferred terms the node matches."""
        try:
            terms = self._scoring_terms(state, pod)
        except SelectorParseError as e:
            return Status.error(e)
        if not terms:
            return 0
        meta = _node_of(node_info).metadata
        view = NodeView(meta.labels, meta.name)
        return sum(int(evaluator.preferred(t, view)) for t in terms)

    @hookimpl
    def score_batch(
        self, state: CycleState, pod: Pod, table: NodeTable, rows: NDArray[np.intp]
    ) -> NDArray[np.int64]:
        try:
            terms = self._scoring_terms(state, pod)
        except SelectorParseError as e:
            raise PluginError(str(e)) from e
        scores = np.zeros(len(rows), dtype=np.int64)
        view = TableView(table)
        for t in terms:
            scores += np.broadcast_to(evaluator.preferred(t, view), (len(table),))[rows]
        return scores

    @hookimpl
    def normalize_score(self, scores: NodeScoreList) -> None:
        """Scale so the best node scores 100."""
        default_normalize_score(MAX_NODE_SCORE, False, scores.scores)
