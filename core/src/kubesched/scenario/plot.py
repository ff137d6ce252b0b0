"""`--plot`: the series drawn in three panels over simulated hours: allocation per
resource, pending pods, scheduling latency (matplotlib, the `kubesched-core[plot]` extra)."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from kubesched.scenario.result import ReplayResult, write_atomically

HIDDEN_RESOURCES = frozenset({"pods"})
"""Resources left out of the allocation panel (the pod slots say little)."""


def plot_bytes(result: ReplayResult, *, title: str = "") -> bytes:
    """The PNG of the result's series."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    series = result.series
    hours = [s.at / 3600 for s in series]
    figure, (alloc, pending, latency) = plt.subplots(3, 1, figsize=(9, 8), sharex=True)
    names = sorted({n for s in series for n in s.resources} - HIDDEN_RESOURCES)
    for name in names:
        alloc.plot(hours, [_use(s.resources.get(name)) for s in series], label=name)
    alloc.set_ylabel("allocated / allocatable")
    alloc.set_ylim(0, 1.05)
    alloc.legend(loc="upper right", fontsize="small")
    pending.plot(hours, [s.pending for s in series], color="tab:red", label="pending")
    pending.plot(hours, [s.running for s in series], color="tab:green", label="running")
    pending.set_ylabel("pods")
    pending.legend(loc="upper right", fontsize="small")
    for p, style in (("latency_p50", "-"), ("latency_p90", "--"), ("latency_p99", ":")):
        points = [
            (h, v) for h, s in zip(hours, series, strict=True) if (v := getattr(s, p)) is not None
        ]
        latency.plot([h for h, _ in points], [v for _, v in points], style, label=p[-3:])
    latency.set_ylabel("creation to bound (s)")
    latency.set_xlabel("simulated hours")
    latency.legend(loc="upper right", fontsize="small")
    figure.suptitle(title or result.scenario or "replay")
    figure.tight_layout()
    out = io.BytesIO()
    figure.savefig(out, format="png", dpi=100, metadata={"Software": None})
    plt.close(figure)
    return out.getvalue()


def _use(use: Any) -> float:
    return 0.0 if use is None else float(use.allocation)


def write_plot(result: ReplayResult, path: Path, *, title: str = "") -> None:
    """The plot of the result's series to `path` (PNG), whole or not at all."""
    write_atomically(path, plot_bytes(result, title=title))
