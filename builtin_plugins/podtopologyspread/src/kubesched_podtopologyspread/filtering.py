"""PreFilter state and the Filter kernel for DoNotSchedule constraints.

The state keeps, per constraint, the matching pods per domain and the two
"critical paths" (upstream's criticalPaths): the slot 0 always holds the
minimum count, which is what the skew is measured from; slot 1 holds a
count at least as large. AddPod/RemovePod update both in place, the way
upstream does, so a preemption dry run sees the effect of removing victims.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from kubesched.api import Node, Pod
from kubesched_nodeaffinity.pod_affinity import RequiredNodeAffinity
from kubesched_podtopologyspread.constraints import Constraint, has_all_keys
from kubesched_podtopologyspread.counting import DomainCounts

_MAX_INT32 = 2**31 - 1


class CriticalPaths:
    """Two (topology value, count) slots; slot 0 holds the minimum count."""

    __slots__ = ("nums", "values")

    def __init__(self) -> None:
        self.values = ["", ""]
        self.nums = [_MAX_INT32, _MAX_INT32]

    def copy(self) -> CriticalPaths:
        other = CriticalPaths()
        other.values = list(self.values)
        other.nums = list(self.nums)
        return other

    def update(self, value: str, num: int) -> None:
        """Record that domain `value` now has `num` matching pods."""
        values, nums = self.values, self.nums
        slot = 0 if value == values[0] else 1 if value == values[1] else -1
        if slot >= 0:
            nums[slot] = num
            if nums[0] > nums[1]:
                values.reverse()
                nums.reverse()
        elif num < nums[0]:
            values[1], nums[1] = values[0], nums[0]
            values[0], nums[0] = value, num
        elif num < nums[1]:
            values[1], nums[1] = value, num

    def __repr__(self) -> str:
        return f"CriticalPaths({list(zip(self.values, self.nums, strict=True))})"


class PreFilterState:
    """What Filter reads: the constraints, the counts per domain and the critical paths."""

    __slots__ = ("constraints", "counts", "paths", "required", "selfs")

    def __init__(
        self,
        constraints: Sequence[Constraint],
        counts: list[DomainCounts],
        required: RequiredNodeAffinity,
        pod: Pod,
    ) -> None:
        self.constraints = tuple(constraints)
        self.counts = counts
        self.required = required
        labels = pod.metadata.labels
        self.selfs = tuple(1 if c.selector.matches(labels) else 0 for c in constraints)
        """Per constraint, 1 when the incoming pod matches the selector itself."""
        self.paths = []
        for domain_counts in counts:
            paths = CriticalPaths()
            for value in sorted(domain_counts):
                paths.update(value, domain_counts[value])
            self.paths.append(paths)

    def clone(self) -> PreFilterState:
        copy = PreFilterState.__new__(PreFilterState)
        copy.constraints = self.constraints
        copy.required = self.required
        copy.selfs = self.selfs
        copy.counts = [dict(c) for c in self.counts]
        copy.paths = [p.copy() for p in self.paths]
        return copy

    def min_match(self, i: int) -> int:
        """The global minimum for constraint `i`: 0 while there are fewer domains than
        its minDomains."""
        if len(self.counts[i]) < self.constraints[i].min_domains:
            return 0
        return self.paths[i].nums[0]

    def update_with_pod(self, updated: Pod, preemptor: Pod, node: Node | None, delta: int) -> None:
        """Count `updated` on `node` as added (+1) or removed (-1) (AddPod/RemovePod)."""
        if node is None or updated.metadata.namespace != preemptor.metadata.namespace:
            return
        labels = node.metadata.labels
        if not has_all_keys(labels, self.constraints):
            return
        pod_labels = updated.metadata.labels
        for i, c in enumerate(self.constraints):
            if not c.selector.matches(pod_labels):
                continue
            if not c.includes(preemptor, node, self.required):
                continue
            value = labels[c.topology_key]
            num = self.counts[i].get(value, 0) + delta
            self.counts[i][value] = num
            self.paths[i].update(value, num)


def within_skew(match: Any, self_match: int, min_match: int, max_skew: int) -> Any:
    """The Filter kernel: placing the pod keeps the domain within maxSkew of the minimum.
    Works on one count or on an array of counts."""
    return match + self_match - min_match <= max_skew


def violated(state: PreFilterState, labels: Mapping[str, str]) -> int | None:
    """The first constraint the node fails: -1 for a missing topology label, its index
    for a skew beyond maxSkew; None when the node passes."""
    for i, c in enumerate(state.constraints):
        value = labels.get(c.topology_key)
        if value is None:
            return -1
        match = state.counts[i].get(value, 0)
        if not within_skew(match, state.selfs[i], state.min_match(i), c.max_skew):
            return i
    return None


def passes_batch(
    state: PreFilterState,
    columns: Sequence[NDArray[np.int64]],
    dense: Sequence[NDArray[np.int64]],
) -> NDArray[np.bool_]:
    """`violated(...) is None` for every row at once: `columns[i]` the rows' value codes
    for constraint i, `dense[i]` its counts by code."""
    rows = len(columns[0]) if columns else 0
    mask = np.ones(rows, dtype=np.bool_)
    for i, c in enumerate(state.constraints):
        codes = columns[i]
        match = dense[i][codes]
        mask &= (codes >= 0) & within_skew(match, state.selfs[i], state.min_match(i), c.max_skew)
    return mask
