"""Installing outside the checkout, as docs/installation.md says: wheels built from the repository,
a fresh venv, `pip install --find-links`; and kubesched-core alone saying what is missing.

The wheels are built once per session (the `wheelhouse` fixture, by the page's own build
command); third-party dependencies come from the package index, as for every e2e test.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import tarfile
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


class PageInstall:
    """The venv the Installation page's commands made, and what they and `pip freeze` printed
    right after."""

    def __init__(self, venv: Any, outputs: list[str], freeze: list[str]) -> None:
        self.venv = venv
        self.outputs = outputs
        self.freeze = freeze


@pytest.fixture(scope="module")
def page_install(
    wheelhouse: Path,
    installation_page_commands: list[str],
    venv_at: Callable[[Path], Any],
    tmp_path_factory: pytest.TempPathFactory,
) -> PageInstall:
    """Every command of the page's "from a checkout" block after the build, in order, in a new
    venv (the wheels were built by its `uv build` line; `pip install uv` made uv available)."""
    commands = installation_page_commands
    assert commands == EXPECTED_COMMANDS, "update this test with docs/installation.md"
    venv_root = tmp_path_factory.mktemp("page") / "venv"
    outputs = []
    for command in commands[2:]:
        argv = [
            wheelhouse.as_posix() if word == "dist/" else word.replace(PAGE_VENV, str(venv_root))
            for word in shlex.split(command)
        ]
        if argv[0] == "python":
            argv[0] = sys.executable
        outputs.append(run(argv, cwd=REPO).stdout)
    env = venv_at(venv_root)
    freeze = env.run(str(env.python), "-m", "pip", "freeze").stdout.splitlines()
    return PageInstall(env, outputs, freeze)


def test_the_installation_page_installs_a_working_kubesched(page_install: PageInstall) -> None:
    _, _, version_output, simulated = page_install.outputs
    assert version_output.strip() == f"kubesched, version {version()}"
    assert "0/5 nodes are available" in simulated and "Scheduled: 4" in simulated

    ours = {line for line in page_install.freeze if line.startswith("kubesched")}
    in_tree = {p.name for p in (REPO / "builtin_plugins").iterdir() if p.is_dir()}
    assert ours == {
        f"kubesched{suffix}=={version()}" for suffix in ("", "-core", *(f"-{n}" for n in in_tree))
    }, "installed from the wheels, not editable, nothing else of ours"
    listed = json.loads(page_install.venv.kubesched("plugins", "-o", "json").stdout)["plugins"]
    assert {p["name"].lower() for p in listed if p["source"] == "in-tree"} == in_tree


def test_core_alone_says_the_builtin_plugins_come_with_kubesched(
    page_install: PageInstall, wheelhouse: Path
) -> None:
    """kubesched-core and one plugin (the page's venv less the others, put back after): the
    default profile has no QueueSort and no Bind plugin, and the errors say which
    distribution brings them."""
    env = page_install.venv
    others = [line.split("==")[0] for line in page_install.freeze if line.startswith("kubesched")]
    others = [d for d in others if d not in ("kubesched-core", "kubesched-nodename")]
    env.pip_uninstall(*others)
    try:
        result = env.kubesched("simulate", str(REPO / "examples" / "quickstart"), check=False)
    finally:
        env.run(
            str(env.python),
            *("-m", "pip", "install", "--quiet", "--find-links", str(wheelhouse), "kubesched"),
        )
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
    assert len(lines) == 2


def test_a_generated_project_passes_tox_against_local_wheels(
    wheelhouse: Path, tmp_path: Path
) -> None:
    """`kubesched new-plugin`, a venv inside the project (as a developer keeps one), then the
    generated README's `PIP_FIND_LINKS=... tox`: the tests pass, the profile test included
    (the `test` extra brings the default plugins); the sdist holds no venv."""
    tox = Path(sys.executable).with_name("tox")
    if not tox.exists():
        pytest.skip("tox is not installed in this environment (the dev dependency group has it)")
    (tmp_path / "cookiecutter.yaml").write_text(
        f"replay_dir: {tmp_path / 'replay'}\ncookiecutters_dir: {tmp_path / 'cookiecutters'}\n"
    )
    new_plugin = [str(Path(sys.executable).with_name("kubesched")), "new-plugin", "ShelfScore"]
    env = {**os.environ, "COOKIECUTTER_CONFIG": str(tmp_path / "cookiecutter.yaml")}
    env.pop("VIRTUAL_ENV", None)
    subprocess.run([*new_plugin, "--no-input"], cwd=tmp_path, env=env, check=True, timeout=120)
    project = tmp_path / "kubesched-shelfscore"
    for folder in (".venv", ".try"):
        run([sys.executable, "-m", "venv", "--without-pip", folder], cwd=project)

    readme = (project / "README.md").read_text()
    assert "PIP_FIND_LINKS=/path/to/kubesched/dist tox" in readme
    inherited = os.environ.get("PIP_FIND_LINKS", "").split()  # the caller's own, kept
    env["PIP_FIND_LINKS"] = " ".join([str(wheelhouse), *inherited])
    result = subprocess.run(
        [str(tox), "-e", "py"], cwd=project, env=env, capture_output=True, text=True, timeout=600
    )
    output = f"{result.stdout}\n{result.stderr}"
    assert result.returncode == 0, output
    assert re.search(r"^=+ 22 passed in [\d.]+s =+$", result.stdout, re.MULTILINE), output
    assert "test_profile.py .." in result.stdout

    run([sys.executable, "-m", "build", "--sdist", "--outdir", str(tmp_path / "sdist")], project)
    [sdist] = (tmp_path / "sdist").glob("*.tar.gz")
    with tarfile.open(sdist) as archive:
        tops = {name.split("/")[1] for name in archive.getnames() if name.count("/")}
    project_files = {
        "src",
        "tests",
        "README.md",
        "LICENSE",
        "tox.ini",
        "pyproject.toml",
    }
    assert tops == {*project_files, ".gitignore", "PKG-INFO"}, "no .venv, .try or .tox"
