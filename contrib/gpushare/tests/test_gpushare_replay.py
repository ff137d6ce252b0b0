"""The OpenB replay on a small synthetic trace in the trace's own CSV format."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from kubesched.errors import InputError
from kubesched_gpushare.frag import target_workload
from kubesched_gpushare.replay import arrivals, inflate, read_nodes, read_pods, replay
from kubesched_gpushare.replay.command import openb
from kubesched_gpushare.replay.output import table
from kubesched_gpushare.replay.profiles import POLICIES, policy_config
from kubesched_gpushare.replay.runs import API_VERSION, summary
from kubesched_gpushare.replay.series import arrived_bin, binned, unallocated
from kubesched_gpushare.replay.trace import TraceError
from kubesched_gpushare.testing import NODE_HEADER, openb_trace_dir, write_openb_trace


def run_openb(*args: str) -> Result:
    """`kubesched openb ARGS...` through click's test runner; a user error raises."""
    return CliRunner().invoke(openb, list(args), catch_exceptions=False)


def main(argv: list[str]) -> int:
    """The exit code of `kubesched openb ARGV`, its stdout and stderr echoed for capsys."""
    result = run_openb(*argv)
    print(result.stdout, end="")
    print(result.stderr, end="", file=sys.stderr)
    return result.exit_code


def test_reading_the_trace(tmp_path: Path) -> None:
    write_openb_trace(tmp_path)
    nodes = read_nodes(tmp_path / "openb_node_list_gpu_node.csv")
    assert len(nodes) == 6
    assert nodes[1].status.allocatable["alibabacloud.com/gpu-milli"] == 8000
    assert nodes[1].metadata.labels == {"alibabacloud.com/gpu-card-model": "G2"}
    assert len(read_pods(tmp_path / "openb_pod_list_default.csv")) == 40


def test_a_missing_column_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "nodes.csv"
    path.write_text("sn,cpu_milli,gpu\nn,1,1\n")
    with pytest.raises(TraceError, match=r"nodes.csv: missing column\(s\) memory_mib, model"):
        read_nodes(path)
    path.write_text(NODE_HEADER + "n,lots,1,1,T4\n")
    with pytest.raises(TraceError, match=r"nodes.csv:2: column cpu_milli: not an integer"):
        read_nodes(path)


