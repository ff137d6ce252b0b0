"""Plugin distributions use only kubesched's public surface.

A plugin (built-in, contrib or generated from the template) imports kubesched
only from the public modules listed in docs/writing-plugins/public-api.md
(`PUBLIC` below): package roots, never a submodule of one, never a private
module. Everything else can change without notice.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PLUGIN_TREES = [
    *sorted((ROOT / "builtin_plugins").glob("*")),
    *sorted((ROOT / "contrib").glob("*")),
    ROOT / "plugin_template",
]


IMPORT = re.compile(r"^\s*(?:from|import)\s+(kubesched(?:\.\w+)*)\b", re.MULTILINE)
"""A kubesched import; read as text so the template's Jinja-laden files count too."""


def kubesched_imports(source: str) -> list[tuple[int, str]]:
    """(line, module) for every import of a kubesched module in `source`."""
    return [(source.count("\n", 0, m.start()) + 1, m.group(1)) for m in IMPORT.finditer(source)]


def private_imports(path: Path) -> list[str]:
    """`file:line: module` for every private kubesched module the file imports."""
    text = path.read_text(encoding="utf-8")
    return [
        f"{path.name}:{line}: {module}"
        for line, module in kubesched_imports(text)
        if any(part.startswith("_") for part in module.split("."))
    ]


PUBLIC = frozenset(
    {
        "kubesched",
        "kubesched.api",
        "kubesched.cli",
        "kubesched.cluster",
        "kubesched.config",
        "kubesched.discovery",
        "kubesched.errors",
        "kubesched.experiment",
        "kubesched.features",
        "kubesched.framework",
        "kubesched.framework.hookspecs",
        "kubesched.profile",
        "kubesched.replay",
        "kubesched.scenario",
        "kubesched.testing",
    }
)
"""The public modules, as docs/writing-plugins/public-api.md lists them."""

ALLOWED_VIOLATIONS = {
    # Preemption's test double of the Handle lists nodes through the scheduler's Snapshot;
    # kubesched.testing offers no SharedLister over NodeInfos yet.
    "builtin_plugins/defaultpreemption/tests/defaultpreemption_testlib.py": {
        "kubesched.scheduler.snapshot",
    },
}
"""Imports of non-public modules that exist today, per file. The list may only shrink:
an entry that no longer matches an import fails the test too."""


def non_public_imports(path: Path) -> set[str]:
    """Every kubesched module the file imports that is not public."""
    return {m for _, m in kubesched_imports(path.read_text(encoding="utf-8")) if m not in PUBLIC}


def python_files(tree: Path) -> list[Path]:
    return sorted(p for p in tree.rglob("*.py") if ".venv" not in p.parts)


@pytest.mark.parametrize("tree", PLUGIN_TREES, ids=lambda p: p.name)
def test_plugin_distribution_imports_no_private_module(tree: Path) -> None:
    files = python_files(tree)
    assert files, f"no Python files under {tree}"
    offences = [line for f in files for line in private_imports(f)]
    assert offences == []


def test_the_check_sees_a_private_import(tmp_path: Path) -> None:
    plugin = tmp_path / "plugin.py"
    plugin.write_text(
        "from kubesched.framework import Status\n"
        "from kubesched.framework._runtime import Framework\n"
        "import kubesched.api._quantity as q\n",
        encoding="utf-8",
    )
    assert private_imports(plugin) == [
        "plugin.py:2: kubesched.framework._runtime",
        "plugin.py:3: kubesched.api._quantity",
    ]


@pytest.mark.parametrize("tree", PLUGIN_TREES, ids=lambda p: p.name)
def test_plugin_distribution_imports_only_public_modules(tree: Path) -> None:
    found = {
        f.relative_to(ROOT).as_posix(): modules
        for f in python_files(tree)
        if (modules := non_public_imports(f))
    }
    allowed = {
        path: modules
        for path, modules in ALLOWED_VIOLATIONS.items()
        if (ROOT / path).is_relative_to(tree)
    }
    assert found == allowed, "import only public modules (docs/writing-plugins/public-api.md)"


def test_the_public_modules_are_the_documented_ones() -> None:
    page = (ROOT / "docs" / "writing-plugins" / "public-api.md").read_text(encoding="utf-8")
    documented = set(re.findall(r"^\| `(kubesched[\w.]*)` \|", page, re.MULTILINE))
    assert documented == PUBLIC


def test_the_check_sees_an_internal_module(tmp_path: Path) -> None:
    plugin = tmp_path / "plugin.py"
    plugin.write_text(
        "from kubesched.framework import Status\n"
        "from kubesched.scheduler.snapshot import Snapshot\n"
        "import kubesched.testing.builders\n"
        "from kubesched.testing import make_pod\n",
        encoding="utf-8",
    )
    assert non_public_imports(plugin) == {
        "kubesched.scheduler.snapshot",
        "kubesched.testing.builders",
    }
