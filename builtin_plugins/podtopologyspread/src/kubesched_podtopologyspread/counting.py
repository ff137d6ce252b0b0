"""Counting matching pods per topology domain, once per cycle, over every node.

A node counts for a constraint when it carries every constraint's topology
key and passes the constraint's inclusion policies; its matching pods then
add to its domain (a domain with no matching pod still exists, with 0).
`count_by_node` is the reference, one node at a time; `count_by_table` does
the same over the node table's columns.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from kubesched.api import Node, Pod
from kubesched.framework import NodeInfo, NodeTable
from kubesched_nodeaffinity import evaluator
from kubesched_nodeaffinity.columns import TableView
from kubesched_nodeaffinity.pod_affinity import RequiredNodeAffinity
from kubesched_podtopologyspread.columns import code_column, count_column, value_codes
from kubesched_podtopologyspread.constraints import (
    HONOR,
    IGNORE,
    Constraint,
    count_matching,
    has_all_keys,
)

DomainCounts = dict[str, int]
"""Matching pods per topology value of one constraint."""

_NO_NODE = Node()


def node_of(node_info: NodeInfo) -> Node:
    """The node, or an empty one (no name, no labels) when the NodeInfo has none."""
    return node_info.node or _NO_NODE


def count_by_node(
    constraints: Sequence[Constraint],
    pod: Pod,
    nodes: Sequence[NodeInfo],
    required: RequiredNodeAffinity,
) -> list[DomainCounts]:
    """Per constraint, matching pods by topology value, over `nodes` one at a time."""
    counts: list[DomainCounts] = [{} for _ in constraints]
    namespace = pod.metadata.namespace
    for node_info in nodes:
        node = node_of(node_info)
        labels = node.metadata.labels
        if not has_all_keys(labels, constraints):
            continue
        for i, c in enumerate(constraints):
            if not c.includes(pod, node, required):
                continue
            value = labels[c.topology_key]
            found = count_matching(node_info.pods, c.selector, namespace)
            counts[i][value] = counts[i].get(value, 0) + found
    return counts


def has_all_mask(table: NodeTable, constraints: Sequence[Constraint]) -> NDArray[np.bool_]:
    """Rows whose node carries every constraint's topology key."""
    mask = np.ones(len(table), dtype=np.bool_)
    for c in constraints:
        mask &= code_column(table, c.topology_key) >= 0
    return mask


def included_mask(
    table: NodeTable, pod: Pod, constraint: Constraint, required: RequiredNodeAffinity
) -> NDArray[np.bool_]:
    """Rows that pass the constraint's inclusion policies."""
    mask = np.ones(len(table), dtype=np.bool_)
    if constraint.node_affinity_policy == HONOR and not required.is_trivial():
        mask &= np.asarray(evaluator.required(required, TableView(table)), dtype=np.bool_)
    if constraint.node_taints_policy == HONOR:
        taints_only = Constraint(
            max_skew=constraint.max_skew,
            topology_key=constraint.topology_key,
            selector=constraint.selector,
            node_affinity_policy=IGNORE,
            node_taints_policy=HONOR,
        )
        mask &= np.fromiter(
            (taints_only.includes(pod, node_of(ni), required) for ni in table.node_infos),
            dtype=np.bool_,
            count=len(table),
        )
    return mask


def count_by_table(
    constraints: Sequence[Constraint],
    pod: Pod,
    table: NodeTable,
    required: RequiredNodeAffinity,
) -> list[DomainCounts]:
    """What `count_by_node` gives over every row of `table`, from its columns."""
    counts: list[DomainCounts] = []
    has_all = has_all_mask(table, constraints)
    namespace = pod.metadata.namespace
    for c in constraints:
        eligible = has_all & included_mask(table, pod, c, required)
        codes = code_column(table, c.topology_key)[eligible]
        matching = count_column(table, c.selector, namespace)[eligible]
        values = value_codes(c.topology_key).values
        size = len(values)
        present = np.bincount(codes, minlength=size)
        sums = np.bincount(codes, weights=matching, minlength=size)
        counts.append({values[k]: int(sums[k]) for k in np.flatnonzero(present).tolist()})
    return counts
