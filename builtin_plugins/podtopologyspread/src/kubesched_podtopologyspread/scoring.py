"""PreScore state and the Score kernel for ScheduleAnyway constraints.

PreScore registers the domains of the feasible nodes (nodes missing a
topology key are ignored when every key is required), weighs each
constraint by log(domains + 2), and counts matching pods in those domains
over every node. A node scores the sum over constraints of
count * weight + (maxSkew - 1), rounded half away from zero; hostname
domains are counted at Score. NormalizeScore turns fewer matching pods into
higher scores, 0..100, and gives ignored nodes 0.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from kubesched.api import Pod
from kubesched.framework import MAX_NODE_SCORE, NodeInfo, NodeTable
from kubesched_nodeaffinity.pod_affinity import RequiredNodeAffinity
from kubesched_podtopologyspread.columns import code_column, count_column, value_codes
from kubesched_podtopologyspread.constraints import (
    LABEL_HOSTNAME,
    Constraint,
    count_matching,
    has_all_keys,
)
from kubesched_podtopologyspread.counting import (
    DomainCounts,
    has_all_mask,
    included_mask,
    node_of,
)


class PreScoreState:
    """The constraints, the ignored nodes, counts of the registered domains, weights."""

    __slots__ = ("constraints", "counts", "ignored", "weights")

    def __init__(
        self,
        constraints: Sequence[Constraint],
        ignored: set[str],
        counts: list[DomainCounts],
        weights: list[float],
    ) -> None:
        self.constraints = tuple(constraints)
        self.ignored = ignored
        self.counts = counts
        self.weights = weights

    def clone(self) -> PreScoreState:
        return self


def register_domains(
    constraints: Sequence[Constraint], filtered: Sequence[NodeInfo], require_all: bool
) -> tuple[set[str], list[DomainCounts], list[float]]:
    """The ignored nodes, each constraint's domains among the feasible nodes (at 0),
    and each constraint's weight."""
    ignored: set[str] = set()
    counts: list[DomainCounts] = [{} for _ in constraints]
    for node_info in filtered:
        node = node_of(node_info)
        labels = node.metadata.labels
        if require_all and not has_all_keys(labels, constraints):
            ignored.add(node.metadata.name)
            continue
        for i, c in enumerate(constraints):
            if c.topology_key != LABEL_HOSTNAME:
                counts[i].setdefault(labels.get(c.topology_key, ""), 0)
    weights = []
    for i, c in enumerate(constraints):
        size = len(counts[i])
        if c.topology_key == LABEL_HOSTNAME:
            size = len(filtered) - len(ignored)
        weights.append(math.log(size + 2))
    return ignored, counts, weights


def register_domains_by_table(
    constraints: Sequence[Constraint], table: NodeTable, rows: NDArray[np.intp], require_all: bool
) -> tuple[set[str], list[DomainCounts], list[float]]:
    """What `register_domains` gives for the feasible nodes at `rows` of `table`."""
    kept = rows
    ignored: set[str] = set()
    if require_all:
        has_all = has_all_mask(table, constraints)[rows]
        kept = rows[has_all]
        names = table.names
        ignored = {names[r] for r in rows[~has_all].tolist()}
    counts: list[DomainCounts] = []
    weights = []
    for c in constraints:
        if c.topology_key == LABEL_HOSTNAME:
            counts.append({})
            weights.append(math.log(len(kept) + 2))
            continue
        values = value_codes(c.topology_key).values
        codes = np.unique(code_column(table, c.topology_key)[kept]).tolist()
        domains = dict.fromkeys(("" if k < 0 else values[k] for k in codes), 0)
        counts.append(domains)
        weights.append(math.log(len(domains) + 2))
    return ignored, counts, weights


def count_domains_by_node(
    state: PreScoreState,
    pod: Pod,
    nodes: Sequence[NodeInfo],
    required: RequiredNodeAffinity,
    require_all: bool,
) -> None:
    """Add the matching pods of every node to its registered domains, one node at a time."""
    namespace = pod.metadata.namespace
    for node_info in nodes:
        node = node_of(node_info)
        labels = node.metadata.labels
        if require_all and not has_all_keys(labels, state.constraints):
            continue
        for i, c in enumerate(state.constraints):
            if not c.includes(pod, node, required):
                continue
            value = labels.get(c.topology_key, "")
            if value in state.counts[i]:
                state.counts[i][value] += count_matching(node_info.pods, c.selector, namespace)


