"""The OpenB study's figures from the table of `kubesched sweep examples/openb/study.yaml`.

usage: python examples/openb/figures.py TABLE.csv OUT_DIR [--ties first|random]

Per tie rule in the table (or the one named) and per family of traces (cpu, gpushare,
gpuspec, multigpu), it writes to OUT_DIR:

- openb-FAMILY-unallocated-TIES.png: unallocated GPU % at arrived = 100 % per policy
  against the family's parameter (mean over the seeds run);
- openb-FAMILY-frag-TIES.png: fragmentation amount (% of GPU capacity) and ratio (% of
  idle GPU milli) over the arrived workload, one panel per trace;
- openb-FAMILY-failed-TIES.png: the pods that failed up to arrived = 100 %, by kind;

the frag and failed figures of the default trace (FAMILY `default`), and prints the
headline table (trace x policy) and the default trace's table per seed. Every title names
the tie rule and the seeds. Needs matplotlib
(`kubesched-gpushare[plot]`).
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from kubesched_gpushare.replay.output import tie_rule
from kubesched_gpushare.scenarios import FIGURE_BINS, POD_TYPES
from kubesched_gpushare.study import (
    CURVES,
    FAMILIES,
    Run,
    family_points,
    headline_table,
    mean_curves,
    mean_failed,
    read_runs,
    seed_table,
    seeds_label,
    traces_in,
)

DPI = 80
KINDS = {"cpu": "no GPU", "share": "part of a GPU", "gpu1": "one GPU", "multi": "several GPUs"}


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def unallocated_figure(runs: Sequence[Run], family: str, ties: str, out: Path) -> Path | None:
    points = family_points(runs, family, ties)
    if not points:
        return None
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6, 4))
    for policy, values in points.items():
        ax.plot([p for p, _, _ in values], [m for _, m, _ in values], marker="o", label=policy)
    ax.set_xlabel(FAMILIES[family])
    ax.set_ylabel("unallocated GPU % at arrived = 100 %")
    seeds = seeds_label([r for r in runs if r.ties == ties and r.family == family])
    ax.set_title(f"{family}: {tie_rule(ties)}\nmean over {seeds}", fontsize=9)
    ax.legend(fontsize=7)
    ax.grid(alpha=0.3)
    return _save(fig, plt, out / f"openb-{family}-unallocated-{ties}.png")


def _family_traces(runs: Sequence[Run], family: str, ties: str) -> list[str]:
    return [t for t in traces_in([r for r in runs if r.ties == ties and r.family == family])]


def _seeds(runs: Sequence[Run], family: str, ties: str) -> str:
    return seeds_label([r for r in runs if r.ties == ties and r.family == family])


def frag_figure(runs: Sequence[Run], family: str, ties: str, out: Path) -> Path | None:
    traces = _family_traces(runs, family, ties)
    if not traces:
        return None
    plt = _pyplot()
    names = ("fragAmountPercent", "fragRatioPercent")
    width = _width(len(traces))
    fig, axes = plt.subplots(2, len(traces), figsize=(width, 5.6), squeeze=False)
    for col, trace in enumerate(traces):
        for row, name in enumerate(names):
            ax = axes[row][col]
            for policy, curve in mean_curves(runs, trace, ties, name).items():
                xs = [b for b, v in zip(FIGURE_BINS, curve, strict=True) if v is not None]
                ax.plot(xs, [v for v in curve if v is not None], label=policy)
            ax.set_title(trace, fontsize=9)
            ax.set_xlabel("arrived workload, % of GPU capacity", fontsize=8)
            ax.set_ylabel(CURVES[name], fontsize=8)
            ax.grid(alpha=0.3)
    axes[0][0].legend(fontsize=6)
    _suptitle(
        fig,
        f"{family}: fragmentation over arrived workload; {tie_rule(ties)}; "
        f"mean over {_seeds(runs, family, ties)}",
        width,
    )
    return _save(fig, plt, out / f"openb-{family}-frag-{ties}.png")


def failed_figure(runs: Sequence[Run], family: str, ties: str, out: Path) -> Path | None:
    traces = _family_traces(runs, family, ties)
    if not traces:
        return None
    plt = _pyplot()
    width = _width(len(traces))
    fig, axes = plt.subplots(1, len(traces), figsize=(width, 3.6), squeeze=False)
    for col, trace in enumerate(traces):
        ax = axes[0][col]
        failed = mean_failed(runs, trace, ties)
        policies = list(failed)
        bottom = [0.0] * len(policies)
        for kind in POD_TYPES:
            heights = [failed[p][kind] for p in policies]
            ax.bar(policies, heights, bottom=bottom, label=KINDS[kind])
            bottom = [b + h for b, h in zip(bottom, heights, strict=True)]
        ax.set_title(trace, fontsize=9)
        ax.tick_params(axis="x", labelrotation=60, labelsize=7)
        ax.set_ylabel("failed pods up to arrived = 100 %", fontsize=8)
    axes[0][0].legend(fontsize=6)
    _suptitle(
        fig,
        f"{family}: failed pods by kind; {tie_rule(ties)}; mean over {_seeds(runs, family, ties)}",
        width,
    )
    return _save(fig, plt, out / f"openb-{family}-failed-{ties}.png")


def _width(panels: int) -> float:
    """Inches: 3.2 a panel, and room for a title of two or three lines."""
    return max(3.2 * panels, 6.4)


def _suptitle(fig: Any, text: str, width: float) -> None:
    """The figure's title wrapped to its width (about 11 characters an inch at 9 pt)."""
    fig.suptitle(textwrap.fill(text, int(11 * width)), fontsize=9)


def _save(fig: Any, plt: Any, path: Path) -> Path:
    fig.tight_layout()
    fig.savefig(path, dpi=DPI)
    plt.close(fig)
    return path


def figures(runs: Sequence[Run], out: Path, ties: str) -> list[Path]:
    """Every figure of the tie rule `ties` the runs allow; the paths written."""
    written: list[Path | None] = []
    for family in FAMILIES:
        written.append(unallocated_figure(runs, family, ties, out))
    for family in ("default", *FAMILIES):
        written.append(frag_figure(runs, family, ties, out))
        written.append(failed_figure(runs, family, ties, out))
    return [p for p in written if p is not None]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("table", type=Path, help="the sweep's table.csv")
    parser.add_argument("out", type=Path, help="the folder of the figures")
    parser.add_argument("--ties", choices=("first", "random"), help="default: every rule run")
    args = parser.parse_args(argv)
    try:
        runs = read_runs(args.table)
    except OSError as exc:
        print(f"error: {args.table}: {exc.strerror}", file=sys.stderr)
        return 2
    rules = [args.ties] if args.ties else sorted({r.ties for r in runs})
    args.out.mkdir(parents=True, exist_ok=True)
    for ties in rules:
        print(headline_table(runs, ties))
        print(seed_table(runs, "default", ties))
        for path in figures(runs, args.out, ties):
            print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
