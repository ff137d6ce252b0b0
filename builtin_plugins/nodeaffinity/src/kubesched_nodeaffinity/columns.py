"""The evaluator's view of a whole NodeTable: node selectors over every row at once.

Each label key a selector mentions gets an integer column: the node's value for
that key as a small code, or -1 where the node lacks the label. Codes come from
one process-wide table of label values, so every column (and every table, and
every plugin instance) agrees on them; matching `key In (a, b)` is then a couple
of integer comparisons over the column, whatever the number of nodes. Gt and Lt
read a parsed-integer column. The node name column works the same way for
matchFields. Rows without a node read as a node with no name and no labels.

`TableView` answers the questions `evaluator` asks (a label's value, its
presence, a name) with masks; requirements, terms and selectors are combined
by the same code that evaluates one node.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Mapping

import numpy as np
from numpy.typing import NDArray

from kubesched.api import parse_go_int64
from kubesched.framework import NodeInfo, NodeTable
from kubesched_nodeaffinity.evaluator import Truth

Mask = NDArray[np.bool_]
ABSENT = -1
COLUMN_PREFIX = "NodeAffinity/"


class _ValueCodes:
    """Strings to stable small integers, shared by every column that holds codes."""

    def __init__(self) -> None:
        self._codes: dict[str, int] = {}
        self._lock = threading.Lock()

    def code(self, value: str) -> int:
        """The code of `value`, assigning the next one if it is new."""
        found = self._codes.get(value)
        if found is not None:
            return found
        with self._lock:
            return self._codes.setdefault(value, len(self._codes))

    def lookup(self, value: str) -> int | None:
        """The code of `value`, or None if no column ever held it."""
        return self._codes.get(value)


_VALUE_CODES = _ValueCodes()


def _label_code_column(table: NodeTable, key: str) -> NDArray[np.int32]:
    def extract(ni: NodeInfo) -> int:
        value = ni.node.metadata.labels.get(key) if ni.node is not None else None
        return ABSENT if value is None else _VALUE_CODES.code(value)

    return table.column(f"{COLUMN_PREFIX}label:{key}", extract, np.int32, node_only=True)


def _label_int_columns(table: NodeTable, key: str) -> tuple[NDArray[np.int64], NDArray[np.bool_]]:
    """The label's value as a Go int64 per node, and whether it parsed."""

    def parsed(ni: NodeInfo) -> int | None:
        value = ni.node.metadata.labels.get(key) if ni.node is not None else None
        return None if value is None else parse_go_int64(value)

    numbers = table.column(
        f"{COLUMN_PREFIX}int:{key}", lambda ni: parsed(ni) or 0, np.int64, node_only=True
    )
    valid = table.column(
        f"{COLUMN_PREFIX}intok:{key}", lambda ni: parsed(ni) is not None, np.bool_, node_only=True
    )
    return numbers, valid


def _name_code_column(table: NodeTable) -> NDArray[np.int32]:
    """Codes of node names; -1 for an empty name (whose fields upstream ignores)."""

    def extract(ni: NodeInfo) -> int:
        return _VALUE_CODES.code(ni.name) if ni.name else ABSENT

    return table.column(f"{COLUMN_PREFIX}name", extract, np.int32, node_only=True)


class TableView:
    """Every row of a NodeTable at once: the evaluator's answers are boolean masks."""

    __slots__ = ("_rows", "_table")

    def __init__(self, table: NodeTable) -> None:
        self._table = table
        self._rows = len(table)

    def constant(self, value: bool) -> Mask:
        return np.full(self._rows, value, dtype=np.bool_)

    def negate(self, truth: Truth) -> Mask:
        negated: Mask = np.logical_not(truth)
        return negated

    def all_of(self, truths: Iterable[Truth]) -> Mask:
        mask = self.constant(True)
        for truth in truths:
            mask &= truth
        return mask

    def any_of(self, truths: Iterable[Truth]) -> Mask:
        mask = self.constant(False)
        for truth in truths:
            mask |= truth
        return mask

    def _equal_any(self, column: NDArray[np.int32], values: Iterable[str]) -> Mask:
        mask = self.constant(False)
        for value in values:
            code = _VALUE_CODES.lookup(value)
            if code is not None:
                mask |= column == code
        return mask

    def and_then(self, truth: Truth, then: Callable[[], Truth]) -> Mask:
        both: Mask = truth & then()
        return both

    def labels_are(self, wanted: Mapping[str, str]) -> Mask:
        return self.all_of(
            self._equal_any(_label_code_column(self._table, key), (value,))
            for key, value in wanted.items()
        )

    def label_in(self, key: str, values: frozenset[str]) -> Mask:
        return self._equal_any(_label_code_column(self._table, key), values)

    def label_present(self, key: str) -> Mask:
        present: Mask = _label_code_column(self._table, key) != ABSENT
        return present

    def label_compared(self, key: str, greater: bool, bound: int) -> Mask:
        numbers, valid = _label_int_columns(self._table, key)
        compared = numbers > bound if greater else numbers < bound
        result: Mask = valid & compared
        return result

    def name_is(self, value: str) -> Mask:
        return self._equal_any(_name_code_column(self._table), (value,))

    def nameless(self) -> Mask:
        absent: Mask = _name_code_column(self._table) == ABSENT
        return absent
