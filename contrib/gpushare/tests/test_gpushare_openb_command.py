"""`kubesched openb` through the installed console scripts: the core commands' output,
error and signal conventions, and `kubesched-openb` as a deprecated alias of it."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from rich.console import Console

from kubesched.cli import _progress
from kubesched_gpushare.replay.cli import DEPRECATION
from kubesched_gpushare.replay.command import RunsBar, openb
from kubesched_gpushare.testing import write_openb_trace

BIN = Path(sys.executable).parent
RUN_LINE = r"^\S+ seed \d+ \(ties \w+\): \d+ pods, \d+ failed, [\d.]+s \([\d.]+s CPU\)$"


def script(name: str, *args: str) -> subprocess.CompletedProcess[str]:
    """Run an installed console script; its exit code, stdout and stderr."""
    return subprocess.run(
        [str(BIN / name), *args], capture_output=True, text=True, timeout=300, check=False
    )


@pytest.fixture(scope="module")
def trace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("openb")
    write_openb_trace(folder)
    return folder


def test_json_and_yaml_print_the_document_the_json_file_holds(trace: Path, tmp_path: Path) -> None:
    out = tmp_path / "runs.json"
    shown = script("kubesched", "openb", str(trace), "--policies", "fgd", "--json", str(out),
                   "-o", "json")  # fmt: skip
    assert shown.returncode == 0, shown.stderr
    document = json.loads(shown.stdout)
    written = json.loads(out.read_text())
    assert document["apiVersion"] == "kubesched.io/openb-replay/v1"
    assert document["ties"] == "first"
    for run in (*document["runs"], *written["runs"]):
        run.pop("seconds"), run.pop("cpuSeconds"), run.pop("podsPerSecond")
    for summary in (*document["summary"].values(), *written["summary"].values()):
        summary.pop("podsPerSecond")
    assert document == written
    runner = CliRunner()
    as_yaml = runner.invoke(openb, ["--from", str(out), "-o", "yaml"])
    as_json = runner.invoke(openb, ["--from", str(out), "-o", "json"])
    assert (
        yaml.safe_load(as_yaml.stdout) == json.loads(as_json.stdout) == json.loads(out.read_text())
    )


def test_the_table_names_the_tie_rule_and_off_a_terminal_stderr_has_only_run_lines(
    trace: Path,
) -> None:
    result = CliRunner().invoke(openb, [str(trace), "--policies", "bestfit", "--seeds", "1,2"])
    assert result.exit_code == 0
    assert result.stdout.splitlines()[0] == (
        "unallocated GPU % at arrived = 100%, "
        "ties to the first node of a seeded order (the study's rule)"
    )
    assert result.stdout.splitlines()[-1].split()[:2] == ["bestfit", "2"]
    lines = result.stderr.splitlines()
    assert len(lines) == 2
    for line in lines:
        assert pytest.importorskip("re").match(RUN_LINE, line), line


def test_the_progress_bar_shows_on_a_terminal_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_progress, "PROGRESS_AFTER_SECONDS", 0.0)
    for terminal in (True, False):
        console = Console(force_terminal=terminal, width=120, record=True)
        bar = RunsBar(console, 4)
        bar(1, "fgd", 43)
        bar.close()
        shown = console.export_text()
        assert ("1/4" in shown and "now fgd seed 43" in shown) is terminal


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (["{trace}/nowhere"], "error: {trace}/nowhere/openb_node_list_gpu_node.csv: "),
        (["{trace}", "--policies", "fastest"], "error: field --policies: unknown policy 'fastest'"),
        (["{trace}", "--seeds", "1,x"], "error: Invalid value for '--seeds': '1,x' is not a"),
        (["{trace}", "--from", "{trace}/a.json"], "error: give DATA_DIR (to run) or --from"),
        (["{trace}", "--json", "{trace}/no/such/out.json"], "error: {trace}/no/such/out.json: "),
    ],
)
def test_bad_input_is_one_line_and_exit_2_for_the_command_and_its_alias(
    trace: Path, args: list[str], error: str
) -> None:
    argv = [a.format(trace=trace) for a in args]
    command = script("kubesched", "openb", *argv)
    alias = script("kubesched-openb", *argv)
    assert command.returncode == alias.returncode == 2
    [line] = command.stderr.splitlines()
    assert line.startswith(error.format(trace=trace)), line
    assert alias.stderr.splitlines() == [f"warning: {DEPRECATION}", line.replace(
        "kubesched openb --help", "kubesched-openb --help")]  # fmt: skip
    assert command.stdout == alias.stdout == ""
    assert not (trace / "no").exists()


def test_the_alias_takes_the_same_options_and_gives_the_same_runs(
    trace: Path, tmp_path: Path
) -> None:
    help_command = script("kubesched", "openb", "--help").stdout
    help_alias = script("kubesched-openb", "--help").stdout
    assert help_command.split("\n", 1)[1] == help_alias.split("\n", 1)[1]
    args = [str(trace), "--policies", "bestfit", "--ties", "random", "--seeds", "3"]
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    assert script("kubesched", "openb", *args, "--json", str(a)).returncode == 0
    alias = script("kubesched-openb", *args, "--json", str(b))
    assert alias.returncode == 0
    assert alias.stderr.splitlines()[0] == f"warning: {DEPRECATION}"
    runs = [json.loads(p.read_text())["runs"] for p in (a, b)]
    assert [r["unallocatedGpuPercent"] for r in runs[0]] == [
        r["unallocatedGpuPercent"] for r in runs[1]
    ]


def test_sigint_stops_with_130_one_line_and_no_output_file(trace: Path, tmp_path: Path) -> None:
    out = tmp_path / "never.json"
    seeds = ",".join(str(s) for s in range(1, 400))
    process = subprocess.Popen(
        [str(BIN / "kubesched"), "openb", str(trace), "--seeds", seeds, "--json", str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 120
        assert process.stderr is not None
        first = process.stderr.readline()  # the first run is done: it is replaying now
        assert first and time.monotonic() < deadline
        process.send_signal(signal.SIGINT)
        stdout, stderr = process.communicate(timeout=60)
    finally:
        process.kill()
    assert process.returncode == 130
    last = stderr.splitlines()[-1]
    assert last.startswith("error: interrupted (SIGINT) while replaying "), last
    assert last.endswith("; no output was written")
    assert stdout == ""
    assert not out.exists()
    assert [p.name for p in tmp_path.iterdir()] == []
