"""The keywords and trove classifiers of this repository's distributions, in one place.

Every pyproject.toml writes them out as static metadata, so that each sdist
builds its wheel alone, with no hook from outside it; this table is what they
must say (tests/architecture/test_distribution_metadata.py compares), and

    uv run python tools/distribution_metadata.py --write

rewrites the `keywords` and `classifiers` lines of every pyproject.toml from it.
Only registered classifiers are used: a package index refuses an upload that
carries any other. `Framework :: kubesched` is not registered, so plugins are
found by the keyword `kubesched-plugin` and the `kubesched.plugins` entry-point
group (docs/writing-plugins/finding.md).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PLUGIN_KEYWORD = "kubesched-plugin"
"""The keyword a plugin distribution carries, to be found on a package index."""
COMMON_CLASSIFIERS = (
    "Programming Language :: Python :: 3",
    "Topic :: System :: Clustering",
    "Typing :: Typed",
)
MATURITY = {
    "": "Development Status :: 4 - Beta",
    "core": "Development Status :: 4 - Beta",
    "builtin_plugins": "Development Status :: 4 - Beta",
    "contrib": "Development Status :: 3 - Alpha",
}
"""The folder a distribution sits in ("" for the meta-distribution at the root) -> its
maturity."""


def pyprojects() -> list[Path]:
    """Every distribution's pyproject.toml: the root, core, builtin_plugins/*, contrib/*."""
    return [
        REPO / "pyproject.toml",
        REPO / "core" / "pyproject.toml",
        *sorted(REPO.glob("builtin_plugins/*/pyproject.toml")),
        *sorted(REPO.glob("contrib/*/pyproject.toml")),
    ]


def tree_of(pyproject: Path) -> str:
    """`builtin_plugins`, `contrib`, `core` or "" (the root)."""
    relative = pyproject.resolve().parent.relative_to(REPO)
    return relative.parts[0] if relative.parts else ""


def keywords(tree: str) -> list[str]:
    """The keywords of a distribution in `tree`, sorted (as hatchling writes them)."""
    plugin = [PLUGIN_KEYWORD] if tree in ("builtin_plugins", "contrib") else []
    return sorted(["kubesched", *plugin, "kubernetes", "scheduler"])


def classifiers(tree: str) -> list[str]:
    """The classifiers of a distribution in `tree`, every one registered."""
    return [MATURITY[tree], *COMMON_CLASSIFIERS]


def _toml_list(name: str, values: list[str]) -> str:
    items = "".join(f'    "{value}",\n' for value in values)
    return f"{name} = [\n{items}]\n"


def metadata_lines(tree: str) -> str:
    """The `keywords` and `classifiers` lines a pyproject.toml in `tree` carries."""
    return _toml_list("keywords", keywords(tree)) + _toml_list("classifiers", classifiers(tree))


_BLOCK = re.compile(
    r'^keywords = \[\n(?:    ".*",\n)*\]\nclassifiers = \[\n(?:    ".*",\n)*\]\n', re.M
)
_ANCHOR = re.compile(r'^license = ".*"\n', re.M)


def rewritten(text: str, tree: str) -> str:
    """`text` (a pyproject.toml) with its metadata lines from the table: replaced where they
    are, else put after `license`."""
    lines = metadata_lines(tree)
    if _BLOCK.search(text):
        return _BLOCK.sub(lambda _: lines, text, count=1)
    anchor = _ANCHOR.search(text)
    assert anchor is not None, "a pyproject.toml here declares its license"
    return text[: anchor.end()] + lines + text[anchor.end() :]


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: tools/distribution_metadata.py --write")
    for path in pyprojects():
        text = path.read_text(encoding="utf-8")
        new = rewritten(text, tree_of(path))
        if new != text:
            path.write_text(new, encoding="utf-8")
            print(f"rewrote {path.relative_to(REPO)}")
