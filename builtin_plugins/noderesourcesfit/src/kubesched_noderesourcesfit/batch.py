"""Filter and Score over many nodes at once, on the snapshot's NodeTable columns.

Both run the kernels the per-node forms run (`fit.comparisons`, `scoring.score`), on
int64 columns instead of one node's ints: every division there has a non-negative
numerator and a positive denominator or goes through `trunc_div`, so numpy's results
equal Go's.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

import numpy as np
from numpy.typing import NDArray

from kubesched.api import PODS
from kubesched.framework import NodeTable
from kubesched_noderesourcesfit.args import ScoringStrategy
from kubesched_noderesourcesfit.fit import (
    TOO_MANY_PODS,
    Comparison,
    FitCheck,
    InsufficientResource,
    comparisons,
    insufficient,
)
from kubesched_noderesourcesfit.scoring import score
from kubesched_noderesourcesfit.views import ARRAY, TableView

Int64s = NDArray[np.int64]


class _Columns:
    """A NodeTable's resource columns of one kind, looked up by resource name."""

    __slots__ = ("_kind", "_table")

    def __init__(self, table: NodeTable, kind: str) -> None:
        self._table = table
        self._kind = kind

    def get(self, name: str, default: int, /) -> Int64s:
        return self._table.resource(self._kind, name)


def _compare(check: FitCheck, table: NodeTable) -> Iterator[Comparison]:
    allocatable, requested = _Columns(table, "allocatable"), _Columns(table, "requested")
    return comparisons(check, table.pod_count(), allocatable, requested)


def _fitting(compared: Iterable[Comparison]) -> NDArray[np.bool_]:
    """Rows where no comparison came out short."""
    lacking: NDArray[np.bool_] | None = None
    for *_, short in compared:
        lacking = short if lacking is None else lacking | short
    assert lacking is not None  # the pod slot is always compared
    fits: NDArray[np.bool_] = ~lacking
    return fits


def fits_batch(check: FitCheck, table: NodeTable) -> NDArray[np.bool_]:
    """filter_batch's mask: the insufficient-resource matrix folded as it is computed."""
    return _fitting(_compare(check, table))


class InsufficientMatrix:
    """Filter's comparisons over every row at once: one column per compared resource (pods
    first), True where the node lacks room. Both the mask and each row's reasons come from it.
    """

    def __init__(self, check: FitCheck, table: NodeTable) -> None:
        self._compared = list(_compare(check, table))

    def fits(self) -> NDArray[np.bool_]:
        """True for every row whose node has room (no resource short)."""
        return _fitting(self._compared)

    def insufficient_at(self, row: int) -> list[InsufficientResource]:
        """The row's InsufficientResources, equal to `fit.node_shortages` on its node."""
        return [
            insufficient(name, amount, int(used[row]), int(capacity[row]))
            for name, amount, used, capacity, short in self._compared
            if short[row]
        ]


def shortage_reasons(
    check: FitCheck, table: NodeTable, rows: NDArray[np.intp]
) -> list[tuple[bool, tuple[str, ...]]]:
    """For each of `rows`: (unresolvable, reasons) of what its node lacks, equal to
    `fit.node_shortages` on that node (reasons in upstream's order; no reasons when
    nothing is short)."""
    reasons: list[str] = []
    shorts: list[NDArray[np.bool_]] = []
    unresolvable = np.zeros(len(rows), dtype=bool)
    for name, amount, _used, capacity, short in _compare(check, table):
        short_rows = np.asarray(short, dtype=bool)[rows]
        shorts.append(short_rows)
        if name == PODS:
            reasons.append(TOO_MANY_PODS)
            continue
        reasons.append(f"Insufficient {name}")
        unresolvable |= short_rows & (amount > np.asarray(capacity)[rows])
    if not shorts:
        return [(False, ())] * len(rows)
    bits = np.int64 if len(shorts) < 63 else object  # a pattern's bit per compared resource
    weights = np.array([1 << i for i in range(len(shorts))], dtype=bits)
    patterns = (np.array(shorts, dtype=bits).T @ weights).tolist()
    named = {
        pattern: tuple(reason for i, reason in enumerate(reasons) if pattern >> i & 1)
        for pattern in set(patterns)
    }
    return [
        (unres, named[pattern])
        for unres, pattern in zip(unresolvable.tolist(), patterns, strict=True)
    ]


def score_batch(
    strategy: ScoringStrategy,
    table: NodeTable,
    rows: NDArray[np.intp],
    pod_requests_per_resource: Sequence[int],
) -> Int64s:
    """Scores of `rows`, equal to the per-node score of each of them."""
    scores = score(strategy, TableView(table, rows), pod_requests_per_resource, ARRAY)
    if isinstance(scores, np.ndarray) and scores.shape == (len(rows),):
        return scores.astype(np.int64, copy=False)
    return np.full(len(rows), scores, dtype=np.int64)  # no resource counted: one constant
