"""Node selectors evaluated over a whole NodeTable at once.

Each label key a selector mentions gets an integer column: the node's value for
that key as a small code, or -1 where the node lacks the label. Codes come from
one process-wide table of label values, so every column (and every table, and
every plugin instance) agrees on them; matching `key In (a, b)` is then a couple
of integer comparisons over the column, whatever the number of nodes. Gt and Lt
read a parsed-integer column. The node name column works the same way for
matchFields. Rows without a node read as a node with no name and no labels.

Each function here agrees exactly with the per-node `matches` of the same
requirement, term or selector.
"""

from __future__ import annotations

import threading

import numpy as np
from numpy.typing import NDArray

from kubesched.framework import NodeInfo, NodeTable
from kubesched_nodeaffinity.pod_affinity import RequiredNodeAffinity
from kubesched_nodeaffinity.requirements import (
    DOES_NOT_EXIST,
    EXISTS,
    GT,
    IN,
    LT,
    NODE_NAME_FIELD,
    FieldRequirement,
    LabelRequirement,
    parse_go_int64,
)
from kubesched_nodeaffinity.selectors import NodeSelectorMatcher, PreferredTerms, Term

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

    return table.column(f"{COLUMN_PREFIX}label:{key}", extract, np.int32)


def _label_int_columns(table: NodeTable, key: str) -> tuple[NDArray[np.int64], NDArray[np.bool_]]:
    """The label's value as a Go int64 per node, and whether it parsed."""

    def parsed(ni: NodeInfo) -> int | None:
        value = ni.node.metadata.labels.get(key) if ni.node is not None else None
        return None if value is None else parse_go_int64(value)

    numbers = table.column(f"{COLUMN_PREFIX}int:{key}", lambda ni: parsed(ni) or 0, np.int64)
    valid = table.column(f"{COLUMN_PREFIX}intok:{key}", lambda ni: parsed(ni) is not None, np.bool_)
    return numbers, valid


def _name_code_column(table: NodeTable) -> NDArray[np.int32]:
    """Codes of node names; -1 for an empty name (whose fields upstream ignores)."""

    def extract(ni: NodeInfo) -> int:
        return _VALUE_CODES.code(ni.name) if ni.name else ABSENT

    return table.column(f"{COLUMN_PREFIX}name", extract, np.int32)


def _any_equal(column: NDArray[np.int32], values: frozenset[str]) -> NDArray[np.bool_]:
    mask = np.zeros(len(column), dtype=np.bool_)
    for value in values:
        code = _VALUE_CODES.lookup(value)
        if code is not None:
            mask |= column == code
    return mask


def requirement_mask(table: NodeTable, req: LabelRequirement) -> NDArray[np.bool_]:
    """Rows whose labels satisfy the requirement."""
    if req.operator in (GT, LT):
        numbers, valid = _label_int_columns(table, req.key)
        compared = numbers > req.bound if req.operator == GT else numbers < req.bound
        return valid & compared
    codes = _label_code_column(table, req.key)
    if req.operator in (EXISTS, DOES_NOT_EXIST):
        present: NDArray[np.bool_] = codes != ABSENT
        return present if req.operator == EXISTS else ~present
    listed = _any_equal(codes, req.values)
    return listed if req.operator == IN else ~listed


def field_mask(table: NodeTable, req: FieldRequirement) -> NDArray[np.bool_]:
    """Rows whose fields satisfy the requirement; only meaningful for rows with a name."""
    if req.key == NODE_NAME_FIELD:
        equal = _any_equal(_name_code_column(table), frozenset((req.value,)))
    else:
        equal = np.full(len(table), req.value == "", dtype=np.bool_)
    return equal if req.operator == IN else ~equal


def term_mask(table: NodeTable, term: Term) -> NDArray[np.bool_]:
    """Rows the term matches."""
    if term.errors:
        return np.zeros(len(table), dtype=np.bool_)
    mask = np.ones(len(table), dtype=np.bool_)
    for req in term.labels or ():
        mask &= requirement_mask(table, req)
    if term.fields is not None:
        fields = np.ones(len(table), dtype=np.bool_)
        for field_req in term.fields:
            fields &= field_mask(table, field_req)
        mask &= fields | (_name_code_column(table) == ABSENT)
    return mask


def selector_mask(table: NodeTable, selector: NodeSelectorMatcher) -> NDArray[np.bool_]:
    """Rows any term of the selector matches."""
    mask = np.zeros(len(table), dtype=np.bool_)
    for term in selector.terms:
        mask |= term_mask(table, term)
    return mask


def required_mask(table: NodeTable, required: RequiredNodeAffinity) -> NDArray[np.bool_]:
    """Rows matching the pod's nodeSelector and required node affinity."""
    mask = np.ones(len(table), dtype=np.bool_)
    for key, value in required.node_selector.items():
        mask &= _any_equal(_label_code_column(table, key), frozenset((value,)))
    if required.affinity is not None:
        mask &= selector_mask(table, required.affinity)
    return mask


def preferred_scores(table: NodeTable, preferred: PreferredTerms) -> NDArray[np.int64]:
    """Per row, the sum of the weights of the preferred terms it matches."""
    scores = np.zeros(len(table), dtype=np.int64)
    for weighted in preferred.terms:
        scores += weighted.weight * term_mask(table, weighted.term)
    return scores
