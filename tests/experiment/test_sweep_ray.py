"""`sweep --ray` on a real Ray cluster started here, on 127.0.0.1 only: the same table as local
processes, and a worker killed mid-sweep costs its cell a retry, not a lost or duplicated row.

Marked `ray`: the cluster takes 15-30 s to start, the tests about a minute in all
(`uv run pytest -m ray`)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from sweep_testlib import EXAMPLES, without_timing, write_grid

from kubesched.cli.main import main
from kubesched.experiment._grid import load_grid
from kubesched.experiment._ray import RayRunner
from kubesched.experiment._runners import LocalRunner
from kubesched.experiment._sweep import Sweep

ray = pytest.importorskip("ray")

pytestmark = [pytest.mark.ray, pytest.mark.xdist_group("ray")]


@pytest.fixture(scope="module")
def ray_cluster() -> Iterator[None]:
    """A two-CPU Ray cluster on this machine: no dashboard, nothing listening beyond loopback."""
    os.environ["RAY_ENABLE_UV_RUN_RUNTIME_ENV"] = "0"  # workers use this interpreter as it is
    for attempt in range(3):
        try:
            ray.init(
                address="local",
                num_cpus=2,
                include_dashboard=False,
                log_to_driver=False,
                _node_ip_address="127.0.0.1",
            )
            break
        except Exception as exc:  # Ray gives its raylet 30 s to start, fixed in its code
            ray.shutdown()
            if attempt == 2 or "timed out during startup" not in str(exc):
                raise
    try:
        yield
    finally:
        ray.shutdown()


def test_ray_and_local_processes_give_the_same_table(
    ray_cluster: None, example_grid: Path, tmp_path: Path
) -> None:
    grid = load_grid(example_grid)
    local = Sweep(grid, tmp_path / "local").run(LocalRunner(1))
    remote = Sweep(grid, tmp_path / "ray").run(RayRunner())
    assert len(remote) == 12
    assert {row["runner"] for row in remote} == {"ray"}
    assert without_timing(remote) == without_timing(local)


def _cluster(path: Path, nodes: int, pods: int) -> Path:
    """Enough pods that a cell runs for a few seconds."""
    text = "".join(
        f"---\napiVersion: v1\nkind: Node\nmetadata: {{name: n{i:03d}}}\n"
        f'status: {{allocatable: {{cpu: "8", memory: 32Gi, pods: "110"}}}}\n'
        for i in range(nodes)
    ) + "".join(
        f"---\napiVersion: v1\nkind: Pod\nmetadata: {{name: p{i:04d}, namespace: default}}\n"
        f"spec: {{containers: [{{name: c, resources: {{requests: "
        f'{{cpu: "{100 + (i * 37) % 900}m", memory: 1Gi}}}}}}]}}\n'
        for i in range(pods)
    )
    path.write_text(text)
    return path


def _running_cell_pids() -> list[int]:
    """Ray workers executing a cell now (Ray names the process after its task)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                command = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if command.startswith(b"ray::run_cell"):
                found.append(int(entry.name))
    return found


def test_a_worker_killed_mid_sweep_costs_a_retry_not_a_row(
    ray_cluster: None, tmp_path: Path
) -> None:
    # Cells long enough (a second or more each) to be caught running on an idle machine too.
    cluster = _cluster(tmp_path / "cluster.yaml", nodes=60, pods=1500)
    grid = load_grid(write_grid(tmp_path, f"- cluster: {cluster}\n", seeds="1-3"))
    killed: list[int] = []

    def kill_one() -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not killed:
            pids = _running_cell_pids()
            if pids:
                time.sleep(0.3)  # inside the run, not at its start
                if pids[0] in _running_cell_pids():
                    os.kill(pids[0], signal.SIGKILL)
                    killed.append(pids[0])
            time.sleep(0.02)

    killer = threading.Thread(target=kill_one)
    killer.start()
    rows = Sweep(grid, tmp_path / "ray").run(RayRunner())
    killer.join()
    assert killed, "no worker was seen running a cell"
    journal = [json.loads(line) for line in (tmp_path / "ray/cells.jsonl").read_text().splitlines()]
    keys = [(r["config_hash"], r["input_hash"], r["seed"]) for r in journal]
    assert len(keys) == len(set(keys)) == 6
    assert {row["status"] for row in rows} == {"ok"}
    local = Sweep(grid, tmp_path / "local").run(LocalRunner(1))
    assert without_timing(rows) == without_timing(local)


def test_the_command_line_runs_a_grid_on_the_ray_cluster_it_is_given(
    ray_cluster: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    grid = write_grid(tmp_path, f"- cluster: {EXAMPLES / 'quickstart'}\n", seeds="[5]")
    out = tmp_path / "out"
    try:
        main(["sweep", str(grid), "--ray", "auto", "--out", str(out)])
    except SystemExit as exc:
        assert not exc.code
    # Ray's driver may print its own lines (a worker an earlier test killed) before ours.
    printed = capsys.readouterr().out.splitlines()
    assert printed[-1] == f"2 cells (0 failed) in {out}/table.csv and {out}/table.parquet"
    rows = [json.loads(line) for line in (out / "cells.jsonl").read_text().splitlines()]
    assert [(r["config"], r["runner"], r["status"]) for r in rows] in (
        [("spread", "ray", "ok"), ("pack", "ray", "ok")],
        [("pack", "ray", "ok"), ("spread", "ray", "ok")],
    )


def test_the_command_s_stdout_is_only_its_summary_whatever_ray_prints(
    ray_cluster: None, tmp_path: Path
) -> None:
    """A separate `kubesched sweep --ray ADDRESS` process joins the test's cluster; Ray's
    driver in it prints its own lines, which go to stderr: stdout is the summary alone."""
    grid = write_grid(tmp_path, f"- cluster: {EXAMPLES / 'quickstart'}\n", seeds="[5]")
    out = tmp_path / "out"
    address = ray.get_runtime_context().gcs_address
    env = {**os.environ, "RAY_ENABLE_UV_RUN_RUNTIME_ENV": "0"}
    command = Path(sys.executable).parent / "kubesched"
    done = subprocess.run(
        [str(command), "sweep", str(grid), "--ray", address, "--out", str(out)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"2 cells (0 failed) in {out}/table.csv and {out}/table.parquet\n"
