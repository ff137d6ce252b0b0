"""The documentation site builds with `mkdocs build --strict`: no broken link, no missing page,
and the generated references are there."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from kubesched.framework import HOOKS

REPO = Path(__file__).resolve().parents[2]


def test_site_builds_strictly_with_generated_references(tmp_path: Path) -> None:
    site = tmp_path / "site"
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=REPO,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    log = result.stdout + result.stderr
    assert result.returncode == 0, log
    assert "WARNING" not in log, log
    hooks = (site / "writing-plugins" / "hookspecs" / "index.html").read_text(encoding="utf-8")
    missing = [h for h in HOOKS if f'id="kubesched.framework.hookspecs.{h}"' not in hooks]
    assert missing == []
    cli = (site / "reference" / "cli" / "index.html").read_text(encoding="utf-8")
    assert "kubesched plugins" in cli