def test_arrivals_are_a_seeded_permutation_and_inflation_stops_at_the_target(
    tmp_path: Path,
) -> None:
    pods = read_pods(write_openb_trace(tmp_path) / "openb_pod_list_default.csv")
    order = arrivals(pods, 42)
    assert sorted(p.name for p in order) == sorted(p.name for p in pods)
    assert order == arrivals(pods, 42) and order != arrivals(pods, 43)
    original = sum(p.request.total_milli for p in pods)
    capacity = original  # the originals are 100%: copies add up to 30% more
    inflated = inflate(order, pods, capacity, 1.3, 42)
    assert inflated[: len(order)] == order
    assert len(inflated) > len(order)
    assert sum(p.request.total_milli for p in inflated) <= 1.3 * capacity
    assert sum(p.request.total_milli for p in inflated) > 1.3 * capacity - 8000
    # Originals above the target are all kept, nothing is appended.
    assert inflate(order, pods, original // 2, 1.3, 42) == order


def test_binning_pools_the_neighbours_of_an_empty_bin() -> None:
    # capacity 100: arrived 0 -> bin 0, 2 -> bin 2 (two pods), bin 1 empty, bin 3 empty.
    # Bin 1 pools the three pods of bins 0 and 2 (70 / 3), not the mean of their means.
    assert binned([0, 2, 2], [10.0, 20.0, 40.0], 100, 4) == [10.0, 70 / 3, 30.0, 30.0, None]


def test_arrived_percent_rounds_to_the_nearest_bin_halves_to_even() -> None:
    # capacity 200: 0.5% -> 0, 1% -> 1, 1.5% -> 2, 2.5% -> 2, 2.51% stays exact -> 3.
    assert [arrived_bin(a, 200) for a in (1, 2, 3, 5)] == [0, 1, 2, 2]
    assert arrived_bin(50_200, 100_000) == 50 and arrived_bin(50_600, 100_000) == 51
    # 99.6% belongs to bin 100, where flooring put it in 99.
    assert binned([99_600], [1.0], 100_000, 100)[100] == 1.0


@pytest.mark.parametrize("policy", list(POLICIES))
def test_replay_invariants(tmp_path: Path, policy: str) -> None:
    write_openb_trace(tmp_path)
    nodes = read_nodes(tmp_path / "openb_node_list_gpu_node.csv")
    pods = read_pods(tmp_path / "openb_pod_list_default.csv")
    capacity = 21_000
    order = inflate(arrivals(pods, 7), pods, capacity, 1.3, 7)
    result = replay(nodes, order, policy, target_workload([p.spec() for p in pods]), 7)
    assert result.scheduled + result.failed == len(order)
    assert len(result.arrived) == len(order)
    assert all(a <= b for a, b in zip(result.arrived, result.arrived[1:], strict=False))
    assert all(a <= b for a, b in zip(result.allocated, result.allocated[1:], strict=False))
    assert all(al <= ar for al, ar in zip(result.allocated, result.arrived, strict=True))
    assert result.allocated[-1] == sum(sum(used) for used in result.gpus.values())
    for node, used in result.gpus.items():
        assert all(0 <= u <= 1000 for u in used), (node, used)
    assert result.failed > 0  # 130% of capacity cannot all fit


def test_the_command_writes_json_csv_and_the_per_gpu_view(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_openb_trace(tmp_path)
    out = tmp_path / "out.json"
    gpus = tmp_path / "gpus.json"
    code = main(
        [
            str(tmp_path),
            "--policies",
            "fgd,bestfit",
            "--seeds",
            "42,43",
            "--json",
            str(out),
            "--csv",
            str(tmp_path / "out.csv"),
            "--per-gpu",
            str(gpus),
        ]
    )
    assert code == 0
    document = json.loads(out.read_text())
    assert document["apiVersion"] == "kubesched.io/openb-replay/v1"
    assert document["trace"]["gpus"] == 19 and document["trace"]["nodeCount"] == 6
    assert [(r["policy"], r["seed"]) for r in document["runs"]] == [
        ("fgd", 42),
        ("fgd", 43),
        ("bestfit", 42),
        ("bestfit", 43),
    ]
    assert len(document["runs"][0]["unallocatedGpuPercent"]) == 131
    assert set(document["summary"]) == {"fgd", "bestfit"}
    printed = capsys.readouterr().out
    assert printed.splitlines()[0] == (
        "unallocated GPU % at arrived = 100%, "
        "ties to the first node of a seeded order (the study's rule)"
    )
    assert printed.splitlines()[1].split() == [
        "policy",
        "seeds",
        "mean",
        "median",
        "min",
        "max",
        "pods/s",
    ]
    assert len(json.loads(gpus.read_text())) == 4
    assert (tmp_path / "out.csv").read_text().startswith("policy,ties,seed,arrived_percent,")
    assert (tmp_path / "out.csv").read_text().splitlines()[1].startswith("fgd,first,42,0,")
    assert {r["ties"] for r in document["runs"]} == {"first"}


def test_until_stops_the_run_and_keeps_the_series_up_to_it(tmp_path: Path) -> None:
    write_openb_trace(tmp_path)
    nodes = read_nodes(tmp_path / "openb_node_list_gpu_node.csv")
    pods = read_pods(tmp_path / "openb_pod_list_default.csv")
    capacity = 19_000
    order = inflate(arrivals(pods, 3), pods, capacity, 1.3, 3)
    workload = target_workload([p.spec() for p in pods])
    whole = replay(nodes, order, "bestfit", workload, 3)
    short = replay(nodes, order, "bestfit", workload, 3, until=60)
    assert len(short.arrived) < len(whole.arrived)
    assert 100 * short.arrived[-1] > 62 * capacity >= 100 * short.arrived[-2]
    assert unallocated(short, 60) == unallocated(whole, 60)


def test_a_composed_policy_adds_its_plugins_weighted_scores(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_openb_trace(tmp_path)
    out = tmp_path / "out.json"
    argv = [str(tmp_path), "--policies", "fgd+bestfit", "--ties", "random", "--json", str(out)]
    assert main(argv) == 0
    assert "ties to a random tied node (kube-scheduler's rule)" in capsys.readouterr().out
    [run] = json.loads(out.read_text())["runs"]
    assert (run["policy"], run["ties"]) == ("fgd+bestfit", "random")
    profile = policy_config("fgd+bestfit", [])["profiles"][0]
    assert profile["plugins"]["score"]["enabled"] == [
        {"name": "FGDScore", "weight": 1000},
        {"name": "BestFitScore", "weight": 20},
    ]


def test_the_command_reports_a_missing_trace(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(InputError, match=r"openb_node_list_gpu_node\.csv"):
        run_openb(str(tmp_path))


# The trace lives beside the checkout (shared/data/openb) unless OPENB_DATA names it.
TRACE = openb_trace_dir(Path(__file__))


@pytest.mark.skipif(TRACE is None, reason="the OpenB trace is not on this machine")
def test_the_real_trace_has_the_documented_shape() -> None:
    assert TRACE is not None
    folder = TRACE
    nodes = read_nodes(folder / "openb_node_list_gpu_node.csv")
    pods = read_pods(folder / "openb_pod_list_default.csv")
    assert len(nodes) == 1213
    assert sum(int(n.status.allocatable["alibabacloud.com/gpu-count"]) for n in nodes) == 6212
    assert len(pods) == 8152


def test_from_merges_earlier_documents_of_one_tie_rule(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_openb_trace(tmp_path)
    first, second, third = (tmp_path / f"{n}.json" for n in ("a", "b", "c"))
    assert main([str(tmp_path), "--policies", "fgd", "--seeds", "1", "--json", str(first)]) == 0
    assert main([str(tmp_path), "--policies", "bestfit", "--json", str(second)]) == 0
    argv = [str(tmp_path), "--policies", "bestfit", "--ties", "random", "--json", str(third)]
    assert main(argv) == 0
    capsys.readouterr()
    both = tmp_path / "both.json"
    argv = ["--from", str(first), "--from", str(second), "--json", str(both)]
    assert main([*argv, "--csv", str(tmp_path / "both.csv")]) == 0
    assert "ties to the first node" in capsys.readouterr().out
    document = json.loads(both.read_text())
    assert [(r["policy"], r["seed"]) for r in document["runs"]] == [("fgd", 1), ("bestfit", 42)]
    assert set(document["summary"]) == {"fgd", "bestfit"}
    with pytest.raises(InputError) as refused:
        run_openb("--from", str(first), "--from", str(third))
    assert str(refused.value) == f"{third}: ties: 'random' differs from {first}'s 'first'"
    (tmp_path / "junk.json").write_text("[1]")
    with pytest.raises(InputError) as junk:
        run_openb("--from", str(tmp_path / "junk.json"))
    assert str(junk.value) == f"{tmp_path / 'junk.json'}: apiVersion: not {API_VERSION}"
    both_given = run_openb(str(tmp_path), "--from", str(first))
    assert both_given.exit_code == 2 and "one of the two" in both_given.stderr


SCHEMA = Path(__file__).resolve().parents[3] / "docs/reference/schemas/openb-replay.schema.json"


@pytest.mark.parametrize("extra", [[], ["--until", "60", "--ties", "random"]])
def test_the_json_document_follows_its_published_schema(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str]
) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    write_openb_trace(tmp_path)
    out = tmp_path / "out.json"
    argv = [str(tmp_path), "--policies", "fgd,fgd+bestfit", "--seeds", "1,2", "--json", str(out)]
    assert main([*argv, *extra]) == 0
    capsys.readouterr()
    text = out.read_text()
    assert "NaN" not in text  # strict JSON: a missing figure is null
    schema = json.loads(SCHEMA.read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    errors = list(jsonschema.Draft202012Validator(schema).iter_errors(json.loads(text)))
    assert [e.message for e in errors] == []


def test_a_policy_no_run_took_to_100_percent_shows_dashes() -> None:
    row = {"seeds": 1, "mean": None, "median": None, "min": None, "max": None}
    text = table({"fgd": {**row, "podsPerSecond": 3.0}}, "random")
    assert text.splitlines()[-1].split() == ["fgd", "1", "-", "-", "-", "-", "3.0"]
    assert summary([{"policy": "fgd", "unallocatedAt100": None, "podsPerSecond": 3.0}]) == {
        "fgd": {**row, "podsPerSecond": 3.0}
    }
