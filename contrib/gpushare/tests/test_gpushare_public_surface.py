"""The GPU-sharing distributions use only kubesched's public modules: the plugin surface
(`kubesched`, `kubesched.api`, `kubesched.framework`, `kubesched.errors`), the replay engine
(`kubesched.replay`) and, for test helpers, `kubesched.testing` and `kubesched.cli`. The
scheduler's, profile's and cluster's modules are core's own: the replay drives the scheduler
through `kubesched.replay` and its tie rule is the engine's option."""

from __future__ import annotations

import re
from pathlib import Path

CONTRIB = Path(__file__).resolve().parents[2]
PUBLIC = {
    "kubesched",
    "kubesched.api",
    "kubesched.errors",
    "kubesched.framework",
    "kubesched.replay",
    "kubesched.testing",
    "kubesched.cli",
}
IMPORT = re.compile(r"^\s*(?:from|import)\s+(kubesched(?:\.\w+)*)\b", re.MULTILINE)


def imported(tree: Path) -> dict[str, set[str]]:
    """kubesched module -> the files under `tree` that import it."""
    found: dict[str, set[str]] = {}
    for path in sorted(tree.rglob("*.py")):
        for module in IMPORT.findall(path.read_text(encoding="utf-8")):
            found.setdefault(module, set()).add(path.name)
    return found


def test_the_sources_import_only_public_kubesched_modules() -> None:
    sources = [d / "src" for d in sorted(CONTRIB.glob("gpushare*"))]
    assert len(sources) == 7
    used: dict[str, set[str]] = {}
    for tree in sources:
        for module, files in imported(tree).items():
            used.setdefault(module, set()).update(files)
    assert "kubesched.replay" in used  # the replay runs on the engine
    assert {m: f for m, f in used.items() if m not in PUBLIC} == {}


def test_the_check_sees_an_internal_import(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text(
        "from kubesched.api import Pod\n"
        "    from kubesched.scheduler.loop import next_pod\n"
        "import kubesched.profile\n"
    )
    assert imported(tmp_path) == {
        "kubesched.api": {"m.py"},
        "kubesched.scheduler.loop": {"m.py"},
        "kubesched.profile": {"m.py"},
    }
