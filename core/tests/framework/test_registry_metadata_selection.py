"""Entry-point selection and deduplication are kubesched's own rules over
`importlib.metadata.distributions()`, so they are the same on every supported Python
(3.10 to 3.13, each run by a nox session); docs/writing-plugins/compatibility.md says why no
backport is needed."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from kubesched.cli._commands import discover_commands
from kubesched.framework._registry import Registry

PLUGIN = "class Copy:\n    def __init__(self, args, handle):\n        self.where = __file__\n"


def make_copy(root: Path, dist_name: str, version: str, module: str) -> None:
    """One installed copy of a distribution: its .dist-info folder and its module."""
    root.mkdir(parents=True)
    info = root / f"{dist_name.replace('-', '_')}-{version}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {dist_name}\nVersion: {version}\n"
    )
    (info / "entry_points.txt").write_text(
        f"[kubesched.plugins]\nCopy = {module}:Copy\n\n"
        f"[kubesched.commands]\ncopy = {module}:command\n\n"
        f"[console_scripts]\nCopy = {module}:Copy\n"
    )
    (root / f"{module}.py").write_text(PLUGIN)


@pytest.fixture
def two_copies(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The same distribution installed twice, spelled differently, in two sys.path entries:
    the one earlier on sys.path has version 2.0."""
    make_copy(tmp_path / "first", "kubesched-copy", "2.0", "fakecopy_first")
    make_copy(tmp_path / "second", "Kubesched_Copy", "1.0", "fakecopy_second")
    monkeypatch.syspath_prepend(str(tmp_path / "second"))
    monkeypatch.syspath_prepend(str(tmp_path / "first"))
    yield tmp_path
    for name in [m for m in sys.modules if m.startswith("fakecopy")]:
        del sys.modules[name]


def test_the_first_copy_on_sys_path_wins_and_the_other_is_not_a_conflict(
    two_copies: Path,
) -> None:
    registry = Registry.discover({})
    spec = registry.get("Copy")
    assert (spec.distribution, spec.version, spec.value) == (
        "kubesched-copy",
        "2.0",
        "fakecopy_first:Copy",
    )
    assert registry.conflicts() == {}
    assert registry.load("Copy").__module__ == "fakecopy_first"


def test_commands_follow_the_same_rule(two_copies: Path) -> None:
    command = discover_commands(frozenset(), {})["copy"]
    assert (command.version, command.value, command.problem) == (
        "2.0",
        "fakecopy_first:command",
        None,
    )


def test_only_the_kubesched_groups_are_selected(two_copies: Path) -> None:
    registry = Registry.discover({})
    assert [n for n in registry if n.lower() == "copy"] == ["Copy"]
    assert set(discover_commands(frozenset(), {})) >= {"copy"}
    assert "Copy" not in discover_commands(frozenset(), {})
