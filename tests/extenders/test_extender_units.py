"""Extender logic without HTTP: score scaling, how filter verdicts merge into the node
statuses, how scores add up, how preemption victims pass through several extenders,
managedResources, and the wire names."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kubesched.api import Node, Pod
from kubesched.framework import (
    EXTENDER_NAME,
    Code,
    ExtenderError,
    SharedLister,
    Status,
    Victims,
    process_preemption_with_extenders,
)
from kubesched.scheduler.extenders import (
    ExtenderSettings,
    ExtenderVerdicts,
    HTTPExtender,
    find_nodes_that_pass_extenders,
    prioritize_with_extenders,
    weighted_score,
    wire,
)
from kubesched.scheduler.extenders.wire import HostPriority
from kubesched.testing import make_node, make_pod, simulate

NODES = [make_node(f"n{i}").obj() for i in range(1, 5)]
POD = make_pod("p").obj()


class Stub:
    """An extender answering from tables (the HTTPExtender's interface, no HTTP)."""

    def __init__(
        self,
        name: str,
        *,
        passes: Sequence[str] | None = None,
        failed: Mapping[str, str] | None = None,
        unresolvable: Mapping[str, str] | None = None,
        scores: Mapping[str, int] | None = None,
        weight: int = 1,
        error: bool = False,
        ignorable: bool = False,
        interested: bool = True,
        victims: Mapping[str, Victims] | None = None,
    ) -> None:
        self.name = name
        self.weight = weight
        self._passes, self._failed, self._unresolvable = passes, failed, unresolvable
        self._scores, self._error, self._ignorable = scores, error, ignorable
        self._interested, self._victims = interested, victims
        self.seen: list[list[str]] = []

    def is_interested(self, pod: Pod) -> bool:
        return self._interested

    def is_ignorable(self) -> bool:
        return self._ignorable

    def is_filter(self) -> bool:
        return self._passes is not None

    def is_prioritizer(self) -> bool:
        return self._scores is not None

    def supports_preemption(self) -> bool:
        return self._victims is not None

    def _maybe_fail(self) -> None:
        if self._error:
            raise ExtenderError(f"{self.name} is down")

    def filter(
        self, pod: Pod, nodes: Sequence[Node]
    ) -> tuple[list[str], dict[str, str], dict[str, str]]:
        self.seen.append([n.name for n in nodes])
        self._maybe_fail()
        names = [n.name for n in nodes]
        passes = names if self._passes is None else [n for n in self._passes if n in names]
        return passes, dict(self._failed or {}), dict(self._unresolvable or {})

    def prioritize(self, pod: Pod, nodes: Sequence[Node]) -> tuple[list[HostPriority], int]:
        self.seen.append([n.name for n in nodes])
        self._maybe_fail()
        if self._scores is None:
            return [HostPriority(n.name, 0) for n in nodes], 0
        return [HostPriority(h, s) for h, s in self._scores.items()], self.weight

    def process_preemption(
        self, pod: Pod, victims: Mapping[str, Victims], nodes: SharedLister
    ) -> dict[str, Victims]:
        self.seen.append(sorted(victims))
        self._maybe_fail()
        return {n: v for n, v in (self._victims or {}).items() if n in victims}


def run_filter(*extenders: Stub) -> tuple[list[str], dict[str, Status], ExtenderVerdicts]:
    statuses: dict[str, Status] = {}
    verdicts = ExtenderVerdicts()
    passed = find_nodes_that_pass_extenders(
        extenders,  # type: ignore[arg-type]
        POD,
        list(NODES),
        statuses,
        verdicts,
    )
    return [n.name for n in passed], statuses, verdicts


@given(st.integers(0, 10), st.integers(1, 1000))
def test_extender_scores_are_scaled_to_the_framework_range(score: int, weight: int) -> None:
    assert weighted_score(score, weight) == score * weight * 10
    assert weighted_score(10, 1) == 100  # MaxExtenderPriority is MaxNodeScore


def test_unresolvable_wins_over_failed_for_the_same_node() -> None:
    ext = Stub(
        "e",
        passes=["n3"],
        failed={"n1": "busy", "n2": "full"},
        unresolvable={"n2": "retired", "n4": "gone"},
    )
    passed, statuses, verdicts = run_filter(ext)
    assert passed == ["n3"]
    assert statuses == {
        "n1": Status(Code.UNSCHEDULABLE, "busy"),
        "n2": Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, "retired"),
        "n4": Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, "gone"),
    }
    assert all(s.plugin == "" for s in statuses.values())
    assert verdicts.for_node("n2")["e"].code == Code.UNSCHEDULABLE_AND_UNRESOLVABLE
    assert verdicts.for_node("n3")["e"].code == Code.SUCCESS


