"""`simulate`'s table output: the summary first, failures grouped by reason, then the pods
shown, their explanations, and the nodes. Data is printed as text, never as markup."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from kubesched.api import CPU, EPHEMERAL_STORAGE, MEMORY
from kubesched.scheduler.outcome import ERROR, UNSCHEDULABLE, NodeExplanation, PodOutcome
from kubesched.scheduler.simulation import NodeUsage, SimulationResult

STATUS_STYLES = {
    "Scheduled": "green",
    "Unschedulable": "yellow",
    "Error": "red",
    "Preempted": "magenta",
    "Deleted": "magenta",
    "Gated": "cyan",
    "Skipped": "magenta",
}
REASON_WIDTH = 80
"""Reasons wrap at this width; names are never cut or wrapped."""
EXAMPLES = 3
"""Pods named per reason in the failures table."""


def print_result(
    console: Console,
    result: SimulationResult,
    shown: Sequence[PodOutcome],
    explained: Callable[[PodOutcome], bool],
    *,
    wide: bool = False,
    nodes: Collection[str] | None = None,
) -> None:
    """Everything `simulate -o table|wide` prints for a result; the node table has the
    `nodes` named (every node when None, no table when empty)."""
    console.print(_counts(result), markup=False, highlight=False)
    _print_failures(console, shown)
    _print_pods(console, shown, wide)
    for outcome in shown:
        if explained(outcome):
            _print_explanation(console, outcome)
    usage = result.summary.nodes
    if nodes is not None:
        wanted = set(nodes)
        usage = [u for u in usage if u.name in wanted]
    if usage:
        _print_nodes(console, usage)


def _counts(result: SimulationResult) -> str:
    s = result.summary
    return (
        f"Scheduled: {s.scheduled}   Unschedulable: {s.unschedulable}   Errors: {s.errors}   "
        + (f"Preempted: {s.preempted}   " if s.preempted else "")
        + (f"Deleted: {s.deleted}   " if s.deleted else "")
        + (f"Gated: {s.gated}   " if s.gated else "")
        + (f"Skipped (being deleted): {s.skipped}   " if s.skipped else "")
        + f"Pods for other schedulers (left alone): {s.other_schedulers}"
    )


def _print_failures(console: Console, shown: Sequence[PodOutcome]) -> None:
    by_reason: dict[tuple[str, str], list[str]] = defaultdict(list)
    for outcome in shown:
        if outcome.status in (UNSCHEDULABLE, ERROR):
            by_reason[(outcome.status, outcome.message)].append(outcome.pod)
    if not by_reason:
        return
    table = Table(title="Pods not scheduled, by reason", title_justify="left")
    table.add_column("Pods", justify="right")
    table.add_column("Status")
    table.add_column("Reason", overflow="fold", max_width=REASON_WIDTH)
    table.add_column("For example", overflow="fold", max_width=REASON_WIDTH)
    for (status, message), pods in sorted(by_reason.items(), key=lambda kv: -len(kv[1])):
        examples = ", ".join(pods[:EXAMPLES]) + (", ..." if len(pods) > EXAMPLES else "")
        style = STATUS_STYLES.get(status, "")
        table.add_row(str(len(pods)), Text(status, style=style), Text(message), Text(examples))
    console.print(table)


def _node_or_reason(outcome: PodOutcome) -> str:
    text = outcome.node if outcome.node is not None else outcome.message
    if outcome.nominated_node and outcome.node is None:
        text += f" (nominated to {outcome.nominated_node})"
    if outcome.victims:
        text += f" (preempted {', '.join(outcome.victims)})"
    if outcome.stopped:
        text += f" (not retried: {outcome.stopped})"
    return text


def _devices(outcome: PodOutcome) -> str:
    """The devices allocated to the pod's claims, `driver/pool/device`, one claim a line."""
    return "\n".join(
        f"{claim}: {', '.join(names) or '-'}" for claim, names in outcome.devices.items()
    )


def _print_pods(console: Console, shown: Sequence[PodOutcome], wide: bool) -> None:
    pods = Table(title="Pending pods, in scheduling order", title_justify="left")
    pods.add_column("#", justify="right")
    pods.add_column("Pod")
    if wide:
        pods.add_column("Profile")
    pods.add_column("Status")
    pods.add_column("Node or reason", overflow="fold", max_width=REASON_WIDTH)
    pods.add_column("Attempts", justify="right")
    devices = any(outcome.devices for outcome in shown)
    if devices:
        pods.add_column("Devices", overflow="fold", max_width=REASON_WIDTH)
    for i, outcome in enumerate(shown, 1):
        style = STATUS_STYLES.get(outcome.status, "")
        pods.add_row(
            str(i),
            Text(outcome.pod),
            *([Text(outcome.profile)] if wide else []),
            Text(outcome.status, style=style),
            Text(_node_or_reason(outcome)),
            str(outcome.attempts),
            *([Text(_devices(outcome))] if devices else []),
        )
    console.print(pods)


