"""`--explain`: every node's Filter outcome, each Score plugin's and each extender's scores
for one attempt."""

from __future__ import annotations

from collections.abc import Iterable

from kubesched.framework._diagnosis import FitError
from kubesched.scheduler.algorithm import ScheduleResult
from kubesched.scheduler.extenders import ExtenderVerdicts
from kubesched.scheduler.outcome import NodeExplanation, PodOutcome
from kubesched.scheduler.snapshot import Snapshot


def explain_failure(
    snapshot: Snapshot, outcome: PodOutcome, err: FitError, verdicts: ExtenderVerdicts
) -> None:
    """Each node's status in a failed attempt (every node, when PreFilter rejected the pod)."""
    d = err.diagnosis
    names: Iterable[str] = snapshot.node_table.names if d.pre_filter_msg else d.node_to_status
    outcome.nodes = {
        name: NodeExplanation(
            d.node_to_status.get(name, d.absent_nodes_status),
            extenders=verdicts.for_node(name),
        )
        for name in names
    }


def explain_result(
    snapshot: Snapshot, outcome: PodOutcome, result: ScheduleResult, verdicts: ExtenderVerdicts
) -> None:
    """The rejected nodes' statuses and the feasible nodes' scores, in snapshot order."""
    nodes = {
        name: NodeExplanation(status, extenders=verdicts.for_node(name))
        for name, status in result.filter_statuses.items()
    }
    names = snapshot.node_table.names
    extra = result.extender_totals
    for i, row in enumerate(result.feasible_rows.tolist()):
        name = names[row]
        node = nodes[name] = NodeExplanation(extenders=verdicts.for_node(name))
        if result.scores is not None:
            node.total = int(result.scores.totals[i])
            node.scores = {
                plugin: (int(normalized[i]), int(weighted[i]))
                for plugin, (normalized, weighted) in result.scores.plugins.items()
            }
        if extra is not None:
            node.total = (node.total or 0) + int(extra[i])
    outcome.nodes = {name: nodes[name] for name in names if name in nodes}
