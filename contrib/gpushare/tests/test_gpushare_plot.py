"""`--plot`: a PNG of unallocated GPU % against arrived workload, one line per policy."""

from __future__ import annotations

import json
import statistics
from pathlib import Path

import pytest
from click.testing import CliRunner

from kubesched_gpushare.replay.command import openb
from kubesched_gpushare.replay.output import bands, figure
from kubesched_gpushare.testing import write_openb_trace

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def test_the_plot_has_one_median_line_per_policy(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    write_openb_trace(tmp_path)
    png = tmp_path / "openb.png"
    out = tmp_path / "openb.json"
    args = [str(tmp_path), "--policies", "fgd,bestfit,random", "--seeds", "1,2,3"]
    result = CliRunner().invoke(openb, [*args, "--json", str(out), "--plot", str(png)])
    assert result.exit_code == 0, result.output
    assert png.read_bytes().startswith(PNG_SIGNATURE)
    assert png.stat().st_size > 10_000
    runs = json.loads(out.read_text())["runs"]
    fig = figure(runs, "first")
    [axes] = fig.axes
    assert axes.get_title().startswith("ties to the first node of a seeded order")
    lines = axes.get_lines()
    assert [line.get_label() for line in lines] == ["fgd", "bestfit", "random"]
    assert len(axes.collections) == 3  # one 25th-75th percentile band per policy
    for line in lines:
        series = [r["unallocatedGpuPercent"] for r in runs if r["policy"] == line.get_label()]
        xs = list(line.get_xdata())
        assert xs[0] == 75 and xs == sorted(xs)
        for x, y in zip(xs, line.get_ydata(), strict=True):
            values = [s[x] for s in series if s[x] is not None]
            assert y == pytest.approx(statistics.median(values))
    assert "arrived" in axes.get_xlabel() and "unallocated" in axes.get_ylabel()


def test_the_band_lies_around_the_median() -> None:
    runs = [
        {"policy": "p", "seed": s, "unallocatedGpuPercent": [None] * 75 + [v, v + 1]}
        for s, v in enumerate([10.0, 20.0, 30.0, 40.0, 50.0])
    ]
    [(xs, mid, q1, q3)] = bands(runs).values()
    assert xs == [75, 76]
    assert mid == [30.0, 31.0]
    assert q1 == [20.0, 21.0] and q3 == [40.0, 41.0]


def test_runs_stopped_early_end_their_band_there() -> None:
    runs = [
        {"policy": "p", "seed": 1, "unallocatedGpuPercent": [None] * 75 + [10.0, 11.0, 12.0]},
        {"policy": "p", "seed": 2, "unallocatedGpuPercent": [None] * 75 + [20.0]},
    ]
    [(xs, mid, _, _)] = bands(runs).values()
    assert xs == [75, 76, 77]
    assert mid == [15.0, 11.0, 12.0]


def test_policies_with_different_seed_counts_say_so_in_the_legend() -> None:
    pytest.importorskip("matplotlib")
    runs = [
        {"policy": "a", "seed": s, "unallocatedGpuPercent": [None] * 75 + [float(s)]}
        for s in (1, 2, 3)
    ] + [{"policy": "b", "seed": 1, "unallocatedGpuPercent": [None] * 75 + [5.0]}]
    [axes] = figure(runs, "random").axes
    assert [line.get_label() for line in axes.get_lines()] == ["a (3 seeds)", "b (1 seeds)"]
    assert "median over 1 to 3 seed(s)" in axes.get_title()
    assert axes.get_title().startswith("ties to a random tied node")