def _print_explanation(console: Console, outcome: PodOutcome) -> None:
    """The nodes shown of the last attempt: each one's Filter verdict, each Score plugin's
    normalized and weighted score ("normalized x weight = weighted" shown as `n → w`), the
    total and the free amount of each resource the pod requests; then the other nodes,
    grouped by verdict."""
    console.print(Text(f"{outcome.pod}: last attempt"), soft_wrap=True)  # never wrapped
    if outcome.request:
        wants = ", ".join(f"{n} {_amount_of(n)(a)}" for n, a in outcome.request.items())
        console.print(Text(f"effective request: {wants}"), soft_wrap=True)
    table = Table()
    table.add_column("Node")
    table.add_column("Filter", overflow="fold", max_width=REASON_WIDTH)
    nodes = (outcome.nodes or {}).values()
    plugins = sorted({p for n in nodes for p in n.scores})
    for plugin in plugins:
        table.add_column(Text(f"{plugin}\nnormalized → weighted"), justify="right")
    extenders = list(
        dict.fromkeys(e for n in nodes for e, v in n.extenders.items() if v.weighted is not None)
    )
    for extender in extenders:
        table.add_column(Text(f"{extender}\nscore → weighted"), justify="right", overflow="fold")
    table.add_column("Total", justify="right")
    resources = list(dict.fromkeys(r for n in nodes for r in n.resources))
    for resource in resources:
        table.add_column(Text(f"{resource}\nfree/allocatable"), justify="right")
    for name, node in (outcome.nodes or {}).items():
        scores = [
            f"{node.scores[p][0]} → {node.scores[p][1]}" if p in node.scores else ""
            for p in plugins
        ]
        said = node.extenders
        scores += [
            f"{said[e].score} → {said[e].weighted}"
            if e in said and said[e].weighted is not None
            else ""
            for e in extenders
        ]
        total = "" if node.total is None else str(node.total)
        free = [_free(node.resources.get(r), _amount_of(r)) for r in resources]
        label = f"{name} (chosen)" if name == outcome.node else name
        table.add_row(Text(label), Text(_verdict(node)), *scores, total, *free)
    if outcome.nodes:
        console.print(table)
    if outcome.not_shown:
        _print_not_shown(console, outcome)
    if outcome.preemption is not None:
        _print_preemption(console, outcome.preemption)


def _verdict(node: NodeExplanation) -> str:
    if node.filter is None:
        return "passed"
    rejector = node.filter.plugin or next(
        (e for e, v in node.extenders.items() if v.code is not None and v.reasons), ""
    )
    return f"{rejector}: {node.filter.message}"


def _free(amounts: tuple[int, int] | None, show: Callable[[int], str]) -> str:
    if amounts is None:
        return ""
    allocatable, requested = amounts
    return f"{show(allocatable - requested)}/{show(allocatable)}"


def _print_not_shown(console: Console, outcome: PodOutcome) -> None:
    """The nodes left out of a short explanation, counted by verdict."""
    table = Table(title="Other nodes, by verdict", title_justify="left")
    table.add_column("Nodes", justify="right")
    table.add_column("Filter", overflow="fold", max_width=REASON_WIDTH)
    table.add_column("For example", overflow="fold", max_width=REASON_WIDTH)
    for group in outcome.not_shown or ():
        if group.filter is None:
            verdict = "passed, scored below the nodes shown"
        else:
            verdict = _verdict(NodeExplanation(group.filter))
        more = ", ..." if group.count > len(group.examples) else ""
        table.add_row(str(group.count), Text(verdict), Text(", ".join(group.examples) + more))
    console.print(table)


def _print_preemption(console: Console, preemption: Mapping[str, Any]) -> None:
    """The candidates a preemption weighed, and which won by which criterion."""
    console.print("Preemption candidates", highlight=False)
    table = Table()
    table.add_column("Node")
    table.add_column("Victims (most important first)", overflow="fold", max_width=REASON_WIDTH)
    table.add_column("PDB violations", justify="right")
    for candidate in preemption.get("candidates", []):
        node = str(candidate.get("node", ""))
        label = f"{node} (chosen)" if node == preemption.get("chosen") else node
        victims = ", ".join(str(v) for v in candidate.get("victims", []))
        table.add_row(Text(label), Text(victims), str(candidate.get("pdbViolations", "")))
    console.print(table)
    decided = preemption.get("decidedBy")
    if decided:
        console.print(Text(f"chosen by: {decided}"))


def _print_nodes(console: Console, usage: Sequence[NodeUsage]) -> None:
    extended = sorted({name for u in usage for name in u.extended})
    nodes = Table(title="Nodes", title_justify="left")
    for column in ("Node", "CPU requested", "Memory requested", "Pods", *extended):
        nodes.add_column(Text(column), justify="left" if column == "Node" else "right")
    for u in usage:
        others = [
            _share(*u.extended.get(name, (0, 0)), _amount_of(name)) if name in u.extended else ""
            for name in extended
        ]
        nodes.add_row(
            Text(u.name),
            _share(u.cpu_requested, u.cpu_allocatable, _cores),
            _share(u.memory_requested, u.memory_allocatable, _bytes),
            f"{u.pods}/{u.pods_allowed}",
            *others,
        )
    console.print(nodes)


def _amount_of(resource: str) -> Callable[[int], str]:
    """Cores for cpu (kept in millicores), bytes for memory, ephemeral storage and
    hugepages, plain counts for the rest (pods, GPUs, ...)."""
    if resource == CPU:
        return _cores
    if resource in (MEMORY, EPHEMERAL_STORAGE) or resource.startswith("hugepages-"):
        return _bytes
    return str


def _cores(millicores: int) -> str:
    return f"{millicores / 1000:g}"


def _bytes(amount: int) -> str:
    """Bytes in the largest binary unit that keeps a readable number (one decimal at most)."""
    for unit, size in (("Gi", 2**30), ("Mi", 2**20), ("Ki", 2**10)):
        if amount >= size:
            return f"{round(amount / size, 1):g}{unit}"
    return str(amount)


def _share(used: int, total: int, show: Callable[[int], str]) -> str:
    percent = f" ({100 * used // total}%)" if total else ""
    return f"{show(used)}/{show(total)}{percent}"
