"""kubesched.testing's harness: one plugin through the real Framework, whole simulations."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from attrs import frozen
from numpy.typing import NDArray

from kubesched import hookimpl
from kubesched.api import Node, ObjectMeta, Pod, PriorityClass
from kubesched.config import default_config
from kubesched.errors import ConfigError, PluginError
from kubesched.framework import (
    MAX_NODE_SCORE,
    Code,
    CycleState,
    NodeInfo,
    NodeScoreList,
    NodeTable,
    PreFilterResult,
    Status,
)
from kubesched.framework._registry import default_registry
from kubesched.testing import (
    PluginHarness,
    SimulationLimitError,
    assert_batch_agrees,
    make_node,
    make_pod,
    run_filter,
    run_score,
    simulate,
)

ZONE = "topology.kubernetes.io/zone"
WRONG_ZONE = "node(s) were in another zone"


@frozen
class ZoneArgs:
    """Which zone a pod without a zone label goes to."""

    default_zone: str = "a"

    def validate(self, path: str) -> list[str]:
        if not self.default_zone:
            return [f"{path}.defaultZone: Required value: a zone is needed"]
        return []


@frozen
class WantedZone:
    zone: str

    def clone(self) -> WantedZone:
        return self


class Zone:
    """PreFilter reads the pod's zone (or the default) into the state; Filter and its batch
    form keep nodes of that zone; a pod asking for zone "none" is rejected at PreFilter."""

    name = "Zone"
    args_type = ZoneArgs

    def __init__(self, args: ZoneArgs | None, handle: object) -> None:
        self.args = args or ZoneArgs()

    @hookimpl
    def pre_filter(self, state: CycleState, pod: Pod) -> Status | None:
        zone = pod.metadata.labels.get(ZONE, self.args.default_zone)
        if zone == "none":
            return Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, "pod asks for no zone")
        state.write("Zone", WantedZone(zone))
        return None

    @hookimpl
    def filter(self, state: CycleState, node_info: NodeInfo) -> Status | None:
        wanted = state.read_as("Zone", WantedZone).zone
        if node_info.node is not None and node_info.node.metadata.labels.get(ZONE) == wanted:
            return None
        return Status(Code.UNSCHEDULABLE, WRONG_ZONE)

    @hookimpl
    def filter_batch(self, state: CycleState, table: NodeTable) -> NDArray[np.bool_]:
        wanted = state.read_as("Zone", WantedZone).zone
        zones = table.column("zone", lambda ni: ni.node.metadata.labels.get(ZONE))
        return np.asarray(zones == wanted, dtype=np.bool_)


class LeakyZone(Zone):
    """Zone with a batch Filter that also lets nodes without a zone label through."""

    name = "LeakyZone"

    @hookimpl
    def filter_batch(self, state: CycleState, table: NodeTable) -> NDArray[np.bool_]:
        wanted = state.read_as("Zone", WantedZone).zone
        zones = table.column("zone", lambda ni: ni.node.metadata.labels.get(ZONE))
        return np.asarray((zones == wanted) | (zones == None), dtype=np.bool_)  # noqa: E711


class Spread:
    """Score: pods already on the node (raw); NormalizeScore turns it into fewer-is-better.
    PreScore skips pods labelled `spread: "off"`; `score_batch` agrees unless `skewed`."""

    name = "Spread"

    def __init__(self, args: Any, handle: object) -> None:
        self.skewed = bool(args)

    @hookimpl
    def pre_score(self, pod: Pod) -> Status | None:
        if pod.metadata.labels.get("spread") == "off":
            return Status(Code.SKIP)
        return None

    @hookimpl
    def score(self, node_info: NodeInfo) -> int:
        return len(node_info.pods)

    @hookimpl
    def score_batch(self, table: NodeTable, rows: NDArray[np.intp]) -> NDArray[np.int64]:
        counts = table.pod_count()[rows]
        return counts + 1 if self.skewed else counts

    @hookimpl
    def normalize_score(self, scores: NodeScoreList) -> None:
        highest = int(scores.scores.max(initial=0))
        if highest:
            scores.scores[:] = MAX_NODE_SCORE - scores.scores * MAX_NODE_SCORE // highest
        else:
            scores.scores[:] = MAX_NODE_SCORE


class Broken:
    """Score raises."""

    name = "Broken"

    def __init__(self, args: Any, handle: object) -> None:
        pass

    @hookimpl
    def score(self) -> int:
        raise RuntimeError("out of order")


class Gate:
    """Reserve records; Permit makes pods Wait 30 s, or rejects pods labelled `deny`, and
    activates pods labelled `buddy`."""

    name = "Gate"

    def __init__(self, args: Any, handle: Any) -> None:
        self.handle = handle
        self.reserved: list[tuple[str, str]] = []

    @hookimpl
    def reserve(self, pod: Pod, node_name: str) -> None:
        self.reserved.append((pod.metadata.name, node_name))

    @hookimpl
    def unreserve(self, pod: Pod, node_name: str) -> None:
        self.reserved.remove((pod.metadata.name, node_name))

    @hookimpl
    def permit(self, pod: Pod) -> Status | tuple[Status, float]:
        if "deny" in pod.metadata.labels:
            return Status(Code.UNSCHEDULABLE, "denied")
        self.handle.activate_pods(
            [p for p in self.handle.client.pods() if "buddy" in p.metadata.labels]
        )
        return Status(Code.WAIT), 30.0


def zone_nodes() -> list[Node]:
    return [
        make_node("a1").label(ZONE, "a").obj(),
        make_node("b1").label(ZONE, "b").obj(),
        make_node("a2").label(ZONE, "a").obj(),
        make_node("bare").obj(),
    ]


def busy_nodes() -> tuple[list[Node], list[Pod]]:
    nodes = [make_node(f"n{i}").capacity(cpu="4", memory="4Gi").obj() for i in range(3)]
    running = [make_pod(f"r{i}").namespace("default").node("n0").obj() for i in range(2)]
    running.append(make_pod("r2").namespace("default").node("n1").obj())
    return nodes, running


# -- PluginHarness -------------------------------------------------------------------------


def test_harness_enables_the_plugin_at_every_point_it_implements() -> None:
    harness = PluginHarness(Spread, nodes=busy_nodes()[0])
    assert harness.name == "Spread"
    assert dict(harness.framework.profile.plugins) == {
        "preScore": ("Spread",),
        "score": ("Spread",),
    }
    assert harness.framework.plugins == {"Spread": harness.plugin}
    assert [ni.name for ni in harness.nodes] == ["n0", "n1", "n2"]


def test_harness_structures_and_validates_args_as_a_plugin_config_entry() -> None:
    assert PluginHarness(Zone).plugin.args == ZoneArgs("a")
    assert PluginHarness(Zone, {"defaultZone": "b"}).plugin.args == ZoneArgs("b")
    assert PluginHarness(Zone, ZoneArgs("c")).plugin.args == ZoneArgs("c")
    with pytest.raises(ConfigError) as invalid:
        PluginHarness(Zone, {"defaultZone": ""})
    assert invalid.value.errors == ["args.defaultZone: Required value: a zone is needed"]
    with pytest.raises(ConfigError) as unknown:
        PluginHarness(Zone, {"zone": "b"})
    assert unknown.value.errors == ["args.zone: unknown field"]


def test_harness_takes_a_plugin_already_built() -> None:
    built = Zone(ZoneArgs("b"), None)
    harness = PluginHarness(built, nodes=zone_nodes())
    assert harness.plugin is built
    assert harness.name == "Zone"


def test_harness_rejects_what_is_not_a_plugin() -> None:
    def make_zone(args: ZoneArgs | None, handle: object) -> Zone:
        return Zone(args, handle)

    for not_a_plugin in (42, make_zone):
        with pytest.raises(PluginError, match="neither a plugin class nor a plugin"):
            PluginHarness(not_a_plugin)


def test_harness_enables_only_the_points_asked_for() -> None:
    harness = PluginHarness(Spread, nodes=busy_nodes()[0], points=["score"])
    assert dict(harness.framework.profile.plugins) == {"score": ("Spread",)}
    assert harness.score(make_pod("web").label("spread", "off").obj()) == {
        "n0": 100,
        "n1": 100,
        "n2": 100,
    }


def test_pre_filter_then_filter_share_the_cycle_state() -> None:
    harness = PluginHarness(Zone, nodes=zone_nodes())
    pod = make_pod("web").label(ZONE, "b").obj()
    assert harness.pre_filter(pod) is None
    assert harness.state.read_as("Zone", WantedZone) == WantedZone("b")
    rejected = Status(Code.UNSCHEDULABLE, WRONG_ZONE, plugin="Zone")
    assert harness.filter(pod) == {"a1": rejected, "b1": None, "a2": rejected, "bare": rejected}
    assert "Zone" not in harness.new_cycle()


def test_pre_filter_returns_a_narrowing() -> None:
    class Only:
        name = "Only"

        def __init__(self, args: Any, handle: object) -> None:
            pass

        @hookimpl
        def pre_filter(self, nodes: Sequence[NodeInfo]) -> PreFilterResult:
            return PreFilterResult(frozenset(ni.name for ni in nodes if ni.name.startswith("a")))

    harness = PluginHarness(Only, nodes=zone_nodes())
    assert harness.pre_filter(make_pod("web").obj()) == PreFilterResult(frozenset({"a1", "a2"}))


def test_run_filter_gives_each_node_its_status() -> None:
    pod = make_pod("web").obj()
    rejected = Status(Code.UNSCHEDULABLE, WRONG_ZONE, plugin="Zone")
    assert run_filter(Zone, pod, zone_nodes()) == {
        "a1": None,
        "b1": rejected,
        "a2": None,
        "bare": rejected,
    }
    assert run_filter(Zone, pod, zone_nodes(), {"defaultZone": "b"})["b1"] is None


def test_run_filter_charges_a_pre_filter_rejection_to_every_node() -> None:
    pod = make_pod("web").label(ZONE, "none").obj()
    rejected = Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, "pod asks for no zone", plugin="Zone")
    assert run_filter(Zone, pod, zone_nodes()) == dict.fromkeys(
        ["a1", "b1", "a2", "bare"], rejected
    )


def test_run_score_normalizes_or_gives_the_raw_scores() -> None:
    nodes, running = busy_nodes()
    pod = make_pod("web").obj()
    assert run_score(Spread, pod, nodes, pods=running, normalize=False) == {
        "n0": 2,
        "n1": 1,
        "n2": 0,
    }
    assert run_score(Spread, pod, nodes, pods=running) == {"n0": 0, "n1": 50, "n2": 100}


def test_run_score_is_empty_when_pre_score_skips_the_plugin() -> None:
    nodes, running = busy_nodes()
    assert (
        run_score(Spread, make_pod("web").label("spread", "off").obj(), nodes, pods=running) == {}
    )


def test_run_score_reports_a_failing_plugin() -> None:
    with pytest.raises(
        PluginError, match='plugin "Broken" raised RuntimeError in score: out of order'
    ):
        run_score(Broken, make_pod("web").obj(), busy_nodes()[0])
    with pytest.raises(PluginError, match="Zone has no score hook"):
        run_score(Zone, make_pod("web").obj(), zone_nodes())


def test_reserve_assumes_the_pod_and_unreserve_forgets_it() -> None:
    nodes, _ = busy_nodes()
    harness = PluginHarness(Gate, nodes=nodes)
    pod = make_pod("web").namespace("default").req(cpu="1").obj()
    assert harness.reserve(pod, "n2") is None
    assert harness.plugin.reserved == [("web", "n2")]
    assert harness.cache.num_assumed_pods == 1
    harness.new_cycle()
    assert harness.snapshot.get("n2").requested["cpu"] == 1000
    harness.unreserve(pod, "n2")
    assert harness.plugin.reserved == []
    assert harness.cache.num_assumed_pods == 0


def test_permit_wait_is_decided_by_allow_or_by_the_clock() -> None:
    harness = PluginHarness(Gate, nodes=busy_nodes()[0])
    first, second = make_pod("first").obj(), make_pod("second").obj()
    wait = Status(Code.WAIT, 'one or more plugins asked to wait and no plugin rejected pod "first"')
    assert harness.permit(first, "n0") == wait
    assert harness.permit(second, "n1").code == Code.WAIT
    harness.framework.get_waiting_pod(second.uid).allow("Gate")
    harness.advance(29)
    assert harness.framework.get_waiting_pod(first.uid).status is None
    harness.advance(1)
    assert harness.framework.wait_on_permit(first) == Status(
        Code.UNSCHEDULABLE,
        "rejected due to timeout after waiting 30s at plugin Gate",
        plugin="Gate",
    )
    assert harness.framework.wait_on_permit(second) is None


def test_permit_rejection_and_activated_pods() -> None:
    buddy = make_pod("buddy").label("buddy", "").obj()
    harness = PluginHarness(Gate, nodes=busy_nodes()[0], pods=[buddy])
    assert harness.permit(make_pod("web").label("deny", "").obj(), "n0") == Status(
        Code.UNSCHEDULABLE, "denied", plugin="Gate"
    )
    assert harness.activated == []
    harness.permit(make_pod("web").obj(), "n0")
    assert [pod.key for pod in harness.activated] == [buddy.key]


def test_post_filter_gives_the_status_or_the_result() -> None:
    class Nominate:
        name = "Nominate"

        def __init__(self, args: Any, handle: object) -> None:
            pass

        @hookimpl
        def post_filter(self, pod: Pod) -> Any:
            if pod.metadata.name == "lucky":
                from kubesched.framework import PostFilterResult

                return PostFilterResult("n1")
            return Status(Code.UNSCHEDULABLE, "no room")

    harness = PluginHarness(Nominate, nodes=busy_nodes()[0])
    assert harness.post_filter(make_pod("lucky").obj()).nominated_node_name == "n1"
    assert harness.post_filter(make_pod("other").obj()) == Status(
        Code.UNSCHEDULABLE, "no room", plugin="Nominate"
    )


# -- assert_batch_agrees -------------------------------------------------------------------


@pytest.mark.parametrize("zone", ["a", "b", "c"])
def test_batch_filter_that_agrees_passes(zone: str) -> None:
    assert_batch_agrees(Zone, make_pod("web").label(ZONE, zone).obj(), zone_nodes())


def test_batch_filter_that_disagrees_names_the_nodes() -> None:
    with pytest.raises(AssertionError) as failed:
        assert_batch_agrees(LeakyZone, make_pod("web").obj(), zone_nodes())
    assert str(failed.value) == (
        "LeakyZone: filter_batch disagrees with filter on\n  bare: filter_batch True, filter False"
    )


def test_batch_score_is_compared_before_normalization() -> None:
    nodes, running = busy_nodes()
    assert_batch_agrees(Spread, make_pod("web").obj(), nodes, pods=running)
    with pytest.raises(
        AssertionError,
        match="Spread: score_batch disagrees with score on\n  n0: score_batch 3, score 2",
    ):
        assert_batch_agrees(Spread, make_pod("web").obj(), nodes, True, pods=running)


def test_nothing_to_compare_when_pre_filter_rejects_or_pre_score_skips() -> None:
    assert_batch_agrees(LeakyZone, make_pod("web").label(ZONE, "none").obj(), zone_nodes())
    nodes, running = busy_nodes()
    assert_batch_agrees(
        Spread, make_pod("web").label("spread", "off").obj(), nodes, True, pods=running
    )


def test_a_plugin_without_batch_forms_cannot_agree() -> None:
    with pytest.raises(AssertionError, match="Gate has no filter_batch or score_batch hook"):
        assert_batch_agrees(Gate, make_pod("web").obj(), busy_nodes()[0])


# -- simulate ------------------------------------------------------------------------------

PREFER_EMPTY = {
    "profiles": [
        {
            "schedulerName": "default-scheduler",
            "plugins": {"score": {"enabled": [{"name": "Spread", "weight": 50}]}},
        }
    ]
}


def pending(count: int, cpu: str = "1") -> list[Pod]:
    return [make_pod(f"p{i}").namespace("default").req(cpu=cpu).obj() for i in range(count)]


def test_simulate_with_the_default_profile() -> None:
    nodes = [make_node("small").capacity(cpu="1").obj()]
    run = simulate(nodes, pending(2))
    assert run.placements == {"default/p0": "small", "default/p1": None}
    assert run.outcome("default/p1").message == (
        "0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: "
        "1 No preemption victims found for incoming pod."
    )
    with pytest.raises(KeyError):
        run.outcome("default/p9")


def test_simulate_enables_plugins_registered_in_code() -> None:
    nodes = [
        make_node("big").capacity(cpu="16", memory="16Gi").obj(),
        make_node("small").capacity(cpu="2", memory="2Gi").obj(),
    ]
    running = [make_pod(f"r{i}").namespace("default").node("big").obj() for i in range(2)]
    web = make_pod("web").namespace("default").req(cpu="100m").obj()
    assert simulate(nodes, [*running, web]).placements == {"default/web": "big"}
    spread = simulate(nodes, [*running, web], PREFER_EMPTY, plugins={"Spread": Spread})
    assert spread.placements == {"default/web": "small"}


def test_simulate_reads_a_config_file_or_takes_a_configuration(tmp_path: Path) -> None:
    path = tmp_path / "config.yaml"
    path.write_text(
        "apiVersion: kubescheduler.config.k8s.io/v1\n"
        "kind: KubeSchedulerConfiguration\n"
        "profiles:\n- schedulerName: other-scheduler\n"
    )
    pod = make_pod("web").namespace("default").scheduler_name("other-scheduler").obj()
    run = simulate([make_node("n1").obj()], [pod], path)
    assert run.placements == {"default/web": "n1"}
    assert run.result.summary.other_schedulers == 0
    cfg = default_config(default_registry())
    assert simulate([make_node("n1").obj()], [pod], cfg).result.summary.other_schedulers == 1


def test_simulate_reports_a_bad_config() -> None:
    with pytest.raises(ConfigError) as bad:
        simulate([], [], {"profiles": [{"plugins": {"score": {"enabled": [{"name": "Nope"}]}}}]})
    assert bad.value.errors == [
        'profiles[0].plugins.score.enabled[0]: ScorePlugin "Nope" does not exist'
    ]
    assert bad.value.file == "config"


def test_simulate_refuses_a_second_plugin_with_an_installed_name() -> None:
    with pytest.raises(PluginError, match='a plugin named "NodeName" already exists'):
        simulate([], [], plugins={"NodeName": Spread})
    installed = default_registry().load("NodeName")
    assert simulate([], [], plugins={"NodeName": installed}).placements == {}


def test_resume_schedules_on_after_the_cluster_changes() -> None:
    run = simulate([make_node("n1").capacity(cpu="1").obj()], pending(2))
    assert run.placements["default/p1"] is None
    run.cluster.add_node(make_node("n2").capacity(cpu="1").obj())
    run.resume()
    assert run.placements == {"default/p0": "n1", "default/p1": "n2"}


def test_simulate_stops_a_run_that_does_not_settle() -> None:
    with pytest.raises(SimulationLimitError, match="did not settle after 2 scheduling attempts"):
        simulate([make_node("n1").obj()], pending(3), max_attempts=2)
    assert len(simulate([make_node("n1").obj()], pending(3), max_attempts=None).placements) == 3


def test_simulate_resolves_priority_classes() -> None:
    urgent = PriorityClass(metadata=ObjectMeta(name="urgent"), value=1000)
    late = make_pod("late").namespace("default").priority_class_name("urgent").req(cpu="1").obj()
    run = simulate(
        [make_node("n1").capacity(cpu="1").obj()],
        [*pending(1), late],
        priority_classes=[urgent],
    )
    assert run.placements == {"default/late": "n1", "default/p0": None}
