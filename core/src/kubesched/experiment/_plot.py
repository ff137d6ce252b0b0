"""`compare --plot`: on a cluster, each config's metrics as bars (mean) with whiskers (min
to max over seeds), one panel per metric group; on a scenario, each config's series over
simulated time. matplotlib is the optional extra `kubesched-core[plot]`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kubesched.errors import KubeschedError
from kubesched.experiment._compare import Comparison
from kubesched.experiment._compare_document import metrics_document, spread_document

PANELS = (
    ("scheduled", "pods scheduled"),
    ("utilisation", "utilisation"),
    ("fragmentation", "fragmentation"),
)


def _bars(spreads: list[dict[str, Any]], group: str) -> dict[str, list[dict[str, float]]]:
    """Label -> one spread per config (zero where a config has none)."""
    zero = {"mean": 0.0, "min": 0.0, "max": 0.0}
    if group == "scheduled":
        return {"scheduled": [s["scheduled"] for s in spreads]}
    keys = list(dict.fromkeys(k for s in spreads for k in s[group]))
    return {key: [s[group].get(key, zero) for s in spreads] for key in keys}


def _pyplot() -> Any:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise KubeschedError(
            "--plot needs matplotlib: pip install 'kubesched-core[plot]'"
        ) from None
    return plt


SERIES_PANELS = (("cpu_allocation", "cpu allocated / allocatable"), ("pending", "pending pods"))


def _plot_replays(comparison: Comparison, path: Path) -> None:
    """A scenario: each config's series over simulated time (first seed), one line each."""
    plt = _pyplot()
    fig, axes = plt.subplots(1, len(SERIES_PANELS), figsize=(6 * len(SERIES_PANELS), 4))
    for ax, (column, title) in zip(axes, SERIES_PANELS, strict=True):
        for runs in comparison.configs:
            times = [float(row["time"] or 0) / 3600 for row in runs.series]
            values = [float(row.get(column) or 0) for row in runs.series]
            ax.step(times, values, where="post", label=runs.config.name)
        ax.set_title(title)
        ax.set_xlabel("simulated hours")
    axes[0].legend()
    fig.suptitle(f"{comparison.input.name}: seed {comparison.seeds[0]}")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def plot_comparison(comparison: Comparison, path: Path) -> None:
    """Write the figure to `path` (its format from the suffix, PNG usually)."""
    if comparison.configs and comparison.configs[0].replays:
        _plot_replays(comparison, path)
        return
    plt = _pyplot()
    names = [runs.config.name for runs in comparison.configs]
    spreads = [
        spread_document([metrics_document(m) for m in runs.metrics]) for runs in comparison.configs
    ]
    fig, axes = plt.subplots(1, len(PANELS), figsize=(5 * len(PANELS), 4), squeeze=False)
    width = 0.8 / max(len(names), 1)
    for ax, (group, title) in zip(axes[0], PANELS, strict=True):
        bars = _bars(spreads, group)
        labels = list(bars)
        for i, name in enumerate(names):
            xs = [j + i * width for j in range(len(labels))]
            means = [bars[label][i]["mean"] for label in labels]
            low = [
                max(m - bars[label][i]["min"], 0.0) for m, label in zip(means, labels, strict=True)
            ]
            high = [
                max(bars[label][i]["max"] - m, 0.0) for m, label in zip(means, labels, strict=True)
            ]
            ax.bar(xs, means, width, yerr=[low, high], capsize=3, label=name)
        ax.set_xticks([j + width * (len(names) - 1) / 2 for j in range(len(labels))], labels)
        ax.set_title(title)
    axes[0][0].legend()
    seeds = ", ".join(map(str, comparison.seeds))
    fig.suptitle(f"{comparison.input.name}: mean over seeds {seeds} (whiskers: min to max)")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
