"""`kubesched compare` through its command line: table, JSON against its schema, YAML, plot,
and bad input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from jsonschema import Draft202012Validator

from kubesched.cli.main import main

REPO = Path(__file__).resolve().parents[2]
SPREAD = str(REPO / "examples/compare/spread.yaml")
PACK = str(REPO / "examples/compare/pack.yaml")
QUICKSTART = str(REPO / "examples/quickstart")
SCHEMA = REPO / "docs/reference/schemas/comparison-result.schema.json"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code: Any = 0
    try:
        main(list(argv))
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    return int(code or 0), out, err


def test_the_table_shows_moved_pods_stranded_pods_and_metrics(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "compare", SPREAD, PACK, "--on", QUICKSTART, "--seeds", "1,2")
    assert code == 0, err
    assert "Pods placed differently (seed 1)" in out
    assert "shop/web-1" in out and "NodeResourcesFit +26" in out
    assert "Pods only some configs place (seed 1)" in out
    assert "shop/checkout" in out and "Insufficient cpu" in out
    assert "Metrics (mean [min-max] over seeds 1, 2)" in out
    scheduled = next(line for line in out.splitlines() if "│ scheduled " in line)
    assert [cell.strip() for cell in scheduled.split("│")[2:4]] == ["4", "3"]


def test_the_json_document_validates_against_its_schema(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(
        capsys, "compare", SPREAD, PACK, "--on", QUICKSTART, "--seeds", "0-2", "-o", "json"
    )
    assert code == 0
    document = json.loads(out)
    schema = json.loads(SCHEMA.read_text())
    Draft202012Validator.check_schema(schema)
    problems = [e.message for e in Draft202012Validator(schema).iter_errors(document)]
    assert problems == []
    assert document["seeds"] == [0, 1, 2]
    assert [c["name"] for c in document["configs"]] == ["spread", "pack"]
    # on seed 0 both configs find checkout a node; packing strands it on seeds 1 and 2
    assert [d["pod"] for d in document["differences"]] == ["shop/web-1", "shop/web-2"]
    per_seed = document["configs"][1]["metrics"]["perSeed"]
    assert [m["seed"] for m in per_seed] == [0, 1, 2]
    assert [m["scheduled"] for m in per_seed] == [4, 3, 3]
    assert document["configs"][1]["metrics"]["spread"]["scheduled"] == {
        "mean": 10 / 3,
        "min": 3.0,
        "max": 4.0,
    }
    code, out_yaml, _ = run(
        capsys, "compare", SPREAD, PACK, "--on", QUICKSTART, "--seeds", "0-2", "-o", "yaml"
    )
    assert yaml.safe_load(out_yaml) == document


def test_plot_writes_an_image(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    target = tmp_path / "compare.png"
    code, _, err = run(capsys, "compare", SPREAD, PACK, "--on", QUICKSTART, "--plot", str(target))
    assert code == 0, err
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(
    ("argv", "status", "message"),
    [
        ([SPREAD, "--on", QUICKSTART], 2, "compare needs at least two configs"),
        ([SPREAD, PACK, "--on", QUICKSTART, "--seeds", "x"], 2, "--seeds"),
        (
            [SPREAD, "missing.yaml", "--on", QUICKSTART],
            2,
            "missing.yaml: cannot read the configuration",
        ),
        ([SPREAD, PACK, "--on", "nowhere"], 2, "nowhere"),
    ],
)
def test_bad_input_is_one_line_and_nothing_printed(
    capsys: pytest.CaptureFixture[str], argv: list[str], status: int, message: str
) -> None:
    code, out, err = run(capsys, "compare", *argv)
    assert code == status
    assert out == ""
    assert message in err
    assert len(err.strip().splitlines()) == 1


def test_a_config_that_does_not_validate_names_its_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text(Path(PACK).read_text() + "parallelism: -1\n")
    plot = tmp_path / "never.png"
    code, out, err = run(
        capsys, "compare", SPREAD, str(broken), "--on", QUICKSTART, "--plot", str(plot)
    )
    assert code == 1
    assert out == ""
    assert err.startswith(f"error: {broken}")
    assert not plot.exists()


DAY = str(REPO / "examples/compare/day.yaml")


def test_on_a_scenario_each_config_is_replayed_and_its_series_kept(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    plot = tmp_path / "day.png"
    argv = ["compare", SPREAD, PACK, "--on", DAY, "--seeds", "1,2", "-o", "json"]
    code, out, err = run(capsys, *argv, "--plot", str(plot))
    assert code == 0, err
    document = json.loads(out)
    schema = json.loads(SCHEMA.read_text())
    assert [e.message for e in Draft202012Validator(schema).iter_errors(document)] == []
    assert document["input"]["kind"] == "scenario"
    spread, pack = document["configs"]
    assert [m["seed"] for m in pack["metrics"]["perSeed"]] == [1, 2]
    replay = pack["metrics"]["perSeed"][0]["replay"]
    assert replay["created"] == 16 and replay["events"] == 7
    assert pack["metrics"]["spread"]["replay"]["created"] == {
        "mean": 16.0,
        "min": 16.0,
        "max": 16.0,
    }
    assert spread["series"][0]["time"] == 0.0 and spread["series"][-1]["time"] == 36000.0
    by_pod = {d["pod"]: d for d in document["differences"]}
    # packing fills worker-b1, the zone eu-west-1b worker checkout requires
    assert by_pod["shop/checkout"]["kind"] == "placedBySome"
    assert by_pod["shop/checkout"]["placements"]["pack"]["status"] == "Pending"
    assert by_pod["shop/web-1"]["placements"]["pack"]["node"] == "worker-b1"
    assert plot.read_bytes()[:4] == b"\x89PNG"
    code, table, _ = run(capsys, "compare", SPREAD, PACK, "--on", DAY, "--seeds", "1,2")
    assert code == 0
    assert "utilisation_mean.cpu" in table and "Why" not in table
