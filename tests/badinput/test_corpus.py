"""The corpus of run_corpus.py as tests: objects an API server refuses, inputs that used to
crash, hang or leak, misbehaving plugins, signals; plus QueueSort and Permit misbehaving."""

from __future__ import annotations

import math
import signal
import sys
import time
from pathlib import Path

import pytest

from kubesched import hookimpl
from kubesched.api import Pod
from kubesched.errors import PluginCrash
from kubesched.framework import Code, Status
from kubesched.testing import make_node, make_pod, simulate

sys.path.insert(0, str(Path(__file__).parent))

from corpus import CASES, manifest
from hazards import (
    HAZARDS,
    PLUGIN_FAULTS,
    PLUGIN_HOOKS,
    Hazard,
    check_full_stdout,
    check_hazard,
    check_plugin_fault,
    check_signal,
    run_cli,
)

pytestmark = pytest.mark.usefixtures("_fresh_cwd")


@pytest.fixture
def _fresh_cwd(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


def test_the_corpus_grew_by_at_least_a_hundred_inputs() -> None:
    assert len(CASES) + len(HAZARDS) >= 100
    assert len({c[0] for c in CASES} | {h.id for h in HAZARDS}) == len(CASES) + len(HAZARDS)


@pytest.mark.parametrize(("objects", "says"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_an_object_an_api_server_refuses_is_one_line_and_exit_2(
    tmp_path: Path, objects: list[dict[str, object]], says: str
) -> None:
    path = tmp_path / "cluster.yaml"
    path.write_text(manifest(objects))
    code, out, err = run_cli(["simulate", str(path), "-o", "json"])
    assert (code, out) == (2, "")
    assert err.splitlines() == [f"error: {path}: {says}"]


@pytest.mark.parametrize("hazard", HAZARDS, ids=[h.id for h in HAZARDS])
def test_an_input_that_crashed_or_hung_is_one_line(tmp_path: Path, hazard: Hazard) -> None:
    started = time.monotonic()
    assert check_hazard(hazard, tmp_path) is None
    assert time.monotonic() - started < 30


@pytest.mark.parametrize("fault", PLUGIN_FAULTS)
@pytest.mark.parametrize("hook", PLUGIN_HOOKS)
def test_a_misbehaving_plugin_does_not_end_the_cli_run(
    tmp_path: Path, hook: str, fault: str
) -> None:
    assert check_plugin_fault(hook, fault, tmp_path) is None


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="waits on /proc")
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_signal_ends_the_run_with_one_line_and_no_output_file(
    tmp_path: Path, signum: int
) -> None:
    assert check_signal(signum, tmp_path) is None


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_output_to_a_full_disk_is_one_line(tmp_path: Path) -> None:
    assert check_full_stdout(tmp_path) is None


def _queue_sort(behaviour: str) -> type:
    class Sorter:
        name = "Sorter"

        def __init__(self, args: object, handle: object) -> None:
            pass

        @hookimpl
        def queue_sort_less(self, pod_info_a: object, pod_info_b: object) -> bool:
            if behaviour == "raise":
                raise RuntimeError("boom")
            sys.exit(3)

    return Sorter


@pytest.mark.parametrize(
    ("behaviour", "says"), [("raise", "RuntimeError: boom"), ("exit", "SystemExit: 3")]
)
def test_a_queue_sort_that_fails_is_a_plugin_error_naming_it(behaviour: str, says: str) -> None:
    cfg = {"profiles": [{"plugins": {"queueSort": {
        "enabled": [{"name": "Sorter"}], "disabled": [{"name": "*"}]}}}]}  # fmt: skip
    pods = [make_pod(f"p{i}").obj() for i in range(3)]
    with pytest.raises(PluginCrash) as info:
        simulate([make_node("n").obj()], pods, cfg, plugins={"Sorter": _queue_sort(behaviour)})
    assert str(info.value) == (
        f'QueueSort plugin "Sorter" of profile "default-scheduler" failed: {says}'
    )


def test_a_permit_wait_of_nan_seconds_is_an_error_not_a_hang() -> None:
    class Waiter:
        name = "Waiter"

        def __init__(self, args: object, handle: object) -> None:
            pass

        @hookimpl
        def permit(self, pod: Pod) -> tuple[Status, float]:
            return Status(Code.WAIT, "later"), math.nan

    cfg = {"profiles": [{"plugins": {"permit": {"enabled": [{"name": "Waiter"}]}}}]}
    started = time.monotonic()
    run = simulate([make_node("n").obj()], [make_pod("p").obj()], cfg, plugins={"Waiter": Waiter})
    assert time.monotonic() - started < 20
    outcome = run.outcome("default/p")
    assert outcome.status == "Error"
    assert 'plugin "Waiter" returned a wait of NaN seconds from permit' in outcome.message


def test_a_plugin_constructor_that_never_returns_fails_the_profile(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    class Stuck:
        name = "Stuck"

        def __init__(self, args: object, handle: object) -> None:
            time.sleep(120)

        @hookimpl
        def filter(self, pod: Pod) -> None:
            return None

    monkeypatch.setattr("kubesched.framework._runtime.PLUGIN_INIT_TIMEOUT", 0.5)
    cfg = {"profiles": [{"plugins": {"filter": {"enabled": [{"name": "Stuck"}]}}}]}
    started = time.monotonic()
    with pytest.raises(PluginCrash) as info:
        simulate([make_node("n").obj()], [make_pod("p").obj()], cfg, plugins={"Stuck": Stuck})
    assert time.monotonic() - started < 20
    assert str(info.value).startswith('initializing plugin "Stuck"')
    assert str(info.value).endswith("PluginTimeout: did not return within 0.5s")


def test_a_queue_sort_that_hangs_is_cut_short_by_the_cycle_timeout() -> None:
    class Sleeper:
        name = "Sleeper"

        def __init__(self, args: object, handle: object) -> None:
            pass

        @hookimpl
        def queue_sort_less(self, pod_info_a: object, pod_info_b: object) -> bool:
            time.sleep(120)
            return True

    cfg = {"profiles": [{"plugins": {"queueSort": {
        "enabled": [{"name": "Sleeper"}], "disabled": [{"name": "*"}]}}}]}  # fmt: skip
    pods = [make_pod(f"p{i}").obj() for i in range(3)]
    started = time.monotonic()
    with pytest.raises(PluginCrash) as info:
        simulate([make_node("n").obj()], pods, cfg, plugins={"Sleeper": Sleeper}, cycle_timeout=0.3)
    assert time.monotonic() - started < 20
    assert str(info.value).startswith(
        'QueueSort plugin "Sleeper" of profile "default-scheduler" failed: CycleTimeout'
    )
