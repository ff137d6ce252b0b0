"""The progress bar: only on a terminal, only once a run has lasted a while, and moving with
every attempt (retries included)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console

from kubesched.api import load_manifests
from kubesched.api._load_progress import LoadProgress
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


def progress(total: int, done: int, objects: int, elapsed: float) -> LoadProgress:
    return LoadProgress(total_bytes=total, done_bytes=done, objects=objects, elapsed=elapsed)


@pytest.mark.parametrize(
    ("state", "text"),
    [
        (progress(120_000_000, 0, 0, 5.0), "reading x.yaml: 0.0 of 120.0 MB, 0 objects"),
        (
            progress(120_000_000, 30_000_000, 12_345, 10.0),
            "reading x.yaml: 30.0 of 120.0 MB, 12,345 objects, about 30 s left",
        ),
        (
            progress(120_000_000, 1_000_000, 100, 90.0),
            "reading x.yaml: 1.0 of 120.0 MB, 100 objects, about 2 h 58 min left",
        ),
        (progress(0, 0, 1, 1.0), "reading x.yaml: 1 object"),
        (progress(10, 10, 7, 1.0), "reading x.yaml: 0.0 of 0.0 MB, 7 objects"),
    ],
    ids=["parsing", "a quarter", "slow", "standard input", "done"],
)
def test_loading_text_says_bytes_objects_and_time_left(state: LoadProgress, text: str) -> None:
    assert _progress.describe_loading("reading x.yaml", state) == text


def test_the_spinner_follows_a_real_load(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """On a terminal the loader's watcher rewrites the spinner; the last text counts every
    object of the input."""
    monkeypatch.setattr(_progress, "REFRESH_SECONDS", 0.0)
    nodes = ",".join(
        f'{{"apiVersion": "v1", "kind": "Node", "metadata": {{"name": "n{i}"}}}}'
        for i in range(1500)
    )
    path = tmp_path / "big.json"
    path.write_text(f'{{"apiVersion": "v1", "kind": "List", "items": [{nodes}]}}')
    console = Console(file=io.StringIO(), force_terminal=True, width=120)
    with _progress.loading(console, "reading big.json") as watch:
        assert isinstance(watch, _progress.LoadingDisplay)
        load_manifests(path, progress=watch)
    size = path.stat().st_size / 1_000_000
    assert watch.text == f"reading big.json: {size:.1f} of {size:.1f} MB, 1,500 objects"


def test_no_watcher_off_a_terminal() -> None:
    with _progress.loading(Console(file=io.StringIO()), "reading x.yaml") as watch:
        assert watch is None
