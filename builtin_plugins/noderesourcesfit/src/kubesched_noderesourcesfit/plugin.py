"""The NodeResourcesFit plugin: PreFilter, Filter, PreScore, Score and their batch forms."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

import numpy as np
from attrs import frozen
from numpy.typing import NDArray

import kubesched
from kubesched.api import Pod
from kubesched.errors import ConfigError, PluginError
from kubesched.framework import (
    ActionType,
    ClusterEvent,
    ClusterEventWithHint,
    Code,
    CycleState,
    EventResource,
    Handle,
    NodeInfo,
    NodeTable,
    StateData,
    Status,
)
from kubesched_noderesourcesfit import hints
from kubesched_noderesourcesfit.args import NodeResourcesFitArgs
from kubesched_noderesourcesfit.batch import (
    InsufficientMatrix,
    fits_batch,
    score_batch,
    shortage_reasons,
)
from kubesched_noderesourcesfit.fit import (
    FitCheck,
    InsufficientResource,
    compute_fit_request,
    fit_check,
    node_shortages,
)
from kubesched_noderesourcesfit.scoring import score, score_requests
from kubesched_noderesourcesfit.views import SCALAR, NodeView

NAME = "NodeResourcesFit"
PRE_FILTER_STATE_KEY = "PreFilter" + NAME
PRE_SCORE_STATE_KEY = "PreScore" + NAME

S = TypeVar("S", bound=StateData)


@frozen
class ScoreRequests:
    """The pod's request per scored resource, computed once in PreScore (immutable)."""

    values: tuple[int, ...]

    def clone(self) -> ScoreRequests:
        return self


def filter_status(insufficient: Sequence[InsufficientResource]) -> Status | None:
    """Filter's verdict from what the node lacks: unresolvable when some request exceeds the
    node's whole allocatable."""
    if not insufficient:
        return None
    unresolvable = any(r.unresolvable for r in insufficient)
    code = Code.UNSCHEDULABLE_AND_UNRESOLVABLE if unresolvable else Code.UNSCHEDULABLE
    return Status(code, *(r.reason for r in insufficient))


def _read(state: CycleState, key: str, kind: type[S]) -> S:
    """A state PreFilter/PreScore wrote; upstream's message when it is missing."""
    if key not in state:
        raise PluginError(f'error reading "{key}" from cycleState: not found')
    return state.read_as(key, kind)


class NodeResourcesFit:
    """Checks that the node has room for the pod's requests, and scores how full it would be.

    Hooks take every argument of their hookspec, in order, so the runtime calls them directly.
    """

    name = NAME
    args_type = NodeResourcesFitArgs
    args_kind = "NodeResourcesFitArgs"

    def __init__(self, args: NodeResourcesFitArgs | None, handle: Handle | None) -> None:
        self.args = args if args is not None else NodeResourcesFitArgs()
        errors = self.args.validate()
        if errors:
            raise ConfigError(errors)
        self.handle = handle
        self._ignored = frozenset(self.args.ignored_resources)
        self._ignored_groups = frozenset(self.args.ignored_resource_groups)
        self._strategy = self.args.scoring_strategy

    @kubesched.hookimpl
    def pre_filter(self, state: CycleState, pod: Pod, nodes: Sequence[NodeInfo]) -> None:
        check = fit_check(compute_fit_request(pod), self._ignored, self._ignored_groups)
        state.write(PRE_FILTER_STATE_KEY, check)

    @kubesched.hookimpl
    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Status | None:
        try:
            check = _read(state, PRE_FILTER_STATE_KEY, FitCheck)
        except PluginError as err:
            return Status.error(err)
        return filter_status(node_shortages(check, node_info))

    @kubesched.hookimpl
    def filter_batch(self, state: CycleState, pod: Pod, table: NodeTable) -> NDArray[np.bool_]:
        return fits_batch(_read(state, PRE_FILTER_STATE_KEY, FitCheck), table)

    @kubesched.hookimpl
    def filter_batch_reasons(
        self, state: CycleState, pod: Pod, table: NodeTable, rows: NDArray[np.intp]
    ) -> list[Status | None]:
        check = _read(state, PRE_FILTER_STATE_KEY, FitCheck)
        shortages = shortage_reasons(check, table, rows)
        statuses: dict[tuple[bool, tuple[str, ...]], Status | None] = {
            (unres, reasons): Status(
                Code.UNSCHEDULABLE_AND_UNRESOLVABLE if unres else Code.UNSCHEDULABLE, *reasons
            )
            if reasons
            else None
            for unres, reasons in set(shortages)
        }  # one Status per kind of shortage, shared by the nodes that have it
        return [statuses[shortage] for shortage in shortages]

    def insufficient_matrix(self, state: CycleState, table: NodeTable) -> InsufficientMatrix:
        """What every row lacks for the pod PreFilter saw: filter_batch's mask and each
        row's reasons come from it."""
        return InsufficientMatrix(_read(state, PRE_FILTER_STATE_KEY, FitCheck), table)

    @kubesched.hookimpl
    def pre_score(self, state: CycleState, pod: Pod, nodes: Sequence[NodeInfo]) -> None:
        requests = score_requests(pod, self._strategy.resources)
        state.write(PRE_SCORE_STATE_KEY, ScoreRequests(requests))

    def _score_requests(self, state: CycleState, pod: Pod) -> Sequence[int]:
        """PreScore's result, or computed now when PreScore did not run (as upstream)."""
        if PRE_SCORE_STATE_KEY in state:
            return _read(state, PRE_SCORE_STATE_KEY, ScoreRequests).values
        return score_requests(pod, self._strategy.resources)

    @kubesched.hookimpl
    def score(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> int:
        requests = self._score_requests(state, pod)
        return int(score(self._strategy, NodeView(node_info), requests, SCALAR))

    @kubesched.hookimpl
    def score_batch(
        self, state: CycleState, pod: Pod, table: NodeTable, rows: NDArray[np.intp]
    ) -> NDArray[np.int64]:
        requests = self._score_requests(state, pod)
        return score_batch(self._strategy, table, rows, requests)

    @kubesched.hookimpl
    def events_to_register(self) -> Sequence[ClusterEventWithHint]:
        pod_event = ClusterEvent(
            EventResource.POD, ActionType.DELETE | ActionType.UPDATE_POD_SCALE_DOWN
        )
        node_event = ClusterEvent(
            EventResource.NODE, ActionType.ADD | ActionType.UPDATE_NODE_ALLOCATABLE
        )
        return [
            ClusterEventWithHint(pod_event, hints.after_pod_event),
            ClusterEventWithHint(node_event, hints.after_node_change),
        ]
