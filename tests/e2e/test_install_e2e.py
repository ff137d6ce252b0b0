"""Installing outside the checkout, as docs/installation.md says: wheels built from the repository,
a fresh venv, `pip install --find-links`; and kubesched-core alone saying what is missing.

The wheels are built once per session (the `wheelhouse` fixture, by the page's own build
command); third-party dependencies come from the package index, as for every e2e test.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("wheelhouse")]

REPO = Path(__file__).resolve().parents[2]
PAGE_VENV = "~/.venvs/kubesched"
"""Where the Installation page puts its venv; the test puts it in a temporary folder."""
EXPECTED_COMMANDS = [
    "pip install uv",
    "uv build --all-packages --wheel -o dist/",
    f"python -m venv {PAGE_VENV}",
    f"{PAGE_VENV}/bin/pip install --find-links dist/ kubesched",
    f"{PAGE_VENV}/bin/kubesched --version",
    f"{PAGE_VENV}/bin/kubesched simulate examples/quickstart",
]


def version() -> str:
    for line in (REPO / "pyproject.toml").read_text().splitlines():
        if line.startswith("version = "):
            return line.split('"')[1]
    raise AssertionError("no version in pyproject.toml")


def run(argv: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "COLUMNS")}
    env["COLUMNS"] = "200"
    result = subprocess.run(
        argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=600, check=False
    )
    assert result.returncode == 0, f"{shlex.join(argv)}\n{result.stdout}\n{result.stderr}"
    return result


def test_the_installation_page_installs_a_working_kubesched(
    wheelhouse: Path,
    installation_page_commands: list[str],
    venv_at: Callable[[Path], Any],
    tmp_path: Path,
) -> None:
    """Every command of the page's "from a checkout" block, in order, in a new venv (the
    wheels were built by its `uv build` line; `pip install uv` is what made uv available)."""
    commands = installation_page_commands
    assert commands == EXPECTED_COMMANDS, "update this test with docs/installation.md"
    venv_root = tmp_path / "venv"
    outputs = []
    for command in commands[2:]:
        argv = [
            wheelhouse.as_posix() if word == "dist/" else word.replace(PAGE_VENV, str(venv_root))
            for word in shlex.split(command)
        ]
        if argv[0] == "python":
            argv[0] = sys.executable
        outputs.append(run(argv, cwd=REPO).stdout)
    assert outputs[2].strip() == f"kubesched, version {version()}"
    simulated = outputs[3]
    assert "0/5 nodes are available" in simulated and "Scheduled: 4" in simulated

    env = venv_at(venv_root)
    freeze = env.run(str(env.python), "-m", "pip", "freeze").stdout.splitlines()
    ours = {line for line in freeze if line.startswith("kubesched")}
    in_tree = {p.name for p in (REPO / "builtin_plugins").iterdir() if p.is_dir()}
    assert ours == {
        f"kubesched{suffix}=={version()}" for suffix in ("", "-core", *(f"-{n}" for n in in_tree))
    }, "installed from the wheels, not editable, nothing else of ours"
    listed = json.loads(env.kubesched("plugins", "-o", "json").stdout)["plugins"]
    assert {p["name"].lower() for p in listed if p["source"] == "in-tree"} == in_tree


def test_core_alone_says_the_builtin_plugins_come_with_kubesched(
    wheelhouse: Path, venv_at: Callable[[Path], Any], tmp_path: Path
) -> None:
    """kubesched-core and one plugin: the default profile has no QueueSort and no Bind
    plugin, and the errors say which distribution brings them."""
    env = venv_at(tmp_path / "core-only")
    env.run(
        str(env.python),
        *("-m", "pip", "install", "--quiet", "--find-links", str(wheelhouse)),
        *("kubesched-core", "kubesched-nodename"),
    )
    result = env.kubesched("simulate", str(REPO / "examples" / "quickstart"), check=False)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert (
        "error: profiles[0].plugins.queueSort: only one queue sort plugin required for profile "
        'with scheduler name "default-scheduler", but got 0; the built-in plugins '
        '(PrioritySort for QueueSort) are not installed: they come with "pip install kubesched" '
        '(PrioritySort alone: "pip install kubesched-prioritysort")'
    ) in lines
    assert (
        "error: profiles[0].plugins.bind: at least one bind plugin is needed for profile with "
        'scheduler name "default-scheduler"; the built-in plugins (DefaultBinder for Bind) are '
        'not installed: they come with "pip install kubesched" (DefaultBinder alone: '
        '"pip install kubesched-defaultbinder")'
    ) in lines
