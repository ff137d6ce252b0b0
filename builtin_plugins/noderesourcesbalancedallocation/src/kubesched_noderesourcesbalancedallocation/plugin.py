"""The NodeResourcesBalancedAllocation plugin: favour nodes whose resources would be
used evenly with the pod on them."""

from __future__ import annotations

import numpy as np
from attrs import frozen
from numpy.typing import NDArray

from kubesched import hookimpl
from kubesched.api import Pod
from kubesched.errors import ConfigError
from kubesched.framework import Code, CycleState, Handle, NodeInfo, NodeTable, Status
from kubesched_noderesourcesbalancedallocation.args import NodeResourcesBalancedAllocationArgs
from kubesched_noderesourcesbalancedallocation.balance import (
    balanced_scores,
    node_amounts,
    scored_requests,
    table_amounts,
)

NAME = "NodeResourcesBalancedAllocation"
PRE_SCORE_STATE_KEY = "PreScore" + NAME


@frozen
class _PreScoreState:
    """The pod's request per scored resource, in the args' order (immutable)."""

    requests: tuple[int, ...]

    def clone(self) -> _PreScoreState:
        return self


class NodeResourcesBalancedAllocation:
    """Scores a node by how close to each other its resources' requested shares would be
    (upstream's NodeResourcesBalancedAllocation)."""

    name = NAME
    args_type = NodeResourcesBalancedAllocationArgs
    args_kind = "NodeResourcesBalancedAllocationArgs"

    def __init__(
        self, args: NodeResourcesBalancedAllocationArgs | None = None, handle: Handle | None = None
    ) -> None:
        self.args = args if args is not None else NodeResourcesBalancedAllocationArgs()
        errors = self.args.validate()
        if errors:
            raise ConfigError(errors)
        self._resources = self.args.resources

    def _requests(self, state: CycleState, pod: Pod) -> tuple[int, ...]:
        """PreScore's result, or computed now when PreScore did not run (as upstream)."""
        if PRE_SCORE_STATE_KEY in state:
            return state.read_as(PRE_SCORE_STATE_KEY, _PreScoreState).requests
        return scored_requests(pod, self._resources)

    @hookimpl
    def pre_score(self, state: CycleState, pod: Pod) -> Status | None:
        """Compute the pod's requests; Skip a pod that requests none of the resources
        (best-effort pods would otherwise all pile onto the same nodes)."""
        requests = scored_requests(pod, self._resources)
        if not any(requests):
            return Status(Code.SKIP)
        state.write(PRE_SCORE_STATE_KEY, _PreScoreState(requests))
        return None

    @hookimpl
    def score(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> int:
        requests = self._requests(state, pod)
        if not any(requests):
            return 0
        requested, allocatable = node_amounts(node_info, self._resources, requests)
        return int(balanced_scores(requested, allocatable)[0])

    @hookimpl
    def score_batch(
        self, state: CycleState, pod: Pod, table: NodeTable, rows: NDArray[np.intp]
    ) -> NDArray[np.int64]:
        requests = self._requests(state, pod)
        if not any(requests):
            return np.zeros(len(rows), dtype=np.int64)
        requested, allocatable = table_amounts(table, rows, self._resources, requests)
        return balanced_scores(requested, allocatable)
