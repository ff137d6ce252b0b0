"""kubesched-core's packages depend on each other in one direction only.

    cli -> experiment -> scenario -> profile -> scheduler -> framework -> api -> features
           profile -> config -> api
           profile -> cluster -> api

`testing` (what plugin authors import) may use everything but the CLI; the
CLI may use everything. `errors` and `discovery` (what installed distributions
declare, read from metadata) import nothing of kubesched. Every module stays small
enough to read at once.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

CORE = Path(__file__).resolve().parents[2] / "core" / "src" / "kubesched"
IMPORT = re.compile(r"^\s*(?:from|import)\s+kubesched\.(\w+)", re.MULTILINE)

ALLOWED: dict[str, set[str]] = {
    "errors": set(),
    "discovery": set(),
    "features": {"errors"},
    "api": {"features", "errors"},
    "framework": {"api", "features", "errors", "discovery"},
    "config": {"api", "features", "errors"},
    "cluster": {"api", "features", "errors"},
    "scheduler": {"framework", "api", "features", "errors"},
    "profile": {"config", "scheduler", "cluster", "framework", "api", "features", "errors"},
    "scenario": {
        "profile",
        "config",
        "scheduler",
        "cluster",
        "framework",
        "api",
        "features",
        "errors",
    },
    "replay": {"scenario"},
    "testing": {
        "scenario",
        "profile",
        "config",
        "scheduler",
        "cluster",
        "framework",
        "api",
        "features",
        "errors",
        "discovery",
    },
    "cli": {
        "experiment",
        "scenario",
        "testing",
        "profile",
        "config",
        "scheduler",
        "cluster",
        "framework",
        "api",
        "features",
        "errors",
        "discovery",
    },
    "experiment": {
        "replay",
        "scenario",
        "profile",
        "config",
        "scheduler",
        "cluster",
        "framework",
        "api",
        "features",
        "errors",
    },
}
MAX_LINES = 420


def package_of(path: Path) -> str:
    parts = path.relative_to(CORE).parts
    return parts[0] if len(parts) > 1 else path.stem


def modules() -> list[Path]:
    return sorted(CORE.rglob("*.py"))


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(CORE)))
def test_imports_point_down_the_layers(path: Path) -> None:
    package = package_of(path)
    if package == "__init__":
        return
    used = set(IMPORT.findall(path.read_text(encoding="utf-8"))) - {package}
    assert used <= ALLOWED[package], f"{package} may not import {sorted(used - ALLOWED[package])}"


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(CORE)))
def test_modules_stay_small(path: Path) -> None:
    assert len(path.read_text(encoding="utf-8").splitlines()) <= MAX_LINES


def test_every_package_has_a_layer() -> None:
    packages = {p.name for p in CORE.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert packages | {"errors", "replay", "discovery"} == set(ALLOWED)
