"""Topology domains as integer codes: one NodeTable column per topology key holds each
node's code for its label value (-1 without the label), so per-domain sums are a
`np.add.at` and a node's share a lookup.

A value's code is fixed for the life of the process (one codebook per key), so
columns kept current row by row stay consistent with each other.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial
from itertools import repeat
from typing import TypeVar

import numpy as np
from numpy.typing import NDArray

from kubesched.framework import NodeInfo, NodeTable
from kubesched_interpodaffinity.index import RowMap

T = TypeVar("T", bound=np.generic)

_codes: dict[str, dict[str, int]] = {}
_names: dict[str, list[str]] = {}


def _code(key: str, node_info: NodeInfo) -> int:
    node = node_info.node
    value = None if node is None else node.metadata.labels.get(key)
    if value is None:
        return -1
    book = _codes.setdefault(key, {})
    code = book.get(value)
    if code is None:
        code = book[value] = len(book)
        _names.setdefault(key, []).append(value)
    return code


def codes(table: NodeTable, key: str) -> NDArray[np.int64]:
    """Each row's code for its value of label `key`; -1 where the node has none."""
    return table.column(
        f"InterPodAffinity/code:{key}", partial(_code, key), np.int64, node_only=True
    )


def code_of(key: str, value: str) -> int:
    """The code of `value` for `key`; -1 when no node has had it."""
    return _codes.get(key, {}).get(value, -1)


def size(key: str) -> int:
    """How many codes `key` has."""
    return len(_codes.get(key, ()))


def row_weights(
    rows: int, parts: Iterable[tuple[RowMap, int]]
) -> tuple[NDArray[np.int64], NDArray[np.intp]]:
    """Per row, the sum of `values[row] * factor` over `parts`; and the rows any part has
    (a sum may cancel out to 0 where terms did match)."""
    out = np.zeros(rows, dtype=np.int64)
    touched = np.zeros(rows, dtype=np.bool_)
    for row_map, factor in parts:
        if row_map.dense is not None and row_map.present is not None:
            out += row_map.dense * factor
            touched |= row_map.present
            continue
        values = row_map.values
        at = np.fromiter(values.keys(), dtype=np.intp, count=len(values))
        found = np.fromiter(values.values(), dtype=np.int64, count=len(values))
        out[at] += found * factor
        touched[at] = True
    return out, np.flatnonzero(touched)


def per_domain(
    key: str, row_codes: NDArray[np.int64], weights: NDArray[np.int64], rows: NDArray[np.intp]
) -> NDArray[np.int64]:
    """The sums of `weights` at `rows` per domain code of `key`, with one trailing 0 that
    code -1 (no label) reads."""
    totals = np.zeros(size(key) + 1, dtype=np.int64)
    at = row_codes[rows]
    labelled = at >= 0
    np.add.at(totals, at[labelled], weights[rows][labelled])
    return totals


def nonzero_domains(key: str, totals: NDArray[np.int64]) -> dict[tuple[str, str], int]:
    """{(key, domain): total} for every domain whose total is not 0."""
    names = _names.get(key, [])
    found = np.flatnonzero(totals[:-1])
    pairs = zip(repeat(key), map(names.__getitem__, found.tolist()))
    return dict(zip(pairs, totals[found].tolist(), strict=True))


def lookup(totals: NDArray[T], row_codes: NDArray[np.int64]) -> NDArray[T]:
    """Each row's entry of `totals` (per domain code, with a trailing 0 or False); that
    trailing entry for rows without the label or with a code newer than `totals`."""
    limit = len(totals) - 1
    safe = np.where(row_codes < limit, row_codes, -1)
    return totals[safe]
