"""No import cycles between modules, in core and in every plugin distribution.

The graph is built with `ast` from every import statement, wherever it is:
module level, inside functions, and under `if TYPE_CHECKING:` (a cycle there
still means two modules that cannot be understood, or split, one without the
other). An edge goes to the module imported (`from a.b import c` goes to
`a.b.c` when that is a module, else to `a.b`); a package's `__init__` is a
node like any other, but importing `a.b.c` does not count as importing `a.b`.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[2]
SOURCE_ROOTS = [
    ROOT / "core" / "src",
    *sorted(p / "src" for p in (ROOT / "builtin_plugins").iterdir() if (p / "src").is_dir()),
    *sorted(p / "src" for p in (ROOT / "contrib").iterdir() if (p / "src").is_dir()),
]


def module_name(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules(roots: list[Path]) -> dict[str, Path]:
    """Module name -> file, for every module under `roots`."""
    return {module_name(r, p): p for r in roots for p in sorted(r.rglob("*.py"))}


def imported(tree: ast.AST, name: str, is_package: bool, known: set[str]) -> Iterator[str]:
    """The known modules a module's import statements name."""
    package = name if is_package else name.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                full = f"{base}.{alias.name}"
                yield full if full in known else base


def import_graph(roots: list[Path]) -> dict[str, set[str]]:
    files = modules(roots)
    known = set(files)
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        targets = imported(tree, name, path.name == "__init__.py", known)
        graph[name] = {t for t in targets if t in known and t != name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(found)


ALLOWED_CYCLES = [
    # Type-only: a scenario's `observers` name the Observer protocol, whose `on_event` names
    # the scenario's Event. New with the scenario engine; untangle it (a protocol module of
    # its own), then delete this entry.
    ["kubesched.scenario.model", "kubesched.scenario.observers"],
]
"""Cycles that exist today; the list may only shrink (a stale entry fails too)."""


def test_no_module_takes_part_in_an_import_cycle() -> None:
    assert cycles(import_graph(SOURCE_ROOTS)) == ALLOWED_CYCLES


def test_the_check_sees_cycles_through_type_checking_and_function_imports(
    tmp_path: Path,
) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.b import B\n"
    )
    (package / "b.py").write_text("def f():\n    from . import c\n")
    (package / "c.py").write_text("from pkg import a\n")
    (package / "d.py").write_text("import pkg.a\n")
    assert cycles(import_graph([tmp_path])) == [["pkg.a", "pkg.b", "pkg.c"]]


@pytest.mark.parametrize("root", SOURCE_ROOTS, ids=lambda p: p.parent.name)
def test_every_source_root_has_modules(root: Path) -> None:
    assert modules([root])


def reachable(graph: dict[str, set[str]], start: str) -> set[str]:
    seen: set[str] = set()
    todo = [start]
    while todo:
        for nxt in graph.get(todo.pop(), ()):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


@given(
    st.dictionaries(
        st.sampled_from("abcdefgh"), st.sets(st.sampled_from("abcdefgh"), max_size=3), max_size=8
    )
)
def test_cycles_are_exactly_the_groups_of_mutually_reachable_modules(
    graph: dict[str, set[str]],
) -> None:
    graph = {v: {w for w in ws if w != v} for v, ws in graph.items()}
    reach = {v: reachable(graph, v) for v in graph}
    expected = {
        tuple(sorted({v, *(w for w in reach[v] if v in reach.get(w, set()))}))
        for v in graph
        if any(v in reach.get(w, set()) for w in reach[v])
    }
    assert cycles(graph) == sorted(list(c) for c in expected)
