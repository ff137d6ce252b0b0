"""The Score phase: PreScore, Score per node or in batch, NormalizeScore, weights."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence

import numpy as np
from attrs import define, field
from numpy.typing import NDArray

from kubesched.api import Pod
from kubesched.framework._cycle_state import CycleState
from kubesched.framework._instrumentation import Instrumented
from kubesched.framework._node_table import NodeTable, RowView
from kubesched.framework._plans import Plans
from kubesched.framework._plugin_calls import PluginCall, quote, wrap_error
from kubesched.framework._status import Code, Status
from kubesched.framework._types import (
    MAX_NODE_SCORE,
    MIN_NODE_SCORE,
    NodeInfo,
    NodeScoreList,
)

_NONE = object()
"""No bad score found."""


def _is_numpy_int(value: object) -> bool:
    return isinstance(value, np.integer)


def _shown(value: object) -> str:
    """A returned value as a message shows it: its type, and a short repr."""
    text = repr(value)
    return f"{type(value).__name__} {text if len(text) <= 40 else text[:37] + '...'}"


@define
class ScoreOutcome:
    """Per-node totals (aligned with the scored rows) and each plugin's normalized and weighted
    scores."""

    totals: NDArray[np.int64]
    plugins: dict[str, tuple[NDArray[np.int64], NDArray[np.int64]]] = field(factory=dict)


class ScorePhase(Instrumented):
    """PreScore and Score over a profile's compiled score plans."""

    _plans: Plans
    _score: tuple[PluginCall, ...]
    _score_batch: Mapping[str, PluginCall]
    _normalize: Mapping[str, PluginCall]
    _weights: Mapping[str, int]

    def _prepare_score(self, plans: Plans, weights: Mapping[str, int]) -> None:
        self._score = plans["score"]
        self._score_batch = {c.plugin: c for c in plans["score_batch"]}
        self._normalize = {c.plugin: c for c in plans["normalize_score"]}
        self._weights = {c.plugin: weights.get(c.plugin, 1) or 1 for c in self._score}

    def run_pre_score_plugins(
        self, state: CycleState, pod: Pod, nodes: Sequence[NodeInfo]
    ) -> Status | None:
        """Every PreScore plugin; Skip skips that plugin's Score, anything else fails."""
        start = time.perf_counter()
        state.skip_score_plugins = skip = set()
        for call in self._plans["pre_score"]:
            status = call.status(state, pod, nodes)
            if status is not None and status.code == Code.SKIP:
                skip.add(call.plugin)
                continue
            self._count(call.plugin, "PreScore", 1)
            if status is None or status.code == Code.SUCCESS:
                continue
            error = wrap_error(f"running PreScore plugin {quote(call.plugin)}", status, call.plugin)
            self._observe("PreScore", error, start)
            return error
        self._observe("PreScore", None, start)
        return None

    def _raw_scores(
        self,
        state: CycleState,
        pod: Pod,
        table: NodeTable,
        rows: NDArray[np.intp],
        nodes: _Nodes,
        call: PluginCall,
    ) -> NDArray[np.int64] | Status:
        batch = self._score_batch.get(call.plugin)
        if batch is not None:
            value = batch(state, pod, table, rows)
            if isinstance(value, Status):
                return value
            array = np.asarray(value) if isinstance(value, (np.ndarray, list, tuple)) else None
            if array is None or array.dtype.kind not in "iu" or array.shape != (len(rows),):
                shown = f"an array of {array.dtype} {array.shape}" if array is not None else None
                return Status.error(
                    f"plugin {quote(call.plugin)} returned "
                    f"{shown or type(value).__name__} from score_batch, "
                    f"expected {len(rows)} integer scores",
                    plugin=call.plugin,
                )
            return array.astype(np.int64, copy=False)
        fn = call.fn
        try:
            values = [fn(state, pod, node_info) for node_info in nodes.get()]
        except KeyboardInterrupt:
            raise
        except BaseException as exc:
            return call.failed(exc)
        bad = next((v for v in values if type(v) is not int and not _is_numpy_int(v)), _NONE)
        if bad is not _NONE:
            if isinstance(bad, Status):
                return bad
            return Status.error(
                f"plugin {quote(call.plugin)} returned {_shown(bad)} from score, "
                "expected an int or a Status",
                plugin=call.plugin,
            )
        try:
            return np.fromiter(values, dtype=np.int64, count=len(values))
        except OverflowError:
            return Status.error(
                f"plugin {quote(call.plugin)} returned a score outside the int64 range",
                plugin=call.plugin,
            )

    def run_score_plugins(
        self, state: CycleState, pod: Pod, table: NodeTable, rows: NDArray[np.intp]
    ) -> ScoreOutcome | Status:
        """Score, NormalizeScore, range check and weights, over `rows` (upstream's
        RunScorePlugins); an error Status when any plugin fails."""
        start = time.perf_counter()
        skip = state.skip_score_plugins
        calls = [c for c in self._score if c.plugin not in skip] if skip else self._score
        raw: list[NDArray[np.int64]] = []
        nodes = _Nodes(table, rows)
        for call in calls:
            t0 = time.perf_counter()
            self._count(call.plugin, "Score", len(rows))
            scores = self._raw_scores(state, pod, table, rows, nodes, call)
            if isinstance(scores, Status):
                error = Status(
                    Code.ERROR,
                    f"running Score plugins: plugin {quote(call.plugin)} "
                    f"failed with: {scores.message}",
                    plugin=call.plugin,
                    err=scores.err,
                )
                self._observe("Score", error, start)
                return error
            self._observe_plugin(state, call.plugin, "Score", None, t0)
            raw.append(scores)
        names: RowView[str] | None = None
        for i, call in enumerate(calls):
            normalize = self._normalize.get(call.plugin)
            if normalize is None:
                continue
            if names is None:
                names = RowView(table.names, rows)
            score_list = NodeScoreList(names, raw[i])
            status = normalize.status(state, pod, score_list)
            if status is not None and status.code != Code.SUCCESS:
                error = Status(
                    Code.ERROR,
                    "running Normalize on Score plugins: "
                    f"plugin {quote(call.plugin)} failed with: {status.message}",
                    plugin=call.plugin,
                    err=status.err,
                )
                self._observe("Score", error, start)
                return error
            raw[i] = np.asarray(score_list.scores, dtype=np.int64)
        outcome = self._weigh(calls, raw, len(rows))
        self._observe("Score", None if isinstance(outcome, ScoreOutcome) else outcome, start)
        return outcome

    def _weigh(
        self, calls: Sequence[PluginCall], raw: list[NDArray[np.int64]], count: int
    ) -> ScoreOutcome | Status:
        """Range-check every plugin's normalized scores and add them up, weighted: one
        (plugins x rows) matrix, so the cost hardly grows with the number of plugins."""
        if not calls:
            return ScoreOutcome(totals=np.zeros(count, dtype=np.int64))
        matrix = np.empty((len(calls), count), dtype=np.int64)
        for i, scores in enumerate(raw):
            matrix[i] = scores
        if count and (matrix.max() > MAX_NODE_SCORE or matrix.min() < MIN_NODE_SCORE):
            for call, scores in zip(calls, raw, strict=True):
                bad = np.flatnonzero((scores > MAX_NODE_SCORE) | (scores < MIN_NODE_SCORE))
                if len(bad):
                    return Status(
                        Code.ERROR,
                        "applying score defaultWeights on Score plugins: "
                        f"plugin {quote(call.plugin)} returns an invalid score "
                        f"{int(scores[bad[0]])}, it should in the range of "
                        f"[{MIN_NODE_SCORE}, {MAX_NODE_SCORE}] after normalizing",
                        plugin=call.plugin,
                    )
        weights = np.array([self._weights[c.plugin] for c in calls], dtype=np.int64)
        weighted = matrix * weights[:, None]
        outcome = ScoreOutcome(totals=weighted.sum(axis=0, dtype=np.int64))
        for i, call in enumerate(calls):
            outcome.plugins[call.plugin] = (matrix[i], weighted[i])
        return outcome


class _Nodes:
    """The NodeInfos of the scored rows, listed only when a plugin without a batch form
    needs them."""

    __slots__ = ("_list", "_rows", "_table")

    def __init__(self, table: NodeTable, rows: NDArray[np.intp]) -> None:
        self._table = table
        self._rows = rows
        self._list: list[NodeInfo] | None = None

    def get(self) -> list[NodeInfo]:
        if self._list is None:
            self._list = list(map(self._table.node_infos.__getitem__, self._rows.tolist()))
        return self._list
