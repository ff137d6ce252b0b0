"""The OpenB study's figures' data, read from the table of `kubesched sweep
examples/openb/study.yaml`.

A row is one run: its config names the policy, its input `TRACE@TIES` the pod list
(`default`, or a family and its parameter: `cpu050`, `gpushare40`, `gpuspec10`,
`multigpu20`) and the tie rule, its seed the arrival order and the ties. Its
`observer.openbGpu.*` columns are the `openb-arrivals` summary. Every mean is over
the seeds of a (policy, trace, tie rule) in seed order, added in that order
(`add_in_order`); rows that failed or name no trace this way are left out.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable, Sequence
from pathlib import Path

from attrs import frozen

from kubesched_gpushare.floats import add_in_order
from kubesched_gpushare.replay.output import tie_rule
from kubesched_gpushare.scenarios import FIGURE_BINS, POD_TYPES

POLICIES = ("random", "dotprod", "clustering", "packing", "bestfit", "fgd", "fgd-bestfit")
"""The study's six policies and fgd+bestfit, in the order of every table and legend."""
FAMILIES = {
    "cpu": "CPU load of the CPU-only pods (trace cpuNNN: NNN %)",
    "gpushare": "GPU-sharing pods, % of GPU pods (trace gpushareNN)",
    "gpuspec": "GPU pods asking for a GPU model, % (trace gpuspecNN)",
    "multigpu": "multi-GPU pods, % (trace multigpuNN)",
}
"""Each family of traces and what its parameter (the number in the trace's name) means."""
CURVES = {
    "unallocatedGpuPercent": "unallocated GPU %",
    "fragAmountPercent": "fragmentation, % of GPU capacity",
    "fragRatioPercent": "fragmentation, % of idle GPU milli",
}
"""The series a run's summary carries at every bin of `FIGURE_BINS`, and their axis labels."""
_INPUT = re.compile(
    r"^(?P<trace>(?P<family>default|cpu|gpushare|gpuspec|multigpu)(?P<param>\d*))@(?P<ties>\w+)$"
)
_PREFIX = "observer.openbGpu."


@frozen
class Run:
    """One row of the study's table."""

    policy: str
    trace: str
    family: str
    param: int | None
    ties: str
    seed: int
    curves: dict[str, list[float | None]]
    failed: dict[str, int]

    @property
    def unallocated(self) -> float | None:
        """Unallocated GPU % at arrived = 100 %, the study's headline."""
        return self.curves["unallocatedGpuPercent"][-1]


def _number(text: str | None) -> float | None:
    if text is None or text in ("", "none"):
        return None
    return float(text)


def _run(row: dict[str, str]) -> Run | None:
    match = _INPUT.match(row.get("input", ""))
    if row.get("status") != "ok" or match is None:
        return None
    curves = {
        name: [_number(row.get(f"{_PREFIX}{name}At{b}")) for b in FIGURE_BINS] for name in CURVES
    }
    failed = {kind: int(row.get(f"{_PREFIX}failedPods.{kind}") or 0) for kind in POD_TYPES}
    param = match["param"]
    return Run(
        row["config"],
        match["trace"],
        match["family"],
        int(param) if param else None,
        match["ties"],
        int(row["seed"]),
        curves,
        failed,
    )


def read_runs(path: str | Path) -> list[Run]:
    """The runs of a sweep's table CSV (see the module docstring)."""
    with Path(path).open(newline="", encoding="utf-8") as handle:
        runs = [_run(row) for row in csv.DictReader(handle)]
    return [run for run in runs if run is not None]


def _mean(values: Iterable[float]) -> float | None:
    items = list(values)
    return add_in_order(items) / len(items) if items else None


def _by_seed(runs: Iterable[Run]) -> list[Run]:
    return sorted(runs, key=lambda r: r.seed)


def _select(runs: Sequence[Run], ties: str, **match: object) -> list[Run]:
    return [r for r in runs if r.ties == ties and all(getattr(r, k) == v for k, v in match.items())]


def policies_in(runs: Sequence[Run]) -> list[str]:
    """The policies of `runs`, the study's first, in `POLICIES` order, then any other."""
    present = {r.policy for r in runs}
    return [p for p in POLICIES if p in present] + sorted(present - set(POLICIES))


def family_points(
    runs: Sequence[Run], family: str, ties: str
) -> dict[str, list[tuple[int, float, int]]]:
    """Per policy, the family's traces as (parameter, mean unallocated GPU % at arrived =
    100 %, seeds), by parameter; a trace whose runs never reached 100 % is left out."""
    chosen = _select(runs, ties, family=family)
    out: dict[str, list[tuple[int, float, int]]] = {}
    for policy in policies_in(chosen):
        points = []
        params = sorted({r.param for r in chosen if r.param is not None})
        for param in params:
            values = [
                r.unallocated
                for r in _by_seed(_select(chosen, ties, policy=policy, param=param))
                if r.unallocated is not None
            ]
            mean = _mean(values)
            if mean is not None:
                points.append((param, mean, len(values)))
        if points:
            out[policy] = points
    return out


