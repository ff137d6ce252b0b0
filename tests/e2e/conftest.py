"""End-to-end fixtures: a real virtual environment with kubesched installed by pip.

One venv per test session (tests that use it share an xdist group): core and
every built-in plugin distribution are pip-installed from this checkout, the
way a user installs them.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
import venv
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
BUILTINS = sorted(
    p for p in (REPO / "builtin_plugins").iterdir() if (p / "pyproject.toml").exists()
)


class Venv:
    """A virtual environment and helpers to run pip and kubesched inside it."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.bin = root / "bin"
        self.python = self.bin / "python"

    def run(
        self, *args: str, env: Mapping[str, str] | None = None, check: bool = True
    ) -> subprocess.CompletedProcess[str]:
        full_env = {**os.environ, "PATH": f"{self.bin}{os.pathsep}{os.environ['PATH']}"}
        full_env.pop("VIRTUAL_ENV", None)
        full_env.update(env or {})
        result = subprocess.run(
            args, capture_output=True, text=True, env=full_env, timeout=600, check=False
        )
        if check and result.returncode != 0:
            raise AssertionError(
                f"{' '.join(args)} exited {result.returncode}\n{result.stdout}\n{result.stderr}"
            )
        return result

    def pip_install(self, *paths: Path | str) -> None:
        self.run(
            str(self.python),
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-build-isolation",
            *map(str, paths),
        )

    def pip_uninstall(self, *names: str) -> None:
        self.run(str(self.python), "-m", "pip", "uninstall", "--yes", "--quiet", *names)

    def kubesched(
        self, *args: str, env: Mapping[str, str] | None = None, check: bool = True
    ) -> subprocess.CompletedProcess[str]:
        return self.run(str(self.bin / "kubesched"), *args, env=env, check=check)


def make_venv(root: Path) -> Venv:
    """A fresh venv with pip, hatchling (to build local distributions) and kubesched."""
    venv.EnvBuilder(with_pip=True).create(root)
    env = Venv(root)
    env.run(str(env.python), "-m", "pip", "install", "--quiet", "hatchling")
    env.pip_install(REPO / "core", *BUILTINS)
    return env


@pytest.fixture(scope="session")
def kubesched_venv(tmp_path_factory: pytest.TempPathFactory) -> Venv:
    """A venv with kubesched-core and every built-in plugin installed by pip."""
    assert sys.version_info >= (3, 10)
    return make_venv(tmp_path_factory.mktemp("venv"))


INSTALLATION_PAGE = REPO / "docs" / "installation.md"
INSTALLATION_MARKER = "<!-- installation-from-checkout"


def installation_commands() -> list[str]:
    """The commands of docs/installation.md's "from a checkout" block, in order."""
    text = INSTALLATION_PAGE.read_text()
    block = text.split(INSTALLATION_MARKER, 1)[1].split("```console\n", 1)[1].split("```", 1)[0]
    return [line.removeprefix("$ ") for line in block.splitlines() if line.startswith("$ ")]


@pytest.fixture(scope="session")
def wheelhouse(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheels of every distribution, built by the Installation page's own build command
    (its `dist/` replaced by a temporary folder), once per session."""
    uv = shutil.which("uv")
    if uv is None:
        pytest.skip("uv is not installed; the Installation page builds the wheels with it")
    build = next(c for c in installation_commands() if c.startswith("uv build "))
    dist = tmp_path_factory.mktemp("dist")
    argv = [dist.as_posix() if word == "dist/" else word for word in shlex.split(build)]
    subprocess.run(
        [uv, *argv[1:]], cwd=REPO, check=True, capture_output=True, text=True, timeout=600
    )
    return dist


@pytest.fixture(scope="session")
def installation_page_commands() -> list[str]:
    """The commands of docs/installation.md's "from a checkout" block."""
    return installation_commands()


@pytest.fixture(scope="session")
def venv_at() -> Callable[[Path], Venv]:
    """The helpers of a venv at `root`, created (with pip only) unless it exists."""

    def make(root: Path) -> Venv:
        if not (root / "pyvenv.cfg").is_file():
            venv.EnvBuilder(with_pip=True).create(root)
        return Venv(root)

    return make


@pytest.fixture
def manifest(tmp_path: Path) -> Callable[[str], str]:
    """Writes YAML text to `cluster.yaml` in the test's folder; returns that file's path."""

    def write(text: str) -> str:
        path = tmp_path / "cluster.yaml"
        path.write_text(text)
        return str(path)

    return write


@pytest.fixture
def simulate(capsys: pytest.CaptureFixture[str]) -> Callable[..., str]:
    """Runs `kubesched simulate ARGS...` in this process; returns what it printed on stdout
    (standard error stays in `capsys` for the test to read)."""
    from kubesched.cli.main import main

    def run(*args: str) -> str:
        main(["simulate", *args])
        captured = capsys.readouterr()
        sys.stderr.write(captured.err)
        return captured.out

    return run


@pytest.fixture
def simulate_json(simulate: Callable[..., str]) -> Callable[..., dict[str, Any]]:
    """Runs `kubesched simulate ARGS... -o json`; returns the parsed document."""

    def run(*args: str) -> dict[str, Any]:
        document: dict[str, Any] = json.loads(simulate(*args, "-o", "json"))
        return document

    return run
