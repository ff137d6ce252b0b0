"""RandomScore: one feasible node, drawn at random, gets the maximum score.

PreScore draws the node with the scheduler's seeded random source, and the
pod's devices there at random among those that fit; every other node scores
0.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from attrs import frozen
from numpy.typing import NDArray

from kubesched import hookimpl
from kubesched.api import Pod
from kubesched.errors import PluginError
from kubesched.framework import MAX_NODE_SCORE, CycleState, Handle, NodeInfo, NodeTable, Status
from kubesched_gpushare.devices import device_free
from kubesched_gpushare.resources import fitting
from kubesched_gpushare.scoring import read_request
from kubesched_gpushare.state import choose

PICK_KEY = "PreScoreRandomScore"


@frozen
class _Pick:
    node: str

    def clone(self) -> _Pick:
        return self


class RandomScore:
    """A random feasible node, and random devices on it."""

    name = "RandomScore"

    def __init__(self, args: object, handle: Handle) -> None:
        self._rng = handle.rng

    @hookimpl
    def pre_score(self, state: CycleState, pod: Pod, nodes: Sequence[NodeInfo]) -> Status | None:
        request = read_request(state, pod)
        if isinstance(request, Status):
            return request
        if not nodes:
            return None
        node_info = nodes[self._rng.randrange(len(nodes))]
        state.write(PICK_KEY, _Pick(node_info.name))
        if request.count:
            candidates = fitting(device_free(node_info), request)
            if len(candidates) >= request.count:
                devices = self._rng.sample(candidates, request.count)
                choose(state, node_info.name, tuple(sorted(devices)))
        return None

    @hookimpl
    def score(self, state: CycleState, node_info: NodeInfo) -> int | Status:
        if PICK_KEY not in state:
            return Status.error(f'failed to read "{PICK_KEY}" from cycleState: not found')
        pick = state.read_as(PICK_KEY, _Pick)
        return MAX_NODE_SCORE if node_info.name == pick.node else 0

    @hookimpl
    def score_batch(
        self, state: CycleState, table: NodeTable, rows: NDArray[np.intp]
    ) -> NDArray[np.int64]:
        if PICK_KEY not in state:
            raise PluginError(f'failed to read "{PICK_KEY}" from cycleState: not found')
        picked = table.index[state.read_as(PICK_KEY, _Pick).node]
        scores: NDArray[np.int64] = np.where(rows == picked, MAX_NODE_SCORE, 0).astype(np.int64)
        return scores
