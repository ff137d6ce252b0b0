"""Commands that installed distributions add through `kubesched.commands` (fake .dist-info
folders on sys.path; tests/e2e/test_plugin_commands_e2e.py does it with real pip)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from kubesched.cli._commands import COMMAND_GROUP, discover_commands, installed_commands
from kubesched.cli.main import SUBCOMMANDS, main

HELLO = """
import click

from kubesched.errors import InputError


@click.command()
@click.argument("who", default="world")
@click.option("--fail", is_flag=True)
def command(who, fail):
    \"\"\"Say hello.\"\"\"
    if fail:
        raise InputError("no such greeting", file="hello.yaml", field="spec.who")
    click.echo(f"hello {who}")


not_a_command = 42
"""


def make_dist(
    root: Path,
    dist: str,
    commands: dict[str, str],
    *,
    version: str = "1.0",
    requires: tuple[str, ...] = (),
    module: str = "",
) -> None:
    """`<dist>-<version>.dist-info` declaring `commands`, and optionally a module."""
    info = root / f"{dist.replace('-', '_')}-{version}.dist-info"
    info.mkdir(parents=True)
    meta = ["Metadata-Version: 2.1", f"Name: {dist}", f"Version: {version}"]
    meta += ["Summary: Greetings for kubesched users.", *(f"Requires-Dist: {r}" for r in requires)]
    (info / "METADATA").write_text("\n".join(meta) + "\n")
    lines = [f"[{COMMAND_GROUP}]", *(f"{n} = {v}" for n, v in commands.items())]
    (info / "entry_points.txt").write_text("\n".join(lines) + "\n")
    if module:
        name = next(iter(commands.values())).split(":")[0]
        (root / f"{name}.py").write_text(module)


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.syspath_prepend(str(tmp_path))
    installed_commands.cache_clear()
    yield tmp_path
    installed_commands.cache_clear()
    for name in [m for m in sys.modules if m.startswith("fakecmd")]:
        del sys.modules[name]


def run(*args: str) -> tuple[int, str, str]:
    """`kubesched ARGS` through `main`, as the console script runs it."""
    with CliRunner().isolation() as (out, err, _):
        try:
            code = main(list(args)) or 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
        return code, out.getvalue().decode(), err.getvalue().decode()


def test_an_installed_command_is_listed_and_runs(site: Path) -> None:
    make_dist(site, "kubesched-hello", {"hello": "fakecmd_hello:command"}, module=HELLO)
    code, out, _ = run("--help")
    assert code == 0
    assert "Commands from plugins:" in out
    assert "hello  Greetings for kubesched users. (kubesched-hello 1.0)" in out
    assert "fakecmd_hello" not in sys.modules, "--help imports no plugin command"
    assert run("hello", "kubesched") == (0, "hello kubesched\n", "")


def test_a_plugin_command_follows_the_core_error_conventions(site: Path) -> None:
    make_dist(site, "kubesched-hello", {"hello": "fakecmd_hello:command"}, module=HELLO)
    code, out, err = run("hello", "--fail")
    assert (code, out) == (2, "")
    assert err == "error: hello.yaml: field spec.who: no such greeting\n"


def test_a_broken_command_is_reported_with_its_distribution_and_the_cli_keeps_working(
    site: Path,
) -> None:
    make_dist(
        site,
        "kubesched-broken",
        {"broken": "fakecmd_broken:command"},
        version="0.3",
        module="raise RuntimeError('half-installed')\n",
    )
    make_dist(site, "kubesched-odd", {"odd": "fakecmd_odd:not_a_command"}, module=HELLO)
    code, out, _ = run("--help")
    assert code == 0 and "broken" in out and "odd" in out
    code, out, err = run("broken", "--anything")
    assert code == 1 and out == ""
    assert err == (
        'error: command "broken" from kubesched-broken 0.3 failed to load: '
        "'fakecmd_broken:command' raised RuntimeError: half-installed\n"
    )
    code, _, err = run("odd")
    assert code == 1
    assert "entry point 'fakecmd_odd:not_a_command' is a int, not a click command" in err
    assert run("plugins", "-o", "json")[0] == 0


def test_a_command_cannot_replace_a_core_one_nor_be_claimed_twice(site: Path) -> None:
    make_dist(site, "kubesched-evil", {"simulate": "fakecmd_evil:command"})
    make_dist(site, "kubesched-a", {"twin": "fakecmd_a:command"})
    make_dist(site, "kubesched-b", {"twin": "fakecmd_b:command"}, version="2.0")
    commands = discover_commands(frozenset(SUBCOMMANDS), {})
    assert commands["simulate"].problem == (
        "it is a kubesched command; kubesched-evil 1.0 cannot replace it"
    )
    assert commands["twin"].problem == (
        "it is provided by more than one distribution: kubesched-a 1.0 and kubesched-b 2.0"
    )
    code, _, err = run("twin")
    assert code == 1 and "kubesched-a 1.0 and kubesched-b 2.0" in err


def test_a_command_of_an_unsupported_distribution_is_reported_not_run(site: Path) -> None:
    make_dist(
        site,
        "kubesched-old",
        {"old": "fakecmd_old:command"},
        module=HELLO,
        requires=("kubesched-core<0.0.1",),
    )
    code, _, err = run("old")
    assert _ == ""
    assert code == 1
    assert err.startswith(
        'error: command "old" from kubesched-old 1.0 is not loaded: '
        "kubesched-old 1.0 supports kubesched-core <0.0.1 (its Requires-Dist)"
    )
    assert "fakecmd_old" not in sys.modules


def test_the_autoload_switches_apply_to_commands(site: Path) -> None:
    make_dist(site, "kubesched-hello", {"hello": "fakecmd_hello:command"}, module=HELLO)
    off = {"KUBESCHED_DISABLE_PLUGIN_AUTOLOAD": "1"}
    assert "hello" not in discover_commands(frozenset(SUBCOMMANDS), off)
    named = {**off, "KUBESCHED_LOAD_PLUGINS": "kubesched-hello"}
    assert "hello" in discover_commands(frozenset(SUBCOMMANDS), named)
    assert "hello" not in discover_commands(frozenset(SUBCOMMANDS), {"KUBESCHED_LOAD_PLUGINS": ""})