def mean_curves(
    runs: Sequence[Run], trace: str, ties: str, curve: str
) -> dict[str, list[float | None]]:
    """Per policy, the curve's mean over seeds at each bin of `FIGURE_BINS` (None where no
    seed has a value)."""
    chosen = _select(runs, ties, trace=trace)
    out: dict[str, list[float | None]] = {}
    for policy in policies_in(chosen):
        seeded = _by_seed(_select(chosen, ties, policy=policy))
        out[policy] = [
            _mean(v for r in seeded if (v := r.curves[curve][i]) is not None)
            for i in range(len(FIGURE_BINS))
        ]
    return out


def mean_failed(runs: Sequence[Run], trace: str, ties: str) -> dict[str, dict[str, float]]:
    """Per policy, the mean number of pods of each kind that failed up to arrived = 100 %."""
    chosen = _select(runs, ties, trace=trace)
    out: dict[str, dict[str, float]] = {}
    for policy in policies_in(chosen):
        seeded = _by_seed(_select(chosen, ties, policy=policy))
        out[policy] = {
            kind: add_in_order(float(r.failed[kind]) for r in seeded) / len(seeded)
            for kind in POD_TYPES
        }
    return out


def traces_in(runs: Sequence[Run]) -> list[str]:
    """The traces of `runs`: `default` first, then by family and parameter."""
    order = ["default", *FAMILIES]
    found = {(r.family, r.param or 0, r.trace) for r in runs}
    return [t for _, _, t in sorted(found, key=lambda f: (order.index(f[0]), f[1]))]


def seeds_text(seeds: Iterable[int]) -> str:
    """`seed 42`, `seeds 42-51` (a run of consecutive seeds) or `seeds 42, 44`."""
    ordered = sorted(set(seeds))
    if len(ordered) == 1:
        return f"seed {ordered[0]}"
    if ordered == list(range(ordered[0], ordered[-1] + 1)):
        return f"seeds {ordered[0]}-{ordered[-1]}"
    return "seeds " + ", ".join(map(str, ordered))


def seeds_label(runs: Sequence[Run]) -> str:
    """The seeds of `runs`: `seed 42` when every policy ran the same ones, else per group of
    policies, e.g. `fgd, bestfit: seeds 42-51; random: seed 42`."""
    by_policy = {p: frozenset(r.seed for r in runs if r.policy == p) for p in policies_in(runs)}
    groups: dict[frozenset[int], list[str]] = {}
    for policy, seeds in by_policy.items():
        groups.setdefault(seeds, []).append(policy)
    if len(groups) == 1:
        return seeds_text(next(iter(groups)))
    return "; ".join(f"{', '.join(names)}: {seeds_text(seeds)}" for seeds, names in groups.items())


def seed_table(runs: Sequence[Run], trace: str, ties: str) -> str:
    """Unallocated GPU % at arrived = 100 % of one trace per policy (rows) and seed
    (columns), and the mean over the seeds each policy ran, titled with the trace, the tie
    rule and the seeds; `-` where a policy has no run of a seed."""
    chosen = _select(runs, ties, trace=trace)
    seeds = sorted({r.seed for r in chosen})
    lines = [
        f"{trace}: unallocated GPU % at arrived = 100% per seed; {tie_rule(ties)}; "
        f"{seeds_label(chosen)}",
        "policy       " + "".join(f"{s:>7}" for s in seeds) + "     mean",
    ]
    for policy in policies_in(chosen):
        value = {r.seed: r.unallocated for r in _select(chosen, ties, policy=policy)}
        cells = [value.get(s) for s in seeds]
        done = [v for v in cells if v is not None]
        mean = _mean(done)
        lines.append(
            f"{policy:<13}"
            + "".join(f"{v:7.2f}" if v is not None else f"{'-':>7}" for v in cells)
            + (f"{mean:9.3f}" if mean is not None else f"{'-':>9}")
        )
    return "\n".join(lines)


def headline_table(runs: Sequence[Run], ties: str) -> str:
    """Unallocated GPU % at arrived = 100 % per trace (rows) and policy (columns), the mean
    over the seeds run (their count in the last column), titled with the tie rule and the
    seeds; `-` where a policy has no run of a trace."""
    chosen = [r for r in runs if r.ties == ties]
    policies = policies_in(chosen)
    lines = [
        f"unallocated GPU % at arrived = 100%, mean over the seeds run; {tie_rule(ties)}; "
        f"{seeds_text(r.seed for r in chosen)}, how many per trace in the last column",
        "trace        " + "".join(f"{p:>12}" for p in policies) + "  seeds",
    ]
    for trace in traces_in(chosen):
        cells, seeds = [], set()
        for policy in policies:
            values = [
                r.unallocated
                for r in _by_seed(_select(chosen, ties, trace=trace, policy=policy))
                if r.unallocated is not None
            ]
            if values:
                seeds.add(len(values))
            mean = _mean(values)
            cells.append(f"{mean:12.2f}" if mean is not None else f"{'-':>12}")
        counts = "/".join(str(n) for n in sorted(seeds))
        lines.append(f"{trace:<13}" + "".join(cells) + f"  {counts}")
    return "\n".join(lines)
