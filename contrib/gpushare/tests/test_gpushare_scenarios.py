"""The OpenB trace formats for `kubesched replay` (entry-point group kubesched.scenarios):
`openb-arrivals` gives the study's runs, `openb` the trace's own times."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stderr, redirect_stdout
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

import pytest

from kubesched.cli import main as kubesched
from kubesched.replay import PodCreated, PodDeleted, ReplayOptions, ScenarioError, replay
from kubesched_gpushare.frag import target_workload
from kubesched_gpushare.published import published_workload
from kubesched_gpushare.replay import arrivals, inflate, read_nodes, read_pods
from kubesched_gpushare.replay import replay as openb_replay
from kubesched_gpushare.replay.profiles import policy_config
from kubesched_gpushare.replay.series import arrived_bin, frag_amount, frag_ratio, unallocated
from kubesched_gpushare.scenarios import (
    FIGURE_BINS,
    POD_TYPES,
    pod_type,
    read_openb,
    read_openb_arrivals,
)
from kubesched_gpushare.testing import POD_HEADER, write_openb_trace

KIND = {"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration"}


def config(policy: str, pods_csv: Path) -> dict[str, Any]:
    workload = target_workload([p.spec() for p in read_pods(pods_csv)])
    return {**KIND, **policy_config(policy, workload)}


def test_both_formats_are_installed_entry_points() -> None:
    found = {ep.name: ep for ep in entry_points(group="kubesched.scenarios")}
    assert found["openb"].load() is read_openb
    assert found["openb-arrivals"].load() is read_openb_arrivals


@pytest.mark.parametrize(("policy", "ties"), [("bestfit", "first"), ("fgd", "random")])
def test_openb_arrivals_replayed_by_the_engine_is_the_studys_run(
    tmp_path: Path, policy: str, ties: str
) -> None:
    write_openb_trace(tmp_path)
    pods_csv = tmp_path / "openb_pod_list_default.csv"
    scenario = read_openb_arrivals(pods_csv, {"seed": "7"})
    options = ReplayOptions(ties=ties, drop_unschedulable=True)
    document = replay(scenario, config(policy, pods_csv), 7, options).to_document()
    json.dumps(document)  # a JSON document, observers' summary included
    nodes = read_nodes(tmp_path / "openb_node_list_gpu_node.csv")
    pods = read_pods(pods_csv)
    order = inflate(arrivals(pods, 7), pods, 19_000, 1.3, 7)
    workload = target_workload([p.spec() for p in pods])
    expected = openb_replay(nodes, order, policy, workload, 7, ties)
    gpu = document["observers"]["openbGpu"]
    assert (gpu["scheduled"], gpu["failed"]) == (expected.scheduled, expected.failed)
    assert gpu["allocatedMilli"] == expected.allocated[-1]
    assert gpu["arrivedMilli"] == expected.arrived[-1]
    assert document["summary"]["dropped"] == expected.failed


def test_until_stops_the_arrivals(tmp_path: Path) -> None:
    write_openb_trace(tmp_path)
    pods_csv = tmp_path / "openb_pod_list_default.csv"
    whole = list(read_openb_arrivals(pods_csv, {"seed": "7"}).iter_events())
    short = list(read_openb_arrivals(pods_csv, {"seed": "7", "until": "60"}).iter_events())
    assert 0 < len(short) < len(whole)
    assert short == whole[: len(short)]


def test_openb_creates_and_deletes_each_pod_at_its_times(tmp_path: Path) -> None:
    write_openb_trace(tmp_path)
    scenario = read_openb(tmp_path / "openb_pod_list_default.csv", {})
    events = list(scenario.iter_events())
    assert [e.at for e in events] == sorted(e.at for e in events)
    created = {e.pod.metadata.name: e.at for e in events if isinstance(e, PodCreated)}
    deleted = {e.pod.split("/")[1]: e.at for e in events if isinstance(e, PodDeleted)}
    assert len(created) == len(deleted) == 40
    assert created["openb-pod-0003"] == 30.0 and deleted["openb-pod-0003"] == 530.0
    assert len(scenario.cluster.nodes) == 6  # the CPU-only node is left out


def test_a_timed_replay_reports_gpu_allocation(tmp_path: Path) -> None:
    write_openb_trace(tmp_path)
    pods_csv = tmp_path / "openb_pod_list_default.csv"
    result = replay(read_openb(pods_csv, {}), config("bestfit", pods_csv), 1)
    gpu = result.to_document()["observers"]["openbGpu"]
    assert gpu["gpuCapacityMilli"] == 19_000
    assert 0 < gpu["gpuAllocatedPercentMean"] <= gpu["gpuAllocatedPercentPeak"] <= 100
    assert result.totals.counters.deleted > 0


def test_a_pod_deleted_when_it_is_created_is_created_first(tmp_path: Path) -> None:
    write_openb_trace(tmp_path)
    pods_csv = tmp_path / "openb_pod_list_same.csv"
    pods_csv.write_text(
        POD_HEADER
        + "a,1000,1024,0,0,,LS,Running,0,10,0\n"
        + "b,1000,1024,0,0,,LS,Running,10,10,10\n"
    )
    events = list(read_openb(pods_csv, {}).iter_events())
    assert [(type(e).__name__, e.at) for e in events] == [
        ("PodCreated", 0.0),
        ("PodDeleted", 10.0),  # a leaves first, then b comes and goes
        ("PodCreated", 10.0),
        ("PodDeleted", 10.0),
    ]


@pytest.mark.parametrize(
    ("reader", "option", "message"),
    [
        (read_openb, {"seed": "3"}, "format option 'seed' is not one of nodes"),
        (read_openb_arrivals, {"tune": "lots"}, "format option tune: not a number: 'lots'"),
        (read_openb_arrivals, {"tune": "0"}, "format option tune: must be > 0, got 0"),
        (read_openb_arrivals, {"seed": "x"}, "format option seed: not an integer: 'x'"),
        (read_openb_arrivals, {"nodes": "missing.csv"}, "missing.csv: No such file or directory"),
    ],
)
def test_a_bad_option_is_one_line_naming_the_file(
    tmp_path: Path, reader: Any, option: dict[str, str], message: str
) -> None:
    write_openb_trace(tmp_path)
    with pytest.raises(ScenarioError) as error:
        reader(tmp_path / "openb_pod_list_default.csv", option)
    assert message in str(error.value) and "\n" not in str(error.value)


def test_a_pod_list_without_times_cannot_be_replayed_as_time(tmp_path: Path) -> None:
    write_openb_trace(tmp_path)
    pods_csv = tmp_path / "openb_pod_list_multi.csv"
    pods_csv.write_text("name,cpu_milli,memory_mib,num_gpu,gpu_milli\np,1000,1024,2,1000\n")
    with pytest.raises(ScenarioError, match=r"missing column\(s\) creation_time, deletion_time"):
        read_openb(pods_csv, {})
    assert read_openb_arrivals(pods_csv, {}).name.startswith("openb-arrivals/")


def test_a_deletion_before_its_creation_names_the_row(tmp_path: Path) -> None:
    write_openb_trace(tmp_path)
    pods_csv = tmp_path / "openb_pod_list_bad.csv"
    pods_csv.write_text(POD_HEADER + "p,1000,1024,0,0,,LS,Running,50,40,50\n")
    with pytest.raises(ScenarioError, match=r"bad\.csv:2: column deletion_time: 40 is before"):
        read_openb(pods_csv, {})


def run_cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            code = kubesched(list(argv))
        except SystemExit as stop:
            code = stop.code
    return int(code or 0), out.getvalue(), err.getvalue()


def test_kubesched_replay_reads_openb_arrivals_by_name(tmp_path: Path) -> None:
    write_openb_trace(tmp_path)
    pods_csv = tmp_path / "openb_pod_list_default.csv"
    config_file = tmp_path / "config.json"
    config_file.write_text(json.dumps(config("bestfit", pods_csv)))
    code, out, err = run_cli(
        "replay", str(pods_csv), "--format", "openb-arrivals", "--format-option", "seed=7",
        "--drop-unschedulable", "--ties", "first", "--seed", "7",
        "--config", str(config_file), "-o", "json",
    )  # fmt: skip
    assert code == 0, err
    nodes = read_nodes(tmp_path / "openb_node_list_gpu_node.csv")
    pods = read_pods(pods_csv)
    order = inflate(arrivals(pods, 7), pods, 19_000, 1.3, 7)
    workload = target_workload([p.spec() for p in pods])
    expected = openb_replay(nodes, order, "bestfit", workload, 7, "first")
    gpu = json.loads(out)["observers"]["openbGpu"]
    assert (gpu["scheduled"], gpu["allocatedMilli"]) == (expected.scheduled, expected.allocated[-1])


def test_kubesched_replay_names_a_bad_format_option_in_one_line(tmp_path: Path) -> None:
    write_openb_trace(tmp_path)
    pods_csv = str(tmp_path / "openb_pod_list_default.csv")
    code, out, err = run_cli("replay", pods_csv, "--format", "openb", "--format-option", "x=1")
    assert (code, out) == (2, "")
    assert "format option 'x' is not one of nodes" in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("reader", [read_openb, read_openb_arrivals])
def test_both_formats_publish_the_pod_lists_target_workload(tmp_path: Path, reader: Any) -> None:
    write_openb_trace(tmp_path, seed=3)
    pods_csv = tmp_path / "openb_pod_list_default.csv"
    scenario = reader(pods_csv, {})
    expected = target_workload([p.spec() for p in read_pods(pods_csv)])
    assert published_workload(scenario.cluster.namespaces) == expected


def test_fgd_without_typical_pods_replays_as_with_the_trace_s_own(tmp_path: Path) -> None:
    write_openb_trace(tmp_path, seed=5)
    pods_csv = tmp_path / "openb_pod_list_default.csv"
    options = ReplayOptions(ties="random", drop_unschedulable=True)
    explicit = config("fgd", pods_csv)
    bare = {**KIND, **policy_config("fgd", [])}
    runs = [
        replay(read_openb_arrivals(pods_csv, {"seed": "5"}), cfg, 5, options).to_document()
        for cfg in (explicit, bare)
    ]
    assert runs[0]["observers"] == runs[1]["observers"]
    assert runs[0]["observers"]["openbGpu"]["scheduled"] > 0


def test_the_arrivals_summary_carries_the_figures_values(tmp_path: Path) -> None:
    write_openb_trace(tmp_path, seed=2)
    pods_csv = tmp_path / "openb_pod_list_default.csv"
    options = ReplayOptions(ties="first", drop_unschedulable=True)
    run = replay(
        read_openb_arrivals(pods_csv, {"seed": "2"}), config("bestfit", pods_csv), 2, options
    )
    gpu = run.to_document()["observers"]["openbGpu"]
    nodes = read_nodes(tmp_path / "openb_node_list_gpu_node.csv")
    pods = read_pods(pods_csv)
    order = inflate(arrivals(pods, 2), pods, 19_000, 1.3, 2)
    workload = target_workload([p.spec() for p in pods])
    expected = openb_replay(nodes, order, "bestfit", workload, 2, "first")
    for name, curve in (
        ("unallocatedGpuPercent", unallocated(expected, 100)),
        ("fragAmountPercent", frag_amount(expected, 100)),
        ("fragRatioPercent", frag_ratio(expected, 100)),
    ):
        for b in FIGURE_BINS:
            value = curve[b]
            assert gpu[f"{name}At{b}"] == (round(value, 4) if value is not None else "none")
    dropped = {r.pod.rsplit("/", 1)[-1] for r in run.pods if r.state == "Dropped"}
    failures = [
        pod_type(p.request)
        for i, p in enumerate(order[: len(expected.arrived)])
        if f"{p.name}-{i}" in dropped
        and arrived_bin(expected.arrived[i], expected.capacity_milli) <= 100
    ]
    assert failures, "the small trace overfills its cluster"
    assert {k: gpu[f"failedPods.{k}"] for k in POD_TYPES} == {
        k: failures.count(k) for k in POD_TYPES
    }
