"""The progress bar: only on a terminal, only once a run has lasted a while."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from kubesched.cli import simulate


def test_no_bar_off_a_terminal_or_on_short_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    for terminal, wait in ((False, 0.0), (True, 3600.0)):
        monkeypatch.setattr(simulate, "PROGRESS_AFTER_SECONDS", wait)
        out = io.StringIO()
        bar = simulate._ProgressBar(Console(file=out, force_terminal=terminal))
        bar(3, 10)
        bar.close()
        assert out.getvalue() == ""


def test_bar_on_a_terminal_for_long_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(simulate, "PROGRESS_AFTER_SECONDS", 0.0)
    out = io.StringIO()
    bar = simulate._ProgressBar(Console(file=out, force_terminal=True, width=80))
    bar(3, 10)
    bar(7, 10)
    bar.close()
    assert "scheduling" in out.getvalue() and "7/10" in out.getvalue()
