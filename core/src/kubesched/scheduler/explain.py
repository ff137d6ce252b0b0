"""`--explain`: each node's Filter outcome, each Score plugin's and each extender's scores
for one attempt, the pod's effective request and the shown nodes' free amounts.

By default an explanation is short, so its size does not grow with the cluster: the
chosen node and the few best-scored ones are shown in full, and every other node is
counted in a group of the nodes that got the same verdict (`short_view`). A scheduler
whose `explain_nodes` is None keeps every node.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Protocol

from kubesched.api import CPU, EPHEMERAL_STORAGE, MEMORY, PODS, Pod, pod_requests
from kubesched.api import is_scalar_resource_name as _is_scalar
from kubesched.framework._diagnosis import FitError
from kubesched.framework._status import Status
from kubesched.scheduler.algorithm import Algorithm, ScheduleResult
from kubesched.scheduler.outcome import NodeExplanation, NodeGroup, PodOutcome
from kubesched.scheduler.snapshot import Snapshot

TOP_NODES = 3
"""Best-scored nodes a short explanation shows (`--explain-nodes summary`)."""
EXAMPLES = 3
"""Node names given for each group of nodes left out of a short explanation."""


class Cycle(Protocol):
    """What an explanation reads of the scheduler: the snapshot the attempt ran on, the
    extenders' verdicts, and how many best-scored nodes to keep (None: every node)."""

    snapshot: Snapshot
    algorithm: Algorithm
    explain_nodes: int | None


def effective_request(pod: Pod) -> dict[str, int]:
    """What NodeResourcesFit compares for `pod`: one pod slot, then cpu, memory and
    ephemeral-storage when requested, then each requested scalar resource by name, in the
    amounts of `kubesched.api.pod_requests` (containers, init containers, sidecars,
    pod-level resources, overhead)."""
    requests = pod_requests(pod)
    request = {PODS: 1}
    request.update((n, requests[n]) for n in (CPU, MEMORY, EPHEMERAL_STORAGE) if requests.get(n))
    request.update(sorted((n, a) for n, a in requests.items() if a and _is_scalar(n)))
    return request


def _verdict(status: Status | None) -> tuple[str, str, tuple[str, ...]]:
    if status is None:
        return ("", "", ())
    return (str(status.code), status.plugin, tuple(status.reasons))


def short_view(
    nodes: Mapping[str, NodeExplanation], chosen: str | None, top: int
) -> tuple[dict[str, NodeExplanation], list[NodeGroup]]:
    """The nodes to show (the chosen node and the `top` best totals among the nodes that
    passed Filter, ties in the scheduler's order; kept in that order) and the others
    grouped by verdict, the largest group first (ties: first seen first)."""
    feasible = [name for name, node in nodes.items() if node.filter is None]
    ranked = sorted(feasible, key=lambda name: -(nodes[name].total or 0))
    wanted = set(ranked[:top])
    if chosen is not None and chosen in nodes:
        wanted.add(chosen)
    groups: dict[tuple[str, str, tuple[str, ...]], NodeGroup] = {}
    for name, node in nodes.items():
        if name in wanted:
            continue
        group = groups.get(key := _verdict(node.filter))
        if group is None:
            group = groups[key] = NodeGroup(node.filter, 0, [])
        group.count += 1
        if len(group.examples) < EXAMPLES:
            group.examples.append(name)
    shown = {name: node for name, node in nodes.items() if name in wanted}
    return shown, sorted(groups.values(), key=lambda g: -g.count)


def _record(
    snapshot: Snapshot,
    outcome: PodOutcome,
    pod: Pod,
    nodes: dict[str, NodeExplanation],
    chosen: str | None,
    top: int | None,
) -> None:
    """Keep the attempt's explanation (short unless `top` is None), with the pod's request
    and each shown node's allocatable and requested amounts of it."""
    if top is None:
        outcome.nodes, outcome.not_shown = nodes, None
    else:
        outcome.nodes, outcome.not_shown = short_view(nodes, chosen, top)
    request = outcome.request = effective_request(pod)
    for name, node in outcome.nodes.items():
        info = snapshot.get(name)
        if info is None:
            continue
        node.resources = {
            resource: (
                info.allocatable.get(resource, 0),
                len(info.pods) if resource == PODS else info.requested.get(resource, 0),
            )
            for resource in request
        }


def explain_failure(cycle: Cycle, outcome: PodOutcome, err: FitError, pod: Pod) -> None:
    """Each node's status in a failed attempt (every node, when PreFilter rejected the pod)."""
    snapshot, verdicts, d = cycle.snapshot, cycle.algorithm.verdicts, err.diagnosis
    names: Iterable[str] = snapshot.node_table.names if d.pre_filter_msg else d.node_to_status
    nodes = {
        name: NodeExplanation(
            d.node_to_status.get(name, d.absent_nodes_status),
            extenders=verdicts.for_node(name),
        )
        for name in names
    }
    _record(snapshot, outcome, pod, nodes, None, cycle.explain_nodes)


def explain_result(cycle: Cycle, outcome: PodOutcome, result: ScheduleResult, pod: Pod) -> None:
    """The rejected nodes' statuses and the feasible nodes' scores, in snapshot order."""
    snapshot, verdicts = cycle.snapshot, cycle.algorithm.verdicts
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
    ordered = {name: nodes[name] for name in names if name in nodes}
    _record(snapshot, outcome, pod, ordered, result.host, cycle.explain_nodes)