def test_filter_extenders_narrow_the_list_in_turn() -> None:
    first = Stub("a", passes=["n1", "n2", "n3"], failed={"n4": "no"})
    uninterested = Stub("b", passes=[], interested=False)
    broken = Stub("c", passes=[], error=True, ignorable=True)
    last = Stub("d", passes=["n2"], failed={"n1": "no", "n3": "no"})
    passed, _, verdicts = run_filter(first, uninterested, broken, last)
    assert passed == ["n2"]
    assert first.seen == [["n1", "n2", "n3", "n4"]]
    assert uninterested.seen == []
    assert last.seen == [["n1", "n2", "n3"]]
    assert verdicts.skipped == {"c": "c is down"}


def test_filtering_stops_when_no_node_is_left() -> None:
    empty, after = Stub("a", passes=[]), Stub("b", passes=["n1"])
    passed, _, _ = run_filter(empty, after)
    assert passed == []
    assert after.seen == []


def test_a_non_ignorable_filter_error_propagates() -> None:
    with pytest.raises(ExtenderError, match="a is down"):
        run_filter(Stub("a", passes=[], error=True))


def test_prioritize_adds_every_interested_extenders_weighted_scores() -> None:
    verdicts = ExtenderVerdicts()
    extenders = [
        Stub("a", scores={"n1": 3, "n2": 10}, weight=2),
        Stub("b", scores={"n1": 1, "n1x": 9}, weight=5),  # unknown hosts are harmless
        Stub("c", scores={"n1": 10}, weight=7, interested=False),
        Stub("d", scores={"n2": 10}, weight=9, error=True),  # errors are ignored
        Stub("e"),  # no prioritize verb: nothing
    ]
    totals = prioritize_with_extenders(extenders, POD, NODES[:2], verdicts)  # type: ignore[arg-type]
    assert totals == {"n1": 3 * 2 * 10 + 1 * 5 * 10, "n2": 200, "n1x": 450}
    assert verdicts.for_node("n1")["a"].score == 3
    assert verdicts.for_node("n1")["a"].weighted == 60
    assert "e" not in verdicts.for_node("n1")
    assert verdicts.skipped == {"d": "d is down"}


class NoNodes:
    def get(self, name: str) -> None:
        return None


def victims(*names: str) -> dict[str, Victims]:
    return {n: Victims((make_pod(f"v-{n}").obj(),)) for n in names}


def test_preemption_victims_pass_through_each_extender_in_turn() -> None:
    first = Stub("a", victims=victims("n1", "n2"))
    skipped = Stub("b", victims=victims("n1"), interested=False)
    broken = Stub("c", victims={}, error=True, ignorable=True)
    last = Stub("d", victims=victims("n2", "n3"))
    kept = process_preemption_with_extenders(
        [first, skipped, broken, last],  # type: ignore[list-item]
        POD,
        victims("n1", "n2", "n3"),
        NoNodes(),  # type: ignore[arg-type]
    )
    assert isinstance(kept, dict)
    assert sorted(kept) == ["n2"]
    assert last.seen == [["n1", "n2"]]
    assert skipped.seen == []


def test_preemption_stops_asking_once_no_candidate_is_left() -> None:
    drop_all, after = Stub("a", victims={}), Stub("b", victims=victims("n1"))
    kept = process_preemption_with_extenders(
        [drop_all, after],  # type: ignore[list-item]
        POD,
        victims("n1"),
        NoNodes(),  # type: ignore[arg-type]
    )
    assert kept == {}
    assert after.seen == []


