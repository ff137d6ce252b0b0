"""Plugins that raise, exit, hang, return garbage or fail transiently, at every extension point:
nothing is lost, nothing is misreported, failed pods are retried like upstream."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kubesched import hookimpl
from kubesched.api import Pod
from kubesched.framework import Handle, PostFilterResult
from kubesched.testing import make_node, make_pod, simulate
from kubesched_faultinjection import FAULTS, HOOKS, FaultInjection
from kubesched_faultinjection.invariants import violations

CONFIG = {
    "profiles": [
        {
            "schedulerName": "default-scheduler",
            "plugins": {
                "multiPoint": {"enabled": [{"name": "FaultInjection"}]},
                "bind": {"enabled": [{"name": "FaultInjection"}]},  # before DefaultBinder
            },
        }
    ]
}


def faulty(name: str, annotations: dict[str, str] | None = None, cpu: str = "100m") -> Pod:
    builder = make_pod(name).namespace("default").req(cpu=cpu, memory="64Mi")
    for key, value in (annotations or {}).items():
        builder = builder.annotation(f"faults.kubesched.io/{key}", value)
    return builder.obj()


def nodes(count: int, cpu: str = "4") -> list:  # type: ignore[type-arg]
    return [make_node(f"n{i}").capacity(cpu=cpu, memory="8Gi", pods=20).obj() for i in range(count)]


def config(**args: object) -> dict[str, object]:
    if not args:
        return CONFIG
    return {**CONFIG, "profiles": [{**CONFIG["profiles"][0], "pluginConfig": [
        {"name": "FaultInjection", "args": args}
    ]}]}  # fmt: skip


def plugin_of(run: object) -> FaultInjection:
    fw = run.scheduler.frameworks["default-scheduler"]  # type: ignore[attr-defined]
    plugin: FaultInjection = fw.plugins["FaultInjection"]
    return plugin


@pytest.mark.parametrize("hook", sorted(set(HOOKS) - {"post_filter", "unreserve", "post_bind"}))
@pytest.mark.parametrize("fault", ["raise", "exit", "garbage", "error"])
def test_a_fault_at_any_point_fails_only_that_pod_and_names_the_plugin(
    hook: str, fault: str
) -> None:
    pods = [faulty("bad", {hook: fault}), faulty("good")]
    run = simulate(nodes(2), pods, config())
    assert violations(run.simulation, run.result, pods, plugin_of(run)) == []
    good, bad = run.outcome("default/good"), run.outcome("default/bad")
    assert good.status == "Scheduled"
    assert bad.status == "Error", bad
    assert '"FaultInjection"' in bad.message
    assert bad.stopped == "tried 20 times (--max-attempts)", "an error is retried on backoff"


@pytest.mark.parametrize("fault", ["raise", "exit", "garbage", "error"])
def test_a_failing_post_filter_leaves_the_pod_unschedulable_saying_why(fault: str) -> None:
    """Upstream's RunPostFilterPlugins: a PostFilter error ends PostFilter with that error as
    its message (DefaultPreemption's "preemption: ..." before it is dropped), which the fit
    error's message carries; the pod stays Unschedulable."""
    pods = [faulty("big", {"post_filter": fault}, cpu="8"), faulty("good")]
    run = simulate(nodes(2), pods, config())
    assert violations(run.simulation, run.result, pods, plugin_of(run)) == []
    big = run.outcome("default/big")
    assert big.status == "Unschedulable"
    assert big.message.startswith("0/2 nodes are available: 2 Insufficient cpu. ")
    assert "preemption:" not in big.message
    if fault == "error":  # the plugin's own Error status is its message, as upstream
        assert big.message.endswith(". injected error at post_filter")
    else:
        assert '"FaultInjection"' in big.message


@pytest.mark.parametrize("hook", ["unreserve", "post_bind"])
@pytest.mark.parametrize("fault", ["raise", "exit", "garbage", "error"])
def test_informational_points_cannot_fail_a_pod(hook: str, fault: str) -> None:
    pods = [faulty("p", {hook: fault}), faulty("q", {"permit": "reject", hook: fault})]
    run = simulate(nodes(1), pods, config())
    assert violations(run.simulation, run.result, pods, plugin_of(run)) == []
    assert run.outcome("default/p").status == "Scheduled"
    assert run.outcome("default/q").status == "Unschedulable"


@pytest.mark.parametrize("hook", ["pre_filter", "filter", "reserve", "permit", "pre_bind", "bind"])
def test_a_transient_fault_is_retried_on_backoff_and_the_pod_binds(hook: str) -> None:
    pods = [faulty("flaky", {hook: "transient:2"})]
    run = simulate(nodes(1), pods, config())
    assert violations(run.simulation, run.result, pods, plugin_of(run)) == []
    outcome = run.outcome("default/flaky")
    assert (outcome.status, outcome.node, outcome.attempts) == ("Scheduled", "n0", 3)
    assert run.result.simulated_seconds >= 1 + 2, "two backoffs waited out"


@pytest.mark.parametrize("hook", ["post_filter", "unreserve", "post_bind"])
def test_a_hang_at_a_point_outside_the_main_path_is_cut_short_too(hook: str) -> None:
    """The cycle timeout covers every point: PostFilter, Unreserve and PostBind included."""
    cpu = "8" if hook == "post_filter" else "100m"
    extra = {"permit": "reject"} if hook == "unreserve" else {}
    pods = [faulty("stuck", {hook: "hang", **extra}, cpu=cpu), faulty("fine")]
    started = time.monotonic()
    run = simulate(nodes(1), pods, config(), cycle_timeout=0.2)
    assert time.monotonic() - started < 10
    assert violations(run.simulation, run.result, pods, plugin_of(run)) == []
    assert run.outcome("default/fine").status == "Scheduled"
    stuck = run.outcome("default/stuck")
    if hook == "post_filter":
        assert stuck.status == "Unschedulable" and "raised CycleTimeout" in stuck.message
        assert stuck.stopped == "its cycle ran past --cycle-timeout"


def test_a_plugin_cannot_swallow_the_timeout_with_a_broad_except() -> None:
    class Swallower:
        name = "Swallower"

        def __init__(self, args: object, handle: object) -> None:
            pass

        @hookimpl
        def filter(self, pod: Pod) -> None:
            try:
                while pod.metadata.name == "stuck":
                    time.sleep(0.01)
            except Exception:
                return None
            return None

    cfg = {"profiles": [{"plugins": {"filter": {"enabled": [{"name": "Swallower"}]}}}]}
    pods = [faulty("stuck"), faulty("fine")]
    run = simulate(nodes(1), pods, cfg, plugins={"Swallower": Swallower}, cycle_timeout=0.2)
    assert run.outcome("default/fine").status == "Scheduled"
    stuck = run.outcome("default/stuck")
    assert stuck.status == "Error" and "raised CycleTimeout in filter" in stuck.message


def test_a_hung_plugin_fails_that_pod_once_and_the_rest_go_on() -> None:
    pods = [faulty(f"stuck-{h}", {h: "hang"}) for h in ("filter", "permit", "pre_bind")]
    run = simulate(nodes(1), [*pods, faulty("fine")], config(), cycle_timeout=0.2)
    assert violations(run.simulation, run.result, pods, plugin_of(run)) == []
    assert run.outcome("default/fine").status == "Scheduled"
    stuck = [o for o in run.result.outcomes if o.pod != "default/fine"]
    assert [(o.status, o.attempts, o.stopped) for o in stuck] == [
        ("Error", 1, "its cycle ran past --cycle-timeout")
    ] * 3
    assert all("raised CycleTimeout" in o.message for o in stuck)


@pytest.mark.parametrize("fault", ["raise", "exit", "garbage", "error", "hang"])
def test_a_failing_pre_enqueue_keeps_the_pod_out_of_the_queue_saying_why(fault: str) -> None:
    pods = [faulty("gated", {"pre_enqueue": fault}), faulty("fine")]
    run = simulate(nodes(1), pods, config(), cycle_timeout=0.2)
    assert violations(run.simulation, run.result, pods, plugin_of(run)) == []
    assert run.outcome("default/fine").status == "Scheduled"
    gated = run.outcome("default/gated")
    assert (gated.status, gated.attempts) == ("Gated", 0)  # held out, as upstream's queue
    assert 'PreEnqueue plugin "FaultInjection"' in gated.message


def test_a_fault_storm_keeps_every_invariant() -> None:
    """About 10% of the pods suffer one fault each, reproducibly; every invariant holds."""
    pods = [faulty(f"p{i}", cpu="500m") for i in range(600)]
    args = {"rate": 0.1, "seed": 7, "faults": [f for f in FAULTS if f != "hang"]}
    run = simulate(nodes(40), pods, config(**args), max_pod_attempts=5)
    assert violations(run.simulation, run.result, pods, plugin_of(run)) == []
    statuses = {o.status for o in run.result.outcomes}
    assert {"Scheduled", "Error"} <= statuses


def test_a_plugin_calling_sys_exit_does_not_end_the_cli_run(tmp_path: Path) -> None:
    manifest = tmp_path / "cluster.yaml"
    documents = [
        "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n"
        "status: {allocatable: {cpu: '4', memory: 8Gi, pods: '110'}}\n",
        *(
            f"apiVersion: v1\nkind: Pod\nmetadata:\n  name: {name}\n  namespace: default\n"
            f"  annotations: {{faults.kubesched.io/filter: {fault}}}\n"
            "spec: {containers: [{name: c}]}\n"
            for name, fault in (("exits", "exit"), ("fine", "none"))
        ),
    ]
    manifest.write_text("---\n".join(documents))
    cfg = tmp_path / "config.json"
    cfg.write_text(json.dumps({"apiVersion": "kubescheduler.config.k8s.io/v1",
                               "kind": "KubeSchedulerConfiguration", **CONFIG}))  # fmt: skip
    done = subprocess.run(
        [sys.executable, "-c", "from kubesched.cli.main import main; main()", "simulate",
         str(manifest), "--config", str(cfg), "-o", "json", "--max-attempts", "2"],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    results = {r["pod"]: r for r in json.loads(done.stdout)["results"]}
    assert results["default/fine"]["status"] == "Scheduled"
    exits = results["default/exits"]
    assert exits["status"] == "Error"
    assert exits["message"] == 'plugin "FaultInjection" raised SystemExit in filter: 3'
    assert exits["stoppedTrying"] == "tried 2 times (--max-attempts)"


def test_a_bind_that_claims_success_without_binding_is_an_error_naming_it() -> None:
    class Liar:
        """Says it bound every pod; binds none."""

        name = "Liar"

        def __init__(self, args: object, handle: object) -> None:
            pass

        @hookimpl
        def bind(self, pod: Pod, node_name: str) -> None:
            return None

    binders = {"enabled": [{"name": "Liar"}], "disabled": [{"name": "DefaultBinder"}]}
    cfg = {"profiles": [{"plugins": {"bind": binders}}]}
    pods = [faulty("p")]
    run = simulate(nodes(1), pods, cfg, plugins={"Liar": Liar}, max_pod_attempts=2)
    assert violations(run.simulation, run.result, pods) == []
    outcome = run.outcome("default/p")
    assert (outcome.status, outcome.node) == ("Error", None)
    assert outcome.message == (
        'plugin "Liar" reported pod default/p bound to node "n0", but the cluster has it on no node'
    )
    assert [p.spec.node_name for p in run.cluster.pods()] == [""]


def test_victims_a_post_filter_names_but_never_deleted_are_not_reported() -> None:
    class Boaster:
        """Claims to have evicted a running pod; deletes nothing."""

        name = "Boaster"

        def __init__(self, args: object, handle: object) -> None:
            pass

        @hookimpl
        def post_filter(self, pod: Pod) -> PostFilterResult:
            return PostFilterResult("n0", victims=("default/running",))

    running = make_pod("running").namespace("default").node("n0").req(cpu="4").obj()
    pending = [faulty("big", cpu="2")]
    cfg = {"profiles": [{"plugins": {"postFilter": {"enabled": [{"name": "Boaster"}]}}}]}
    run = simulate(nodes(1), [running, *pending], cfg, plugins={"Boaster": Boaster})
    assert violations(run.simulation, run.result, pending) == []
    big = run.outcome("default/big")
    assert (big.status, big.victims, big.nominated_node) == ("Unschedulable", [], "n0")


def test_victims_off_the_nominated_node_are_checked_too() -> None:
    class Evictor:
        """Nominates n0 but evicts one of two pods on n1 (claiming both)."""

        name = "Evictor"

        def __init__(self, args: object, handle: Handle) -> None:
            self.handle = handle

        @hookimpl
        def post_filter(self, pod: Pod) -> PostFilterResult:
            client = self.handle.client
            client.delete_pod(next(p for p in client.pods() if p.metadata.name == "gone"))
            return PostFilterResult("n0", victims=("default/gone", "default/stays"))

    on_n1 = [
        make_pod(n).namespace("default").node("n1").req(cpu="1").obj() for n in ("gone", "stays")
    ]
    filler = make_pod("filler").namespace("default").node("n0").req(cpu="4").obj()
    pending = [faulty("big", cpu="4")]
    cfg = {"profiles": [{"plugins": {"postFilter": {"enabled": [{"name": "Evictor"}]}}}]}
    run = simulate(nodes(2), [filler, *on_n1, *pending], cfg, plugins={"Evictor": Evictor})
    big = run.outcome("default/big")
    assert (big.victims, big.nominated_node) == (["default/gone"], "n0")
