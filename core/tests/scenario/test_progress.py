"""`replay`'s progress bar: simulated time on a terminal, nothing off one."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from kubesched.cli import _progress


@pytest.mark.parametrize(
    ("seconds", "shown"),
    [(0, "0s"), (59.9, "59s"), (61, "1m01s"), (3600, "1h00m00s"), (90061, "1d01h01m01s")],
)
def test_simulated_time_reads_in_days_hours_minutes(seconds: float, shown: str) -> None:
    assert _progress.format_seconds(seconds) == shown


def test_no_bar_off_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_progress, "PROGRESS_AFTER_SECONDS", 0.0)
    out = io.StringIO()
    bar = _progress.SimulatedTimeBar(Console(file=out, force_terminal=False), 600.0)
    bar(30.0, 1)
    bar.close()
    assert out.getvalue() == ""


def test_the_bar_shows_simulated_time_and_events(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_progress, "PROGRESS_AFTER_SECONDS", 0.0)
    out = io.StringIO()
    bar = _progress.SimulatedTimeBar(Console(file=out, force_terminal=True, width=120), 7200.0)
    bar(60.0, 3)
    bar(3725.0, 42)
    bar.close()
    shown = out.getvalue()
    assert "replaying" in shown and "1h02m05s simulated, 42 events" in shown