def count_domains_by_table(
    state: PreScoreState,
    pod: Pod,
    table: NodeTable,
    required: RequiredNodeAffinity,
    require_all: bool,
) -> None:
    """What `count_domains_by_node` does, over every row of `table`, from its columns."""
    namespace = pod.metadata.namespace
    base = has_all_mask(table, state.constraints) if require_all else None
    for i, c in enumerate(state.constraints):
        registered = state.counts[i]
        if not registered:
            continue
        eligible = included_mask(table, pod, c, required)
        if base is not None:
            eligible &= base
        codes = code_column(table, c.topology_key)
        matching = count_column(table, c.selector, namespace)
        labelled = eligible & (codes >= 0)
        codebook = value_codes(c.topology_key)
        sums = np.bincount(codes[labelled], weights=matching[labelled], minlength=1)
        for value in registered:
            code = codebook.code(value)
            if code < len(sums):
                registered[value] += int(sums[code])
        if "" in registered:
            registered[""] += int(matching[eligible & (codes < 0)].sum())


def score_for_count(count: Any, max_skew: int, weight: float) -> Any:
    """The Score kernel, one constraint: a count (or an array of counts) as a score."""
    return count * weight + float(max_skew - 1)


def round_half_away(score: Any) -> Any:
    """Round non-negative scores half away from zero (Go's math.Round); arrays too."""
    floor = np.floor(score)
    return floor + ((score - floor) >= 0.5)


def score_node(state: PreScoreState, pod: Pod, node_info: NodeInfo) -> int:
    """The raw score of one node."""
    node = node_of(node_info)
    if node.metadata.name in state.ignored:
        return 0
    labels = node.metadata.labels
    total = 0.0
    for i, c in enumerate(state.constraints):
        value = labels.get(c.topology_key)
        if value is None:
            continue
        if c.topology_key == LABEL_HOSTNAME:
            count = count_matching(node_info.pods, c.selector, pod.metadata.namespace)
        else:
            count = state.counts[i].get(value, 0)
        total += score_for_count(count, c.max_skew, state.weights[i])
    return int(round_half_away(total))


def score_rows(
    state: PreScoreState, pod: Pod, table: NodeTable, rows: NDArray[np.intp]
) -> NDArray[np.int64]:
    """`score_node` for the nodes at `rows`, from the table's columns."""
    total = np.zeros(len(rows), dtype=np.float64)
    for i, c in enumerate(state.constraints):
        codes = code_column(table, c.topology_key)[rows]
        if c.topology_key == LABEL_HOSTNAME:
            counts = count_column(table, c.selector, pod.metadata.namespace)[rows]
        else:
            counts = value_codes(c.topology_key).dense(state.counts[i])[codes]
        term = score_for_count(counts, c.max_skew, state.weights[i])
        total += np.where(codes >= 0, term, 0.0)
    scores: NDArray[np.int64] = round_half_away(total).astype(np.int64)
    if state.ignored:
        names = table.names
        hit = [names[r] in state.ignored for r in rows.tolist()]
        scores[np.array(hit, dtype=np.bool_)] = 0
    return scores


def normalize(state: PreScoreState, names: Sequence[str], scores: NDArray[np.int64]) -> None:
    """Fewer matching pods score higher, 0..100; ignored nodes get 0 (in place)."""
    if state.ignored:
        ignored = state.ignored
        valid = np.fromiter((n not in ignored for n in names), dtype=np.bool_, count=len(names))
    else:
        valid = np.ones(len(names), dtype=np.bool_)
    if not valid.any():
        scores[:] = 0
        return
    lowest = int(scores[valid].min())
    highest = max(0, int(scores[valid].max()))
    if highest == 0:
        scores[:] = np.where(valid, MAX_NODE_SCORE, 0)
        return
    scores[:] = np.where(valid, MAX_NODE_SCORE * (highest + lowest - scores) // highest, 0)
