"""Plugin distributions use only kubesched's public surface.

A plugin (built-in, contrib or generated from the template) imports kubesched
names from the package roots (`kubesched`, `kubesched.api`,
`kubesched.framework`, ...), never from a private module: those can change
without notice.
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