@pytest.mark.parametrize("ignorable", [False, True])
def test_a_node_left_without_victims(ignorable: bool) -> None:
    ext = Stub("a", victims={"n1": Victims(()), **victims("n2")}, ignorable=ignorable)
    kept = process_preemption_with_extenders(
        [ext],  # type: ignore[list-item]
        POD,
        victims("n1", "n2"),
        NoNodes(),  # type: ignore[arg-type]
    )
    if ignorable:
        assert isinstance(kept, dict) and sorted(kept) == ["n2"]
    else:
        assert kept == Status.error('expected at least one victim pod on node "n1"')


def test_a_preemption_error_is_an_error_status_unless_ignorable() -> None:
    down = Stub("a", victims={}, error=True)
    kept = process_preemption_with_extenders(
        [down],  # type: ignore[list-item]
        POD,
        victims("n1"),
        NoNodes(),  # type: ignore[arg-type]
    )
    assert isinstance(kept, Status) and kept.code == Code.ERROR
    assert kept.message == "a is down"


def http(**fields: Any) -> HTTPExtender:
    return HTTPExtender(ExtenderSettings(url_prefix="http://127.0.0.1:9", **fields))


def test_managed_resources_decide_interest() -> None:
    gpu = frozenset({"example.com/gpu"})
    assert http().is_interested(POD)
    ext = http(managed_resources=gpu)
    assert not ext.is_interested(make_pod("cpu").req(cpu="1").obj())
    assert ext.is_interested(make_pod("g").req(**{"example.com/gpu": "1"}).obj())
    assert ext.is_interested(make_pod("i").init_req(**{"example.com/gpu": "1"}).obj())


def test_wire_names_are_upstreams_go_field_names() -> None:
    args = wire.ExtenderArgs({"kind": "Pod"}, node_names=["n1"])
    assert wire.encode(args) == {"Pod": {"kind": "Pod"}, "Nodes": None, "NodeNames": ["n1"]}
    binding = wire.ExtenderBindingArgs("p", "ns", "uid-1", "n1")
    assert wire.encode(binding) == {
        "PodName": "p",
        "PodNamespace": "ns",
        "PodUID": "uid-1",
        "Node": "n1",
    }
    meta = wire.MetaVictims([wire.MetaPod("u")], 2)
    assert wire.encode(wire.ExtenderPreemptionArgs({}, node_name_to_meta_victims={"n": meta})) == {
        "Pod": {},
        "NodeNameToVictims": None,
        "NodeNameToMetaVictims": {"n": {"Pods": [{"UID": "u"}], "NumPDBViolations": 2}},
    }


def test_answers_decode_like_gos_decoder() -> None:
    result = wire.decode(
        {"failedandunresolvablenodes": {"n1": "x"}, "Unknown": 1, "NodeNames": None},
        wire.ExtenderFilterResult,
    )
    assert result.failed_and_unresolvable_nodes == {"n1": "x"}
    assert result.node_names is None
    assert wire.decode(None, wire.ExtenderFilterResult) == wire.ExtenderFilterResult()
    assert wire.decode_priorities(None) == []
    with pytest.raises(wire.WireError, match="expected an integer"):
        wire.decode_priorities([{"Host": "n1", "Score": 2.5}])
    with pytest.raises(wire.WireError, match="expected an integer"):
        wire.decode_priorities([{"Host": "n1", "Score": True}])


def test_an_extender_rejection_is_recorded_as_the_extender_rejector() -> None:
    run = simulate(
        [make_node("n1").capacity(cpu="1").obj()],
        [make_pod("p").namespace("a").uid("p").req(cpu="1").obj()],
        {"extenders": [{"urlPrefix": "http://127.0.0.1:9", "ignorable": True}]},
    )
    fw = run.scheduler.frameworks["default-scheduler"]
    assert EXTENDER_NAME in fw.events_to_register()
    assert len(fw.extenders()) == 1
