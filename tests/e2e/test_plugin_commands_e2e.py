"""Plugin commands and the compatibility check through real pip installs."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import Any

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("kubesched_venv")]


def write_distribution(root: Path, dist: str, pyproject_tail: str, module: str) -> Path:
    """A throwaway distribution `dist` with one module and the given pyproject entries."""
    package = dist.replace("-", "_")
    project = root / dist
    (project / "src" / package).mkdir(parents=True)
    (project / "pyproject.toml").write_text(
        textwrap.dedent(
            f"""
            [project]
            name = "{dist}"
            version = "0.7.0"
            description = "Greets whoever runs it."
            """
        )
        + textwrap.dedent(pyproject_tail)
        + textwrap.dedent(
            f"""
            [build-system]
            requires = ["hatchling"]
            build-backend = "hatchling.build"

            [tool.hatch.build.targets.wheel]
            packages = ["src/{package}"]
            """
        )
    )
    (project / "src" / package / "__init__.py").write_text(textwrap.dedent(module))
    return project


HELLO = """
    import click


    @click.command()
    @click.argument("who")
    def hello(who):
        \"\"\"Say hello to WHO.\"\"\"
        click.echo(f"hello {who}")
    """


def test_a_plugin_command_appears_once_installed_and_disappears_once_uninstalled(
    kubesched_venv: Any, tmp_path: Path
) -> None:
    entry = """
        dependencies = ["kubesched-core>=0.1", "click"]

        [project.entry-points."kubesched.commands"]
        hello = "kubesched_hello:hello"
        """
    project = write_distribution(tmp_path, "kubesched-hello", entry, HELLO)
    assert "hello" not in kubesched_venv.kubesched("--help").stdout
    kubesched_venv.pip_install(project)
    try:
        listed = kubesched_venv.kubesched("--help").stdout
        assert "Commands from plugins:" in listed
        assert "hello  Greets whoever runs it. (kubesched-hello 0.7.0)" in listed
        assert kubesched_venv.kubesched("hello", "pods").stdout == "hello pods\n"
    finally:
        kubesched_venv.pip_uninstall("kubesched-hello")
    after = kubesched_venv.kubesched("--help").stdout
    assert "hello" not in after and "Commands from plugins" not in after
    gone = kubesched_venv.kubesched("hello", "pods", check=False)
    assert gone.returncode == 2 and "No such command 'hello'" in gone.stderr


def test_a_broken_command_distribution_is_reported_and_the_cli_still_works(
    kubesched_venv: Any, tmp_path: Path
) -> None:
    entry = """
        [project.entry-points."kubesched.commands"]
        broken = "kubesched_brokencmd:command"
        """
    project = write_distribution(
        tmp_path, "kubesched-brokencmd", entry, "import not_installed_anywhere\n"
    )
    kubesched_venv.pip_install(project)
    try:
        assert "broken" in kubesched_venv.kubesched("--help").stdout
        result = kubesched_venv.kubesched("broken", check=False)
        assert result.returncode == 1
        assert result.stderr.startswith(
            'error: command "broken" from kubesched-brokencmd 0.7.0 failed to load: '
            "'kubesched_brokencmd:command' raised ModuleNotFoundError"
        )
        assert "Traceback" not in result.stderr
        assert kubesched_venv.kubesched("plugins", "-o", "json").returncode == 0
    finally:
        kubesched_venv.pip_uninstall("kubesched-brokencmd")


RANGED = """
    from kubesched import hookimpl


    class Ranged:
        def __init__(self, args, handle):
            pass

        @hookimpl
        def score(self, node_info):
            return 1
    """


def test_a_plugin_declaring_an_incompatible_kubesched_range_is_reported_not_loaded(
    kubesched_venv: Any, tmp_path: Path
) -> None:
    version = kubesched_venv.kubesched("--version").stdout.split()[-1]
    entry = f"""
        dependencies = ["kubesched-core>{version}"]

        [project.entry-points."kubesched.plugins"]
        Ranged = "kubesched_ranged:Ranged"
        """
    project = write_distribution(tmp_path, "kubesched-ranged", entry, RANGED)
    kubesched_venv.run(
        str(kubesched_venv.python),
        "-m",
        "pip",
        "install",
        "--quiet",
        "--no-deps",
        "--no-build-isolation",
        str(project),
    )
    try:
        result = kubesched_venv.kubesched("plugins", "-o", "json")
        why = (
            f"kubesched-ranged 0.7.0 supports kubesched-core >{version} (its Requires-Dist), "
            f"not the installed {version}"
        )
        assert result.stderr == f"warning: {why}: its plugins are not loaded\n"
        rows = {p["name"]: p for p in json.loads(result.stdout)["plugins"]}
        assert rows["Ranged"]["loaded"] is False
        assert rows["Ranged"]["error"] == f'plugin "Ranged" is not loaded: {why}'
        assert rows["NodeName"]["loaded"] is True
    finally:
        kubesched_venv.pip_uninstall("kubesched-ranged")
