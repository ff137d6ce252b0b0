"""The progress bar: only on a terminal, only once a run has lasted a while, and moving with
every attempt (retries included)."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from kubesched.cli import _progress


def test_no_bar_off_a_terminal_or_on_short_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    for terminal, wait in ((False, 0.0), (True, 3600.0)):
        monkeypatch.setattr(_progress, "PROGRESS_AFTER_SECONDS", wait)
        out = io.StringIO()
        bar = _progress.ProgressBar(Console(file=out, force_terminal=terminal), lambda: 0)
        bar(3, 10)
        bar.close()
        assert out.getvalue() == ""


def test_bar_on_a_terminal_for_long_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_progress, "PROGRESS_AFTER_SECONDS", 0.0)
    out = io.StringIO()
    attempts = iter([3, 12])
    bar = _progress.ProgressBar(
        Console(file=out, force_terminal=True, width=120), lambda: next(attempts)
    )
    bar(3, 10)
    bar(7, 10)
    bar.close()
    shown = out.getvalue()
    assert "scheduling" in shown and "7/10" in shown and "12 attempts" in shown
    assert "left:" in shown


def test_loading_says_what_it_reads_on_a_terminal_only() -> None:
    for terminal in (False, True):
        out = io.StringIO()
        with _progress.loading(Console(file=out, force_terminal=terminal), "reading x.yaml"):
            pass
        assert ("reading x.yaml" in out.getvalue()) is terminal
