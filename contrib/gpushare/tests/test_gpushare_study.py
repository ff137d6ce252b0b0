"""examples/openb/study.yaml's grid, shrunk to three small synthetic traces and two seeds,
run end to end through `kubesched sweep`, and the figures' data read back from its table."""

from __future__ import annotations

import csv
import importlib.util
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from kubesched.cli import main as kubesched
from kubesched.experiment import for_seed, load_grid
from kubesched.replay import ReplayOptions, replay
from kubesched_gpushare.floats import add_in_order
from kubesched_gpushare.scenarios import read_openb_arrivals
from kubesched_gpushare.study import (
    POLICIES,
    Run,
    family_points,
    headline_table,
    mean_curves,
    mean_failed,
    read_runs,
    seed_table,
    seeds_label,
    seeds_text,
)
from kubesched_gpushare.testing import write_openb_trace

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "openb"
TRACES = {"default": 1, "cpu050": 2, "cpu100": 3}


def _figures_module() -> Any:
    spec = importlib.util.spec_from_file_location("openb_figures", EXAMPLE / "figures.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def small_study(folder: Path) -> Path:
    """study.yaml with its configs and input settings, on TRACES only, seeds 42-43."""
    data = folder / "data"
    data.mkdir()
    for trace, seed in TRACES.items():
        source = folder / f"made-{trace}"
        source.mkdir()
        write_openb_trace(source, seed=seed)
        shutil.copy(source / "openb_pod_list_default.csv", data / f"openb_pod_list_{trace}.csv")
        shutil.copy(source / "openb_node_list_gpu_node.csv", data)
    grid = yaml.safe_load((EXAMPLE / "study.yaml").read_text())
    for config in grid["configs"]:
        for key in ("file", "base"):
            if key in config:
                config[key] = str(EXAMPLE / config[key])
    grid["inputs"] = [i for i in grid["inputs"] if i["name"].split("@")[0] in TRACES]
    grid["seeds"] = "42-43"
    path = folder / "study.yaml"
    path.write_text(yaml.safe_dump(grid))
    return path


@pytest.fixture(scope="module")
def swept(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("study")
    grid = small_study(folder)
    out = folder / "out"
    code: Any = 0
    try:
        kubesched(["sweep", str(grid), "--out", str(out), "-j", "1"])
    except SystemExit as exc:
        code = exc.code
    assert code in (0, None)
    return grid, out / "table.csv"


def test_the_grid_is_every_policy_trace_tie_rule_and_seed(swept: tuple[Path, Path]) -> None:
    grid, table = swept
    rows = list(csv.DictReader(table.open()))
    assert len(rows) == 7 * 3 * 2 * 2
    assert {r["status"] for r in rows} == {"ok"}
    assert [r["config"] for r in rows[::12]] == list(POLICIES)
    names = {r["input"] for r in rows}
    assert names == {f"{t}@{ties}" for t in TRACES for ties in ("first", "random")}
    # one seed for both: each seed is its own input hash, and reads the trace with that seed
    by_seed = {(r["input"], r["seed"]): r["input_hash"] for r in rows}
    assert by_seed[("default@first", "42")] != by_seed[("default@first", "43")]
    spec = next(s for s in load_grid(grid).inputs if s.name == "cpu050@random")
    assert by_seed[("cpu050@random", "43")] == for_seed(spec, 43).digest
    study = yaml.safe_load((EXAMPLE / "study.yaml").read_text())
    assert len(study["configs"]) == 7 and len(study["inputs"]) == 34
    assert study["seeds"] == "42-51"


def test_a_row_is_the_replay_of_its_trace_with_its_seed(swept: tuple[Path, Path]) -> None:
    grid, table = swept
    row = next(
        r
        for r in csv.DictReader(table.open())
        if (r["config"], r["input"], r["seed"]) == ("bestfit", "cpu050@first", "43")
    )
    trace = grid.parent / "data" / "openb_pod_list_cpu050.csv"
    config = yaml.safe_load((EXAMPLE / "bestfit.yaml").read_text())
    scenario = read_openb_arrivals(trace, {"seed": "43", "until": "100"})
    options = ReplayOptions(ties="first", drop_unschedulable=True)
    gpu = replay(scenario, config, 43, options).to_document()["observers"]["openbGpu"]
    assert row["observer.openbGpu.unallocatedGpuPercentAt100"] == str(
        gpu["unallocatedGpuPercentAt100"]
    )
    assert int(row["observer.openbGpu.failed"]) == gpu["failed"]


def _value(rows: list[dict[str, str]], policy: str, trace: str, column: str) -> list[float]:
    """The column's values of a policy and trace, by seed, bins no pod reached left out."""
    return [
        float(r[f"observer.openbGpu.{column}"])
        for r in sorted(rows, key=lambda r: int(r["seed"]))
        if r["config"] == policy
        and r["input"] == trace
        and r[f"observer.openbGpu.{column}"] != "none"
    ]


def test_the_figures_data_are_the_means_over_seeds(swept: tuple[Path, Path]) -> None:
    _, table = swept
    rows = list(csv.DictReader(table.open()))
    runs = read_runs(table)
    assert len(runs) == len(rows)
    expected: dict[str, list[tuple[int, float, int]]] = {}
    for policy in POLICIES:
        for param in (50, 100):
            seeds = _value(rows, policy, f"cpu{param:03d}@random", "unallocatedGpuPercentAt100")
            if seeds:
                point = (param, add_in_order(seeds) / len(seeds), len(seeds))
                expected.setdefault(policy, []).append(point)
    assert expected  # some runs of the small traces reach the 100 % bin
    assert family_points(runs, "cpu", "random") == expected
    amount = mean_curves(runs, "default", "first", "fragAmountPercent")
    seeds = _value(rows, "fgd", "default@first", "fragAmountPercentAt50")
    assert amount["fgd"][5] == (add_in_order(seeds) / len(seeds) if seeds else None)
    failed = mean_failed(runs, "cpu100", "random")
    counts = _value(rows, "random", "cpu100@random", "failedPods.gpu1")
    assert failed["random"]["gpu1"] == add_in_order(counts) / 2
    assert sum(v for f in failed.values() for v in f.values()) > 0  # the cluster overfills
    text = headline_table(runs, "first")
    title = text.splitlines()[0]
    assert "; ties to the first node of a seeded order (the study's rule); seeds 42-43" in title
    assert [line.split()[0] for line in text.splitlines()[2:]] == ["default", "cpu050", "cpu100"]


def test_the_seed_table_shows_every_seed_and_the_mean_in_seed_order(
    swept: tuple[Path, Path],
) -> None:
    _, table = swept
    rows = list(csv.DictReader(table.open()))
    lines = seed_table(read_runs(table), "default", "random").splitlines()
    assert lines[0] == (
        "default: unallocated GPU % at arrived = 100% per seed; ties to a random tied node "
        "(kube-scheduler's rule); seeds 42-43"
    )
    assert lines[1].split() == ["policy", "42", "43", "mean"]
    assert [line.split()[0] for line in lines[2:]] == list(POLICIES)
    for line in lines[2:]:
        policy = line.split()[0]
        by_seed = {
            r["seed"]: r["observer.openbGpu.unallocatedGpuPercentAt100"]
            for r in rows
            if r["config"] == policy and r["input"] == "default@random"
        }
        cells = [f"{float(by_seed[s]):.2f}" if by_seed[s] != "none" else "-" for s in ("42", "43")]
        done = [float(by_seed[s]) for s in ("42", "43") if by_seed[s] != "none"]
        mean = f"{add_in_order(done) / len(done):.3f}" if done else "-"
        assert line.split()[1:] == [*cells, mean]


def _run(policy: str, seed: int) -> Run:
    return Run(policy, "default", "default", None, "random", seed, {}, {})


def test_seeds_are_named_as_a_range_a_list_or_per_group_of_policies() -> None:
    assert seeds_text([42]) == "seed 42"
    assert seeds_text([44, 42, 43, 42]) == "seeds 42-44"
    assert seeds_text([42, 44]) == "seeds 42, 44"
    ten = [_run(p, s) for p in ("fgd-bestfit", "fgd") for s in range(42, 52)]
    assert seeds_label(ten) == "seeds 42-51"
    mixed = [*ten, _run("random", 42), _run("bestfit", 42)]
    assert seeds_label(mixed) == "random, bestfit: seed 42; fgd, fgd-bestfit: seeds 42-51"


def test_figures_py_writes_every_family_s_figures(
    swept: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("matplotlib")
    _, table = swept
    code = _figures_module().main([str(table), str(tmp_path), "--ties", "random"])
    assert code == 0
    out = capsys.readouterr().out
    assert "ties to a random tied node (kube-scheduler's rule)" in out
    written = sorted(p.name for p in tmp_path.iterdir())
    assert written == sorted(
        [
            "openb-cpu-unallocated-random.png",
            "openb-cpu-frag-random.png",
            "openb-cpu-failed-random.png",
            "openb-default-frag-random.png",
            "openb-default-failed-random.png",
        ]
    )
    assert all((tmp_path / name).stat().st_size > 1000 for name in written)
