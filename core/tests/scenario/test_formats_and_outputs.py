"""Trace formats through the `kubesched.scenarios` entry points, streamed event checks, and
the Parquet, plot and `--until` outputs."""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from importlib.metadata import EntryPoint
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from kubesched.api import ClusterObjects
from kubesched.replay import (
    GROUP,
    Event,
    PodCreated,
    PodDeleted,
    ReplayOptions,
    Scenario,
    ScenarioError,
    replay,
    scenario_formats,
)
from kubesched.scenario import formats
from kubesched.testing import make_node, make_pod

from .test_replay_cli import run, scenario


def test_the_scenario_file_format_is_installed_as_an_entry_point() -> None:
    found = scenario_formats()["scenario"]
    assert found.load() is formats.read_scenario_file


def test_an_installed_format_is_used_by_name(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    alias = EntryPoint("alias", "kubesched.scenario.formats:read_scenario_file", GROUP)
    monkeypatch.setattr(formats, "scenario_formats", lambda: {"alias": alias})
    path = str(scenario(tmp_path))
    code, out, err = run(capsys, "replay", path, "--format", "alias", "-o", "json")
    assert code == 0, err
    assert json.loads(out)["summary"]["created"] == 3


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--format", "nope"], "no scenario format 'nope' is installed (installed: "),
        (["--format-option", "speed=2"], "format scenario takes no option 'speed'"),
    ],
)
def test_format_mistakes_are_one_line_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str], message: str
) -> None:
    code, out, err = run(capsys, "replay", str(scenario(tmp_path)), *argv)
    assert (code, out) == (2, "")
    assert message in err and err.count("\n") == 1


def test_a_format_that_does_not_load_is_named(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    broken = EntryPoint("broken", "kubesched.no_such_module:read", GROUP)
    monkeypatch.setattr(formats, "scenario_formats", lambda: {"broken": broken})
    code, _, err = run(capsys, "replay", str(scenario(tmp_path)), "--format", "broken")
    assert code == 2
    assert "scenario format 'broken' of ? does not load: ModuleNotFoundError" in err


def test_a_streamed_scenario_is_checked_as_it_is_read() -> None:
    read: list[int] = []

    def events() -> Iterator[Event]:
        for i in range(5):
            read.append(i)
            yield PodCreated(float(i), make_pod(f"p{i}").req(cpu="1").obj())
        yield PodDeleted(6.0, "default/ghost")

    nodes = [make_node("n1").capacity(cpu="8", memory="8Gi").obj()]
    streamed = Scenario(ClusterObjects(nodes=nodes), events, source="trace.csv")
    with pytest.raises(ScenarioError) as caught:
        replay(streamed)
    assert str(caught.value) == (
        "trace.csv: event 5: field pod: deletes pod default/ghost, which does not exist"
    )
    assert read == [0, 1, 2, 3, 4]


def test_parquet_tables_hold_the_same_rows_as_csv(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = str(scenario(tmp_path))
    out = {s: tmp_path / f"series{s}" for s in (".csv", ".parquet")}
    pods = {s: tmp_path / f"pods{s}" for s in (".csv", ".parquet")}
    for suffix in (".csv", ".parquet"):
        argv = ["replay", path, "--series", str(out[suffix]), "--pods", str(pods[suffix])]
        assert run(capsys, *argv)[0] == 0
    for tables in (out, pods):
        from_csv = list(csv.DictReader(tables[".csv"].open()))
        from_parquet = pq.read_table(tables[".parquet"]).to_pylist()
        as_text = [{k: "" if v is None else str(v) for k, v in r.items()} for r in from_parquet]
        assert as_text == from_csv
        assert list(from_parquet[0]) == list(from_csv[0])


def test_the_plot_is_a_png_and_outputs_get_ordinary_permissions(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    plot = tmp_path / "series.png"
    code, _, err = run(capsys, "replay", str(scenario(tmp_path)), "--plot", str(plot))
    assert code == 0, err
    assert plot.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    assert plot.stat().st_mode & 0o777 == 0o666 & ~_umask()
    code, _, err = run(capsys, "replay", str(scenario(tmp_path)), "--plot", str(tmp_path / "p.svg"))
    assert code == 2 and "p.svg: --plot: the plot is written as .png" in err


def _umask() -> int:
    import os

    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_until_stops_the_run_at_that_time() -> None:
    events: list[Event] = [
        PodCreated(float(i * 100), make_pod(f"p{i}").req(cpu="1").obj(), duration=50.0)
        for i in range(10)
    ]
    nodes = [make_node("n1").capacity(cpu="8", memory="8Gi").obj()]
    whole = Scenario(ClusterObjects(nodes=nodes), lambda: events)
    result = replay(whole, options=ReplayOptions(until=420.0, sample_interval=100.0))
    assert result.totals.simulated_seconds == 420.0
    assert result.totals.counters.created == 5
    assert [s.at for s in result.series] == [0.0, 100.0, 200.0, 300.0, 400.0, 420.0]
    assert [r.state for r in result.pods] == ["Finished"] * 4 + ["Running"]
