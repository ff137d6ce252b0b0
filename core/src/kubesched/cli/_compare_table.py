"""`compare`'s table output: the pods placed differently and why, the pods only some configs
place, then the metrics with their spread over seeds. Data is printed as text, never markup."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.table import Table
from rich.text import Text

from kubesched.experiment import PLACED_DIFFERENTLY, Comparison, Difference, NodeView
from kubesched.experiment._compare_document import (
    COUNTS,
    metrics_document,
    replay_spread_document,
    spread_document,
)
from kubesched.experiment._inputs import SCENARIO

REASON_WIDTH = 80
"""Explanations and reasons wrap at this width."""


def print_comparison(console: Console, comparison: Comparison) -> None:
    """Everything `compare -o table` prints."""
    names = [runs.config.name for runs in comparison.configs]
    seed = comparison.seeds[0]
    moved = [d for d in comparison.differences if d.kind == PLACED_DIFFERENTLY]
    some = [d for d in comparison.differences if d.kind != PLACED_DIFFERENTLY]
    if not comparison.differences:
        console.print(
            f"Every pod is placed the same under every config (seed {seed}).",
            markup=False,
            highlight=False,
        )
    replayed = comparison.input.kind == SCENARIO
    if moved:
        _print_moved(console, names, moved, seed, explained=not replayed)
    if some:
        _print_some(console, names, some, seed)
    if replayed:
        _print_replay_metrics(console, comparison)
    else:
        _print_metrics(console, comparison)


def _delta(chosen: NodeView, other: NodeView) -> str:
    """Each Score plugin's weighted difference between two scored nodes, largest first."""
    mine = {plugin: weighted for plugin, _, weighted in chosen.scores}
    theirs = {plugin: weighted for plugin, _, weighted in other.scores}
    deltas = [(p, mine.get(p, 0) - theirs.get(p, 0)) for p in dict.fromkeys([*mine, *theirs])]
    shown = sorted((d for d in deltas if d[1]), key=lambda d: (-abs(d[1]), d[0]))
    return ", ".join(f"{p} {d:+d}" for p, d in shown) or "tie"


def _seen(node: str, view: NodeView) -> str:
    if not view.evaluated:
        return f"{node} not evaluated"
    if view.filter is not None:
        code, plugin, reasons = view.filter
        why = "; ".join(reasons) or code
        return f"{node} rejected by {plugin or code}: {why}"
    return f"{node} {view.total}"


def _why(difference: Difference, names: Sequence[str]) -> str:
    """For each config: its node's total against the other configs' nodes, by plugin."""
    lines = []
    for name in names:
        placement = difference.placements.get(name)
        views = difference.explanations.get(name, {})
        chosen = placement.node if placement is not None else None
        others = [node for node in views if node != chosen]
        if chosen is None or chosen not in views:
            seen = [_seen(node, views[node]) for node in others]
            lines.append(f"{name}: " + ("; ".join(seen) or "-"))
            continue
        parts = []
        for node in others:
            other = views[node]
            if other.evaluated and other.filter is None:
                parts.append(
                    f"{chosen} {views[chosen].total} vs {node} {other.total} "
                    f"({_delta(views[chosen], other)})"
                )
            else:
                parts.append(_seen(node, other))
        lines.append(f"{name}: " + "; ".join(parts))
    return "\n".join(lines)


def _print_moved(
    console: Console, names: Sequence[str], moved: list[Difference], seed: int, *, explained: bool
) -> None:
    table = Table(title=f"Pods placed differently (seed {seed})", title_justify="left")
    table.add_column("Pod", no_wrap=True)
    for name in names:
        table.add_column(Text(name), no_wrap=True)
    if explained:
        why = "Why (weighted Score differences)"
        table.add_column(why, overflow="fold", max_width=REASON_WIDTH)
    for d in moved:
        nodes = [(p.node or "-") if (p := d.placements.get(n)) else "-" for n in names]
        reasons = [_why(d, names)] if explained else []
        table.add_row(*map(Text, [d.pod, *nodes, *reasons]))
    console.print(table)


def _print_some(console: Console, names: Sequence[str], some: list[Difference], seed: int) -> None:
    table = Table(title=f"Pods only some configs place (seed {seed})", title_justify="left")
    table.add_column("Pod", no_wrap=True)
    for name in names:
        table.add_column(Text(name), overflow="fold", max_width=REASON_WIDTH // 2)
    for d in some:
        cells = []
        for name in names:
            placement = d.placements.get(name)
            if placement is None:
                cells.append("not served by this config")
            elif placement.node:
                cells.append(placement.node)
            elif placement.message:
                cells.append(f"{placement.status}: {placement.message}")
            else:
                cells.append(placement.status)
        table.add_row(*map(Text, [d.pod, *cells]))
    console.print(table)


def _cell(values: dict[str, float], percent: bool) -> str:
    def fmt(value: float) -> str:
        if percent:
            return f"{value:.1%}"
        return f"{value:g}" if value == int(value) else f"{value:.2f}"

    if values["min"] == values["max"]:
        return fmt(values["mean"])
    return f"{fmt(values['mean'])} [{fmt(values['min'])}-{fmt(values['max'])}]"


def _title(seeds: Sequence[int]) -> str:
    over = f" (mean [min-max] over seeds {', '.join(map(str, seeds))})"
    return "Metrics" + (over if len(seeds) > 1 else "")


def _print_replay_metrics(console: Console, comparison: Comparison) -> None:
    """A row per numeric replay metric (ratios as percentages, times in seconds)."""
    table = Table(title=Text(_title(comparison.seeds)), title_justify="left")
    table.add_column("Metric", overflow="fold")
    spreads = []
    for runs in comparison.configs:
        table.add_column(Text(runs.config.name), justify="right", no_wrap=True)
        spreads.append(replay_spread_document(runs.replays))
    keys = list(dict.fromkeys(key for s in spreads for key in s))
    for key in keys:
        percent = key.startswith("utilisation")
        cells = [_cell(s[key], percent) if key in s else "-" for s in spreads]
        table.add_row(*map(Text, [key, *cells]))
    console.print(table)


def _print_metrics(console: Console, comparison: Comparison) -> None:
    title = _title(comparison.seeds)
    table = Table(title=Text(title), title_justify="left")
    table.add_column("Metric", overflow="fold")
    spreads = []
    for runs in comparison.configs:
        table.add_column(Text(runs.config.name), justify="right", no_wrap=True)
        spreads.append(spread_document([metrics_document(m) for m in runs.metrics]))
    for count in COUNTS:
        table.add_row(*map(Text, [count, *(_cell(s[count], False) for s in spreads)]))
    for group, label, percent in (
        ("unschedulableByReason", "unschedulable: {}", False),
        ("utilisation", "utilisation {}", True),
        ("fragmentation", "fragmentation {}", True),
    ):
        keys = list(dict.fromkeys(key for s in spreads for key in s[group]))
        for key in keys:
            zero = {"mean": 0.0, "min": 0.0, "max": 0.0}
            cells = [_cell(s[group].get(key, zero), percent) for s in spreads]
            table.add_row(*map(Text, [label.format(key), *cells]))
    console.print(table)
