"""A real browser for the report's tests: Debian's Chromium, driven by Playwright.

Playwright's own browser download is not used: the tests launch the system's
`/usr/bin/chromium`. Where it is missing and the tests run as root, the first
worker to need it installs it (`apt-get install chromium`) while the others
wait on a file lock; the tests skip, saying why, only where no browser can be
installed.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
INSTALL = (["apt-get", "update"], ["apt-get", "install", "-y", "chromium"])


def install_chromium(lock_dir: Path) -> str | None:
    """Make /usr/bin/chromium exist; None when it does, else why it cannot."""
    if CHROMIUM.exists():
        return None
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return f"{CHROMIUM} is missing and installing it needs root (apt-get install chromium)"
    if shutil.which("apt-get") is None:
        return f"{CHROMIUM} is missing and there is no apt-get to install it with"
    from filelock import FileLock

    with FileLock(str(lock_dir / "kubesched-chromium-install.lock")):
        if CHROMIUM.exists():  # another worker installed it while this one waited
            return None
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        for command in INSTALL:
            done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
            if done.returncode != 0:
                last = (done.stderr.strip().splitlines() or ["no output"])[-1]
                return f"`{' '.join(command)}` failed ({done.returncode}): {last}"
    return None if CHROMIUM.exists() else f"apt-get installed chromium but {CHROMIUM} is missing"


@pytest.fixture(scope="session")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A headless Chromium for the whole session (skips, saying why, where none can be had)."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("the report's browser tests need playwright (the root dev group)")
    problem = install_chromium(tmp_path_factory.getbasetemp().parent)
    if problem is not None:
        pytest.skip(f"no browser for the report's tests: {problem}")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A fresh page, 1400 px wide; the test fails on any script error or dialog it raised."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    context.set_default_timeout(90_000)  # a machine shared with other test runs can be slow
    opened = context.new_page()
    problems: list[str] = []
    opened.on("pageerror", lambda error: problems.append(f"script error: {error}"))
    opened.on("dialog", lambda dialog: problems.append(f"dialog: {dialog.message}"))
    opened.on(
        "console",
        lambda m: problems.append(f"console: {m.text}") if m.type in ("error", "warning") else None,
    )
    # Nothing on the page may reach for the network: every request but the file is refused.
    opened.route(
        "**/*",
        lambda route: (
            route.continue_()
            if route.request.url.startswith("file://")
            else (problems.append(f"request: {route.request.url}"), route.abort())
        ),
    )
    yield opened
    context.close()
    assert problems == []


@pytest.fixture
def open_row() -> Callable[[Any, str, str], None]:
    """Click a table row until what it opens shows: a click that lands while Tabulator is
    still laying the table out (a chart beside it resizing) can be lost, as a person's would
    be; they click again, and so does the test, up to five times."""

    def click(page: Any, row: str, opens: str) -> None:
        for _ in range(4):
            page.click(row)
            try:
                page.wait_for_selector(opens, timeout=10_000)
                return
            except Exception:  # playwright's TimeoutError: click again
                continue
        page.click(row)
        page.wait_for_selector(opens)

    return click
