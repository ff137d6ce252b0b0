"""Node-table columns for the batch forms: topology values as integer codes, and per-node
counts of pods matching a selector.

A topology value gets a code the first time any table sees it; codes are
never reused, so a column stays valid as nodes come and go (-1: the node has
no such label). A count column is kept per (namespace, selector) and follows
the node table's updates; at most `MAX_COUNT_COLUMNS` are kept, beyond that
counts are taken node by node.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np
from numpy.typing import NDArray

from kubesched.api import Selector
from kubesched.framework import NodeInfo, NodeTable
from kubesched_podtopologyspread.constraints import count_matching

MAX_COUNT_COLUMNS = 64
_PREFIX = "PodTopologySpread/"


class ValueCodes:
    """Every value seen for one topology key, numbered in order of first sight."""

    __slots__ = ("codes", "key", "values")

    def __init__(self, key: str) -> None:
        self.key = key
        self.codes: dict[str, int] = {}
        self.values: list[str] = []

    def code(self, value: str) -> int:
        code = self.codes.get(value)
        if code is None:
            code = self.codes[value] = len(self.values)
            self.values.append(value)
        return code

    def of_node(self, node_info: NodeInfo) -> int:
        """The node's code for this key; -1 when the node lacks the label."""
        node = node_info.node
        if node is None or self.key not in node.metadata.labels:
            return -1
        return self.code(node.metadata.labels[self.key])

    def dense(self, counts: Mapping[str, int]) -> NDArray[np.int64]:
        """`counts` by value as an array indexed by code (0 where a value has none), with
        one extra trailing 0 so code -1 reads 0."""
        for value in counts:
            self.code(value)
        array = np.zeros(len(self.values) + 1, dtype=np.int64)
        for value, count in counts.items():
            array[self.codes[value]] = count
        return array


_VALUE_CODES: dict[str, ValueCodes] = {}
_COUNT_KEYS: set[str] = set()


def value_codes(key: str) -> ValueCodes:
    """The (process-wide) codes of one topology key."""
    codes = _VALUE_CODES.get(key)
    if codes is None:
        codes = _VALUE_CODES[key] = ValueCodes(key)
    return codes


def code_column(table: NodeTable, key: str) -> NDArray[np.int64]:
    """Per row, the code of the node's value for `key` (-1: no such label)."""
    codes = value_codes(key)
    column: NDArray[np.int64] = table.column(
        _PREFIX + "code:" + key, codes.of_node, np.int64, node_only=True
    )
    return column


def _selector_key(selector: Selector) -> str:
    parts = sorted(f"{r.key}\x00{r.operator}\x00{sorted(r.values)}" for r in selector.requirements)
    return "\x01".join(parts)


def count_column(table: NodeTable, selector: Selector, namespace: str) -> NDArray[np.int64]:
    """Per row, the pods on the node that `count_matching` counts."""
    key = f"{_PREFIX}count:{namespace}\x02{_selector_key(selector)}"

    def extract(node_info: NodeInfo) -> int:
        return count_matching(node_info.pods, selector, namespace)

    if selector.empty:
        return np.zeros(len(table), dtype=np.int64)
    if key in _COUNT_KEYS or len(_COUNT_KEYS) < MAX_COUNT_COLUMNS:
        _COUNT_KEYS.add(key)
        column: NDArray[np.int64] = table.column(key, extract, np.int64)
        return column
    return _per_row(table, extract)


def _per_row(table: NodeTable, extract: Callable[[NodeInfo], int]) -> NDArray[np.int64]:
    return np.fromiter((extract(ni) for ni in table.node_infos), dtype=np.int64, count=len(table))
