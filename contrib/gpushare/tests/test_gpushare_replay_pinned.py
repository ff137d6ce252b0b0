"""The replay's whole series pinned, per policy and tie rule, so that a change of how the
replay drives the scheduler (its loop, the engine under it) must give the same runs.

Each digest is (failed pods, allocated milli at the end, sha256 of the series of arrived and
allocated milli, fragmentation and the final per-GPU use), recorded from the replay before
it moved onto kubesched's scenario engine.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from kubesched_gpushare.frag import target_workload
from kubesched_gpushare.replay import ReplayResult, arrivals, inflate, read_nodes, read_pods, replay
from kubesched_gpushare.testing import openb_trace_dir, write_openb_trace

TRACE = openb_trace_dir(Path(__file__))


def digest(result: ReplayResult) -> tuple[int, int, str]:
    series = (result.arrived, result.allocated, result.frag, sorted(result.gpus.items()))
    return (
        result.failed,
        result.allocated[-1],
        hashlib.sha256(repr(series).encode()).hexdigest()[:16],
    )


SYNTHETIC = {
    ("first", "random"): (21, 18630, "03f9d80152517bc4"),
    ("first", "dotprod"): (23, 17920, "57e61e3a71dc2b25"),
    ("first", "clustering"): (22, 18380, "d01166c060610c8d"),
    ("first", "packing"): (17, 18050, "4ff4b910b73b7183"),
    ("first", "bestfit"): (23, 17920, "57e61e3a71dc2b25"),
    ("first", "fgd"): (22, 18920, "d08c2270ebfaa794"),
    ("first", "fgd+bestfit"): (20, 18630, "b33fce0e4b722b9e"),
    ("random", "random"): (21, 18630, "03f9d80152517bc4"),
    ("random", "dotprod"): (23, 17920, "57e61e3a71dc2b25"),
    ("random", "clustering"): (23, 17920, "57e61e3a71dc2b25"),
    ("random", "packing"): (17, 18050, "cd34bc74db831a6a"),
    ("random", "bestfit"): (23, 17920, "57e61e3a71dc2b25"),
    ("random", "fgd"): (20, 18630, "0a09a334ecd144d8"),
    ("random", "fgd+bestfit"): (20, 18630, "b33fce0e4b722b9e"),
}


@pytest.mark.parametrize(("ties", "policy"), list(SYNTHETIC))
def test_a_synthetic_run_is_the_pinned_one(tmp_path: Path, ties: str, policy: str) -> None:
    write_openb_trace(tmp_path)
    nodes = read_nodes(tmp_path / "openb_node_list_gpu_node.csv")
    pods = read_pods(tmp_path / "openb_pod_list_default.csv")
    order = inflate(arrivals(pods, 5), pods, 19_000, 1.3, 5)
    workload = target_workload([p.spec() for p in pods])
    assert digest(replay(nodes, order, policy, workload, 5, ties)) == SYNTHETIC[ties, policy]


REAL_400 = {
    ("first", "fgd"): (0, 299270, "d2a40c8d1997da02"),
    ("first", "bestfit"): (0, 299270, "21219bdd67a239f5"),
    ("random", "fgd"): (0, 299270, "cc29e1dd713c8246"),
    ("random", "bestfit"): (0, 299270, "bf498dc625509da6"),
}


@pytest.mark.skipif(TRACE is None, reason="the OpenB trace is not on this machine")
@pytest.mark.parametrize(("ties", "policy"), list(REAL_400))
def test_the_first_400_pods_of_the_real_trace_are_the_pinned_run(ties: str, policy: str) -> None:
    """A shortened real trace: the 1213 nodes, the first 400 pods of seed 42's order."""
    assert TRACE is not None
    nodes = read_nodes(TRACE / "openb_node_list_gpu_node.csv")
    pods = read_pods(TRACE / "openb_pod_list_default.csv")
    workload = target_workload([p.spec() for p in pods])
    result = replay(nodes, arrivals(pods, 42)[:400], policy, workload, 42, ties)
    assert digest(result) == REAL_400[ties, policy]
