"""The replay's outputs besides JSON: the summary table, a CSV of the series, a plot, and
the per-GPU view of the final placement."""

from __future__ import annotations

import csv
import importlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from kubesched_gpushare.replay.run import ReplayResult


def table(summary: dict[str, dict[str, float]]) -> str:
    """Unallocated GPU % at arrived = 100% per policy, as a plain-text table."""
    lines = [
        "policy      seeds  mean   median  min    max    pods/s",
        "----------  -----  -----  ------  -----  -----  ------",
    ]
    for policy, row in summary.items():
        lines.append(
            f"{policy:<10}  {int(row['seeds']):>5}  {row['mean']:>5.2f}  {row['median']:>6.2f}  "
            f"{row['min']:>5.2f}  {row['max']:>5.2f}  {row['podsPerSecond']:>6.1f}"
        )
    return "\n".join(lines)


def write_csv(path: Path, runs: Sequence[dict[str, Any]]) -> None:
    """One row per run and arrived-% bin: policy, seed, arrived %, unallocated GPU %,
    frag amount %, frag ratio %."""
    with path.open("w", newline="") as handle:
        out = csv.writer(handle)
        out.writerow(
            [
                "policy",
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
                out.writerow([run["policy"], run["seed"], b, u, a, r])


def plot(path: Path, runs: Sequence[dict[str, Any]], low: int = 75) -> None:
    """Unallocated GPU % against arrived workload, the median over seeds per policy."""
    try:
        importlib.import_module("matplotlib").use("Agg")
        plt: Any = importlib.import_module("matplotlib.pyplot")
    except ImportError:
        raise SystemExit("--plot needs matplotlib (pip install matplotlib)") from None
    figure, axes = plt.subplots(figsize=(6, 4))
    for policy in dict.fromkeys(r["policy"] for r in runs):
        series = [r["unallocatedGpuPercent"] for r in runs if r["policy"] == policy]
        xs, ys = [], []
        for b in range(low, len(series[0])):
            values = sorted(s[b] for s in series if s[b] is not None)
            if values:
                xs.append(b)
                ys.append(values[len(values) // 2])
        axes.plot(xs, ys, label=policy)
    axes.set_xlabel("arrived workload (% of GPU capacity)")
    axes.set_ylabel("unallocated GPU (%)")
    axes.legend()
    figure.tight_layout()
    figure.savefig(path)


def per_gpu(results: Sequence[ReplayResult]) -> list[dict[str, Any]]:
    """Each run's final placement: node -> used milli of each GPU."""
    return [{"policy": r.policy, "seed": r.seed, "gpus": r.gpus} for r in results]
