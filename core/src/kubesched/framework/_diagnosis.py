"""Diagnosis and FitError: why a pod fits nowhere, in upstream's message format.

"0/5 nodes are available: 2 Insufficient cpu, 3 node(s) didn't match Pod's node
affinity/selector. preemption: ..." — reasons counted over every node's status
(nodes without an explicit status are charged with the absent-node status),
"<count> <reason>" strings sorted lexically.
"""

from __future__ import annotations

from collections import Counter

from attrs import define, field

from kubesched.api import Pod
from kubesched.framework._status import Code, Status

NO_NODE_AVAILABLE_MSG = "0/{} nodes are available"


@define
class Diagnosis:
    """Per-node statuses of a failed attempt and the plugins that rejected it."""

    node_to_status: dict[str, Status] = field(factory=dict)
    absent_nodes_status: Status = field(factory=lambda: Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE))
    unschedulable_plugins: set[str] = field(factory=set)
    pending_plugins: set[str] = field(factory=set)
    pre_filter_msg: str = ""
    post_filter_msg: str = ""

    def add_plugin_status(self, status: Status) -> None:
        """Record the status's plugin as a rejector (upstream's AddPluginStatus)."""
        if not status.plugin:
            return
        if status.is_rejected():
            self.unschedulable_plugins.add(status.plugin)
        if status.code == Code.PENDING:
            self.pending_plugins.add(status.plugin)


class FitError(Exception):
    """The pod fits on none of the `num_all_nodes` nodes."""

    def __init__(self, pod: Pod, num_all_nodes: int, diagnosis: Diagnosis) -> None:
        self.pod = pod
        self.num_all_nodes = num_all_nodes
        self.diagnosis = diagnosis
        super().__init__(self.message)

    @property
    def message(self) -> str:
        d = self.diagnosis
        msg = NO_NODE_AVAILABLE_MSG.format(self.num_all_nodes) + ":"
        if d.pre_filter_msg:
            msg += f" {d.pre_filter_msg}."
        else:
            # Nodes mostly share a few Status objects: count those, then their reasons.
            statuses = d.node_to_status.values()
            by_status = Counter(map(id, statuses))
            reasons: Counter[str] = Counter()
            for status in dict(zip(map(id, statuses), statuses, strict=True)).values():
                for reason in status.reasons:
                    reasons[reason] += by_status[id(status)]
            absent = self.num_all_nodes - len(d.node_to_status)
            if absent > 0:
                for reason in d.absent_nodes_status.reasons:
                    reasons[reason] += absent
            histogram = sorted(f"{count} {reason}" for reason, count in reasons.items())
            if histogram:
                msg += f" {', '.join(histogram)}."
        if d.post_filter_msg:
            msg += f" {d.post_filter_msg}"
        return msg

    def __str__(self) -> str:
        return self.message
