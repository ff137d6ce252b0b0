"""`simulate --html` and `kubesched report`: the page is written whole, or nothing and one line."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from kubesched.cli.main import main

EXAMPLES = Path(__file__).parents[3] / "examples"
QUICKSTART = EXAMPLES / "quickstart"
CONFIG = EXAMPLES / "config" / "multiple-profiles.yaml"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    try:
        code = main(list(args))
    except SystemExit as exc:
        code = exc.code
    captured = capsys.readouterr()
    return int(code or 0), captured.out, captured.err


def data_of(html: str) -> dict[str, Any]:
    start = html.index('id="kubesched-data">') + len('id="kubesched-data">')
    loaded: dict[str, Any] = json.loads(html[start : html.index("</script>", start)])
    return loaded


def simulated(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> Path:
    code, out, _ = run(capsys, "simulate", str(QUICKSTART), "-o", "json", "--explain")
    assert code == 0
    path = tmp_path / "result.json"
    path.write_text(out, encoding="utf-8")
    return path


def test_simulate_html_writes_the_page_and_still_prints(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    page = tmp_path / "report.html"
    code, out, _ = run(
        capsys, "simulate", str(QUICKSTART), "-o", "json", "--explain", "--html", str(page)
    )
    assert code == 0
    document = json.loads(out)
    html = page.read_text(encoding="utf-8")
    assert data_of(html)["results"] == document["results"]
    assert "Effective configuration" in html and "NodeResourcesFit" in html
    assert page.stat().st_mode & 0o777 != 0o600  # the umask's mode, not the temporary file's


def test_report_renders_a_saved_json_or_yaml_result(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    result = simulated(capsys, tmp_path)
    document = json.loads(result.read_text(encoding="utf-8"))
    as_yaml = tmp_path / "result.yaml"
    as_yaml.write_text(yaml.safe_dump(document), encoding="utf-8")
    for source in (result, as_yaml):
        page = tmp_path / f"{source.suffix[1:]}.html"
        code, out, err = run(capsys, "report", str(source), "-o", str(page))
        assert (code, out, err) == (0, "", f"wrote {page}\n")
        assert data_of(page.read_text(encoding="utf-8"))["results"] == document["results"]


def test_report_shows_the_configuration_it_is_given(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    result = simulated(capsys, tmp_path)
    page = tmp_path / "r.html"
    code, _, _ = run(capsys, "report", str(result), "-o", str(page), "--config", str(CONFIG))
    assert code == 0
    html = page.read_text(encoding="utf-8")
    assert "Effective configuration" in html
    assert "schedulerName: no-scoring-scheduler" in html or "no-scoring-scheduler" in html


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("{", "neither JSON nor YAML (line 1)"),
        ("[]", "not a kubesched result document (expected an object)"),
        (
            '{"apiVersion": "v1", "kind": "List"}',
            "field apiVersion: apiVersion is 'v1', expected 'kubesched.io/v1alpha1'",
        ),
        (
            '{"apiVersion": "kubesched.io/v1alpha1", "kind": "SweepResult"}',
            "field kind: kind is 'SweepResult'; supported: SimulationResult, ReplayResult, "
            "ComparisonResult",
        ),
        (
            '{"apiVersion": "kubesched.io/v1alpha1", "kind": "SimulationResult", '
            '"results": [{"pod": 3}], "summary": {}, "warnings": []}',
            "field results[0].pod: expected a string",
        ),
        (
            '{"apiVersion": "kubesched.io/v1alpha1", "kind": "ReplayResult", "summary": '
            '{"events": 1, "created": 1, "bound": 1, "finished": 0, "deleted": 0, "attempts": 1, '
            '"simulatedSeconds": 1.0}, "series": [], "pods": [{"pod": "a/b", "state": "Running", '
            '"created": "soon"}]}',
            "field pods[0].created: expected a number",
        ),
    ],
)
def test_a_bad_result_is_one_line_exit_2_and_nothing_written(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: str, expected: str
) -> None:
    source = tmp_path / "bad.json"
    source.write_text(content, encoding="utf-8")
    page = tmp_path / "out.html"
    code, out, err = run(capsys, "report", str(source), "-o", str(page))
    assert code == 2
    assert out == ""
    assert err == f"error: {source}: {expected}\n"
    assert list(tmp_path.iterdir()) == [source]


def test_a_missing_result_names_the_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, _, err = run(capsys, "report", str(tmp_path / "nope.json"), "-o", str(tmp_path / "x"))
    assert (code, err) == (2, f"error: {tmp_path / 'nope.json'}: no such file\n")


def test_an_unwritable_page_fails_before_the_simulation(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    page = tmp_path / "missing-dir" / "r.html"
    code, out, err = run(capsys, "simulate", str(QUICKSTART), "--html", str(page))
    assert (code, out) == (2, "")
    assert err == f"error: {page}: cannot write the HTML report: its directory does not exist\n"


@pytest.mark.parametrize("command", ["simulate", "report"])
def test_without_the_report_extra_one_line_says_what_to_install(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    command: str,
) -> None:
    monkeypatch.setitem(sys.modules, "jinja2", None)  # import jinja2 raises ImportError
    page = tmp_path / "r.html"
    if command == "simulate":
        args = ["simulate", str(QUICKSTART), "--html", str(page)]
    else:
        args = ["report", str(tmp_path / "result.json"), "-o", str(page)]
    code, out, err = run(capsys, *args)
    assert (code, out) == (1, "")
    assert err == (
        "error: HTML reports need the report extra: pip install 'kubesched-core[report]'\n"
    )
    assert not page.exists()


SCENARIO_CLUSTER = """\
apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
"""


def scenario(tmp_path: Path) -> Path:
    (tmp_path / "cluster.yaml").write_text(SCENARIO_CLUSTER, encoding="utf-8")
    container = {"name": "c", "image": "app", "resources": {"requests": {"cpu": "3"}}}
    events = [
        {"at": 60 * i, "kind": "PodCreated", "duration": 90, "pod": {
            "metadata": {"name": f"p{i}"}, "spec": {"containers": [container]}}}
        for i in range(4)
    ]  # fmt: skip
    path = tmp_path / "scenario.yaml"
    path.write_text(
        yaml.safe_dump(
            {
                "apiVersion": "kubesched.io/v1alpha1",
                "kind": "Scenario",
                "cluster": "cluster.yaml",
                "events": events,
            }
        ),
        encoding="utf-8",
    )
    return path


def test_replay_html_carries_the_series_and_the_pods(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    page = tmp_path / "replay.html"
    code, out, _ = run(capsys, "replay", str(scenario(tmp_path)), "-o", "json", "--html", str(page))
    assert code == 0
    document = json.loads(out)
    data = data_of(page.read_text(encoding="utf-8"))
    assert data["pods"] == document["pods"]
    assert data["series"]["time"] == [row["time"] for row in document["series"]]
    assert data["resources"] == ["cpu", "memory", "pods"]
    assert len(document["pods"]) == 4


def test_replay_html_unwritable_fails_before_the_run(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    page = tmp_path / "no-dir" / "replay.html"
    code, out, err = run(capsys, "replay", str(scenario(tmp_path)), "--html", str(page))
    assert (code, out) == (2, "")
    assert err == f"error: {page}: cannot write the HTML report: its directory does not exist\n"
