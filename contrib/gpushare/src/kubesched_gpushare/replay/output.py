"""The replay's outputs besides JSON: the summary table, a CSV of the series, a plot, and
the per-GPU view of the final placement."""

from __future__ import annotations

import csv
import importlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from kubesched_gpushare.replay.run import ReplayResult

TIE_RULES = {
    "first": "ties to the first node of a seeded order (the study's rule)",
    "random": "ties to a random tied node (kube-scheduler's rule)",
}
"""How each tie rule is named in a table title, a plot title and the docs."""


def tie_rule(ties: str) -> str:
    """The words naming a tie rule, e.g. for `first`: "ties to the first node ..."."""
    return TIE_RULES.get(ties, f"ties: {ties}")


def _cell(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def table(summary: dict[str, dict[str, float | None]], ties: str) -> str:
    """Unallocated GPU % at arrived = 100% per policy, as a plain-text table whose first
    line names the tie rule that produced it."""
    lines = [
        f"unallocated GPU % at arrived = 100%, {tie_rule(ties)}",
        "policy      seeds  mean   median  min    max    pods/s",
        "----------  -----  -----  ------  -----  -----  ------",
    ]
    for policy, row in summary.items():
        mean, median, low, high = (_cell(row[k]) for k in ("mean", "median", "min", "max"))
        lines.append(
            f"{policy:<10}  {int(row['seeds'] or 0):>5}  {mean:>5}  {median:>6}  "
            f"{low:>5}  {high:>5}  {row['podsPerSecond'] or 0:>6.1f}"
        )
    return "\n".join(lines)


def write_csv(path: Path, runs: Sequence[dict[str, Any]]) -> None:
    """One row per run and arrived-% bin: policy, tie rule, seed, arrived %, unallocated
    GPU %, frag amount %, frag ratio %."""
    with path.open("w", newline="") as handle:
        out = csv.writer(handle)
        out.writerow(
            [
                "policy",
                "ties",
                "seed",
                "arrived_percent",
                "unallocated_gpu_percent",
                "frag_amount_percent",
                "frag_ratio_percent",
            ]
        )
        for run in runs:
            series = zip(
                run["unallocatedGpuPercent"],
                run["fragAmountPercent"],
                run["fragRatioPercent"],
                strict=True,
            )
            for b, (u, a, r) in enumerate(series):
                out.writerow([run["policy"], run["ties"], run["seed"], b, u, a, r])


def _quantile(values: Sequence[float], q: float) -> float:
    """The q-quantile of sorted `values`, linear between neighbours."""
    at = q * (len(values) - 1)
    low = int(at)
    high = min(low + 1, len(values) - 1)
    return values[low] + (values[high] - values[low]) * (at - low)


def bands(
    runs: Sequence[dict[str, Any]], low: int = 75
) -> dict[str, tuple[list[int], list[float], list[float], list[float]]]:
    """Per policy, over its seeds: the arrived-% bins from `low`, and per bin the median,
    25th and 75th percentile of unallocated GPU %."""
    out = {}
    for policy in dict.fromkeys(r["policy"] for r in runs):
        series = [r["unallocatedGpuPercent"] for r in runs if r["policy"] == policy]
        xs: list[int] = []
        mid: list[float] = []
        q1: list[float] = []
        q3: list[float] = []
        for b in range(low, max(len(s) for s in series)):
            values = sorted(s[b] for s in series if b < len(s) and s[b] is not None)
            if values:
                xs.append(b)
                mid.append(_quantile(values, 0.5))
                q1.append(_quantile(values, 0.25))
                q3.append(_quantile(values, 0.75))
        out[policy] = (xs, mid, q1, q3)
    return out


def _count(seeds: dict[str, int]) -> str:
    """ "10" when every policy has 10 seeds, "1 to 10" otherwise."""
    low, high = min(seeds.values(), default=0), max(seeds.values(), default=0)
    return str(low) if low == high else f"{low} to {high}"


def figure(runs: Sequence[dict[str, Any]], ties: str, low: int = 75) -> Any:
    """The matplotlib Figure: unallocated GPU % against arrived workload, one line per policy
    (the median over its seeds) and a band between the 25th and 75th percentiles; the title
    names the tie rule."""
    try:
        importlib.import_module("matplotlib").use("Agg")
        plt: Any = importlib.import_module("matplotlib.pyplot")
    except ImportError:
        raise SystemExit("--plot needs matplotlib: install kubesched-gpushare[plot]") from None
    fig, axes = plt.subplots(figsize=(6, 4), dpi=100)
    seeds = {p: len({r["seed"] for r in runs if r["policy"] == p}) for p in bands(runs, low)}
    for policy, (xs, mid, q1, q3) in bands(runs, low).items():
        label = policy if len(set(seeds.values())) == 1 else f"{policy} ({seeds[policy]} seeds)"
        (line,) = axes.plot(xs, mid, label=label)
        axes.fill_between(xs, q1, q3, color=line.get_color(), alpha=0.2, linewidth=0)
    axes.set_xlabel("arrived workload (% of GPU capacity)")
    axes.set_ylabel("unallocated GPU (%)")
    axes.set_title(
        f"{tie_rule(ties)}\nmedian over {_count(seeds)} seed(s), band: 25th-75th percentile",
        fontsize=9,
    )
    axes.grid(alpha=0.3)
    axes.legend()
    fig.tight_layout()
    plt.close(fig)
    return fig


def plot(path: Path, runs: Sequence[dict[str, Any]], ties: str, low: int = 75) -> None:
    """Write `figure(runs, ties)` to `path` as a PNG."""
    figure(runs, ties, low).savefig(path, format="png")


def per_gpu(results: Sequence[ReplayResult]) -> list[dict[str, Any]]:
    """Each run's final placement: node -> used milli of each GPU."""
    return [{"policy": r.policy, "seed": r.seed, "gpus": r.gpus} for r in results]
