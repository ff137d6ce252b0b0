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
from kubesched_noderesourcesfit import batch, hints
from kubesched_noderesourcesfit.args import NodeResourcesFitArgs
from kubesched_noderesourcesfit.fit import FitRequest, compute_fit_request, fits_request
from kubesched_noderesourcesfit.scoring import build_scorer, score_node, score_requests

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
        self._scorer = build_scorer(self._strategy)

    @kubesched.hookimpl
    def pre_filter(self, state: CycleState, pod: Pod, nodes: Sequence[NodeInfo]) -> None:
        state.write(PRE_FILTER_STATE_KEY, compute_fit_request(pod))

    @kubesched.hookimpl
    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Status | None:
        try:
            request = _read(state, PRE_FILTER_STATE_KEY, FitRequest)
        except PluginError as err:
            return Status.error(err)
        insufficient = fits_request(request, node_info, self._ignored, self._ignored_groups)
        if not insufficient:
            return None
        unresolvable = any(r.unresolvable for r in insufficient)
        code = Code.UNSCHEDULABLE_AND_UNRESOLVABLE if unresolvable else Code.UNSCHEDULABLE
        return Status(code, *(r.reason for r in insufficient))

    @kubesched.hookimpl
    def filter_batch(self, state: CycleState, pod: Pod, table: NodeTable) -> NDArray[np.bool_]:
        request = _read(state, PRE_FILTER_STATE_KEY, FitRequest)
        return batch.fits_batch(request, table, self._ignored, self._ignored_groups)

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
        return score_node(self._scorer, self._strategy.resources, node_info, requests)

    @kubesched.hookimpl
    def score_batch(
        self, state: CycleState, pod: Pod, table: NodeTable, rows: NDArray[np.intp]
    ) -> NDArray[np.int64]:
        requests = self._score_requests(state, pod)
        return batch.score_batch(self._strategy, table, rows, requests)

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
