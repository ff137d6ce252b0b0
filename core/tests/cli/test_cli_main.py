"""The `kubesched` command itself: help, version, and a quick start."""

from __future__ import annotations

import subprocess
import sys

import pytest

from kubesched.cli.main import SUBCOMMANDS, LazyGroup, cli, main


def test_the_command_alone_shows_help_and_succeeds(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Usage: kubesched [OPTIONS] COMMAND [ARGS]...")
    assert all(name in out for name in SUBCOMMANDS)
    assert "-h, --help" in out


@pytest.mark.parametrize("name", sorted(SUBCOMMANDS))
def test_every_listed_subcommand_loads(name: str) -> None:
    assert isinstance(cli, LazyGroup)
    command = cli.get_command(None, name)  # type: ignore[arg-type]
    assert command is not None and command.name == name


@pytest.mark.parametrize("argv", [["--version"], ["--help"], []])
def test_help_and_version_load_no_framework(argv: list[str]) -> None:
    """`--version` and `--help` answer at once: neither numpy nor the framework is imported."""
    script = (
        "import sys\n"
        "from kubesched.cli.main import main\n"
        f"try:\n    main({argv!r})\nexcept SystemExit:\n    pass\n"
        "heavy = [m for m in ('numpy', 'kubesched.framework', 'kubesched.scheduler') "
        "if m in sys.modules]\n"
        "print(heavy, file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    heavy = done.stderr.strip().splitlines()[-1]
    if argv == ["simulate", "--help"]:
        return  # a subcommand's own help may load its module
    assert heavy == "[]"


def test_a_misspelt_load_plugins_entry_is_warned_about() -> None:
    import os

    env = {**os.environ, "KUBESCHED_LOAD_PLUGINS": "Coscheduling,Coschedulin"}
    done = subprocess.run(
        [sys.executable, "-c", "from kubesched.cli.main import main; main()", "config", "defaults"],
        capture_output=True,
        text=True,
        check=True,
        env=env,
    )
    assert done.stderr.splitlines() == [
        "warning: KUBESCHED_LOAD_PLUGINS names 'Coschedulin': no installed plugin or distribution"
    ]
    assert done.stdout.startswith("apiVersion: kubescheduler.config.k8s.io/v1")


@pytest.mark.parametrize(
    ("words", "cword", "expected"),
    [
        ("kubesched sim", 1, ["plain,simulate"]),
        ("kubesched simulate x -o ", 4, ["plain,table", "plain,wide", "plain,json", "plain,yaml"]),
        ("kubesched config validate x --out", 4, ["plain,--output"]),
    ],
)
def test_shell_completion(words: str, cword: int, expected: list[str]) -> None:
    import os

    env = {
        **os.environ,
        "_KUBESCHED_COMPLETE": "bash_complete",
        "COMP_WORDS": words,
        "COMP_CWORD": str(cword),
    }
    done = subprocess.run(
        [sys.executable, "-c", "from kubesched.cli.main import main; main()"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert done.stdout.split() == expected
