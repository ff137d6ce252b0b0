"""What the kernels of Filter and Score read, one node or many at once.

The kernels in `fit` and `scoring` are written once over a view and a set of
arithmetic operations: with a `NodeView` and `SCALAR` they compute one node's
numbers as Python ints (the per-node hooks); with a `TableView` and `ARRAY`
the same code computes int64 columns over NodeTable rows (the batch hooks).
Go's int64 division truncates toward zero: `trunc_div` does that in both.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from kubesched.framework import NodeInfo, NodeTable

Value = Any
"""An int (one node) or an int64/bool array (one entry per row)."""


class NodeView:
    """One node's amounts, as ints (absent resources 0)."""

    __slots__ = ("_info",)

    def __init__(self, node_info: NodeInfo) -> None:
        self._info = node_info

    def pod_count(self) -> int:
        return len(self._info.pods)

    def allocatable(self, name: str) -> int:
        return self._info.allocatable.get(name, 0)

    def requested(self, name: str) -> int:
        return self._info.requested.get(name, 0)

    def non_zero_requested(self, name: str) -> int:
        return self._info.non_zero_requested.get(name, 0)


class TableView:
    """The same amounts as int64 columns over `rows` of a NodeTable (all rows by default)."""

    __slots__ = ("_rows", "_table")

    def __init__(self, table: NodeTable, rows: NDArray[np.intp] | None = None) -> None:
        self._table = table
        self._rows = rows

    def _at(self, column: NDArray[np.int64]) -> NDArray[np.int64]:
        return column if self._rows is None else column[self._rows]

    def pod_count(self) -> NDArray[np.int64]:
        return self._at(self._table.pod_count())

    def allocatable(self, name: str) -> NDArray[np.int64]:
        return self._at(self._table.resource("allocatable", name))

    def requested(self, name: str) -> NDArray[np.int64]:
        return self._at(self._table.resource("requested", name))

    def non_zero_requested(self, name: str) -> NDArray[np.int64]:
        return self._at(self._table.resource("non_zero_requested", name))


View = NodeView | TableView


def go_div(a: int, b: int) -> int:
    """Integer division truncating toward zero, as Go's `/` on int64."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


class ScalarOps:
    """The kernels' operations on ints and bools."""

    @staticmethod
    def where(cond: Value, a: Value, b: Value) -> Value:
        return a if cond else b

    @staticmethod
    def and_not(a: Value, b: Value) -> Value:
        return a and not b

    @staticmethod
    def minimum(a: Value, b: Value) -> Value:
        return min(a, b)

    @staticmethod
    def nonzero(d: Value) -> Value:
        """`d`, with 1 for 0 (a denominator whose quotient is not used when it was 0)."""
        return d or 1

    @staticmethod
    def trunc_div(a: Value, b: Value) -> Value:
        return go_div(a, b)


class ArrayOps:
    """The same operations elementwise on numpy arrays (numpy's own functions where they
    fit, so the batch forms call no extra Python frames)."""

    where: Callable[..., Value] = staticmethod(np.where)
    minimum: Callable[..., Value] = staticmethod(np.minimum)

    @staticmethod
    def and_not(a: Value, b: Value) -> Value:
        return np.logical_and(a, np.logical_not(b))

    @staticmethod
    def nonzero(d: Value) -> Value:
        return np.where(d == 0, 1, d)

    @staticmethod
    def trunc_div(a: Value, b: Value) -> Value:
        return np.sign(a) * (np.abs(a) // b)


Ops = type[ScalarOps] | type[ArrayOps]
SCALAR = ScalarOps
ARRAY = ArrayOps
