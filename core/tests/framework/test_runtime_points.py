"""Each extension point's semantics, through small test plugins (after upstream's
runtime/framework_test.go)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from kubesched import hookimpl
from kubesched.errors import PluginError
from kubesched.framework import (
    Code,
    CycleState,
    NodeInfo,
    NodeTable,
    PostFilterResult,
    PreFilterResult,
    Status,
)
from kubesched.testing import make_node, make_pod

POD = make_pod("p").uid("p-uid").obj()


def table(n: int) -> NodeTable:
    return NodeTable([NodeInfo(make_node(f"n{i}").obj()) for i in range(n)])


def plugin(**hooks: Any) -> type:
    """A plugin class whose hooks return fixed values (or call given functions)."""
    namespace: dict[str, Any] = {"__init__": lambda self, args, handle: None}
    for hook, value in hooks.items():
        body = (
            value
            if callable(value) and not isinstance(value, Status)
            else (lambda v: lambda self: v)(value)
        )
        namespace[hook] = hookimpl(specname=hook)(body)
    return type("P", (), namespace)


# -- Score: weights, normalisation, range ----------------------------------------------


def test_score_weights_and_normalize(make_framework: Any) -> None:
    def score(self: Any, node_info: NodeInfo) -> int:
        return int(node_info.name[1:]) * 10

    def normalize(self: Any, scores: Any) -> None:
        scores.scores[:] = scores.scores // 2

    fw = make_framework(
        {"A": plugin(score=score, normalize_score=normalize), "B": plugin(score=score)},
        {"score": ["A", "B"]},
        weights={"A": 3, "B": 1},
    )
    t = table(3)
    out = fw.run_score_plugins(CycleState(), POD, t, np.arange(3))
    assert not isinstance(out, Status)
    assert out.plugins["A"][0].tolist() == [0, 5, 10]
    assert out.plugins["A"][1].tolist() == [0, 15, 30]
    assert out.plugins["B"][1].tolist() == [0, 10, 20]
    assert out.totals.tolist() == [0, 25, 50]


@pytest.mark.parametrize("bad", [101, -1])
def test_score_out_of_range_is_an_error(make_framework: Any, bad: int) -> None:
    fw = make_framework({"A": plugin(score=bad)}, {"score": ["A"]})
    out = fw.run_score_plugins(CycleState(), POD, table(2), np.arange(2))
    assert isinstance(out, Status) and out.code == Code.ERROR
    assert out.message == (
        'applying score defaultWeights on Score plugins: plugin "A" returns an invalid '
        f"score {bad}, it should in the range of [0, 100] after normalizing"
    )


def test_normalize_can_bring_scores_into_range(make_framework: Any) -> None:
    def normalize(self: Any, scores: Any) -> None:
        scores.scores[:] = 100

    fw = make_framework({"A": plugin(score=1000, normalize_score=normalize)}, {"score": ["A"]})
    out = fw.run_score_plugins(CycleState(), POD, table(2), np.arange(2))
    assert not isinstance(out, Status) and out.totals.tolist() == [100, 100]


def test_score_error_status(make_framework: Any) -> None:
    fw = make_framework({"A": plugin(score=Status(Code.ERROR, "boom"))}, {"score": ["A"]})
    out = fw.run_score_plugins(CycleState(), POD, table(1), np.arange(1))
    assert isinstance(out, Status)
    assert out.message == 'running Score plugins: plugin "A" failed with: boom'
    assert out.plugin == "A"


def test_normalize_error_status(make_framework: Any) -> None:
    fw = make_framework(
        {"A": plugin(score=1, normalize_score=Status(Code.ERROR, "nope"))}, {"score": ["A"]}
    )
    out = fw.run_score_plugins(CycleState(), POD, table(1), np.arange(1))
    assert isinstance(out, Status)
    assert out.message == 'running Normalize on Score plugins: plugin "A" failed with: nope'


def test_score_batch_is_preferred_and_checked(make_framework: Any) -> None:
    def score_batch(self: Any, rows: Any) -> Any:
        return np.asarray(rows) + 1

    fw = make_framework(
        {
            "A": plugin(
                score=Status(Code.ERROR, "per-node form must not run"), score_batch=score_batch
            )
        },
        {"score": ["A"]},
    )
    out = fw.run_score_plugins(CycleState(), POD, table(3), np.array([2, 0]))
    assert not isinstance(out, Status) and out.totals.tolist() == [3, 1]


# -- PreScore / PreFilter Skip --------------------------------------------------------


def test_pre_score_skip_skips_coupled_score(make_framework: Any) -> None:
    fw = make_framework(
        {
            "A": plugin(pre_score=Status(Code.SKIP), score=Status(Code.ERROR, "ran")),
            "B": plugin(score=7),
        },
        {"preScore": ["A"], "score": ["A", "B"]},
    )
    state = CycleState()
    assert fw.run_pre_score_plugins(state, POD, []) is None
    assert state.skip_score_plugins == {"A"}
    out = fw.run_score_plugins(state, POD, table(1), np.arange(1))
    assert not isinstance(out, Status) and list(out.plugins) == ["B"]


def test_pre_score_error(make_framework: Any) -> None:
    fw = make_framework(
        {"A": plugin(pre_score=Status(Code.UNSCHEDULABLE, "x"))}, {"preScore": ["A"]}
    )
    status = fw.run_pre_score_plugins(CycleState(), POD, [])
    assert status is not None and status.code == Code.ERROR
    assert status.message == 'running PreScore plugin "A": x'


def test_pre_filter_skip_skips_filter(make_framework: Any) -> None:
    fw = make_framework(
        {"A": plugin(pre_filter=Status(Code.SKIP), filter=Status(Code.UNSCHEDULABLE, "no"))},
        {"preFilter": ["A"], "filter": ["A"]},
    )
    state = CycleState()
    result, status, _ = fw.run_pre_filter_plugins(state, POD, [])
    assert (result, status) == (None, None)
    out = fw.find_feasible_nodes(state, POD, table(3))
    assert out.rows.tolist() == [0, 1, 2] and not out.statuses


def test_pre_filter_unresolvable_stops_unschedulable_continues(make_framework: Any) -> None:
    calls: list[str] = []

    def rec(name: str, status: Status | None) -> Any:
        def pre_filter(self: Any) -> Status | None:
            calls.append(name)
            return status

        return pre_filter

    fw = make_framework(
        {
            "A": plugin(pre_filter=rec("A", Status(Code.UNSCHEDULABLE, "a"))),
            "B": plugin(pre_filter=rec("B", Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, "b"))),
            "C": plugin(pre_filter=rec("C", None)),
        },
        {"preFilter": ["A", "B", "C"]},
    )
    _, status, _ = fw.run_pre_filter_plugins(CycleState(), POD, [])
    assert calls == ["A", "B"]
    assert status == Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, "b", plugin="B")

    calls.clear()
    fw2 = make_framework(
        {
            "A": plugin(pre_filter=rec("A", Status(Code.UNSCHEDULABLE, "a"))),
            "C": plugin(pre_filter=rec("C", None)),
        },
        {"preFilter": ["A", "C"]},
    )
    _, status, _ = fw2.run_pre_filter_plugins(CycleState(), POD, [])
    assert calls == ["A", "C"]
    assert status == Status(Code.UNSCHEDULABLE, "a", plugin="A")


def test_pre_filter_results_intersect(make_framework: Any) -> None:
    fw = make_framework(
        {
            "A": plugin(pre_filter=PreFilterResult(frozenset({"n1", "n2"}))),
            "B": plugin(pre_filter=PreFilterResult(frozenset({"n2", "n3"}))),
        },
        {"preFilter": ["A", "B"]},
    )
    result, status, with_nodes = fw.run_pre_filter_plugins(CycleState(), POD, [])
    assert status is None and result == PreFilterResult(frozenset({"n2"}))
    assert with_nodes == {"A", "B"}
    assert fw.candidate_rows(table(4), result).tolist() == [2]


@pytest.mark.parametrize(
    ("sets", "message"),
    [
        ([{"n1"}, {"n2"}], "node(s) didn't satisfy plugin(s) [A B] simultaneously"),
        ([set()], "node(s) didn't satisfy plugin A"),
    ],
)
def test_pre_filter_empty_intersection(
    make_framework: Any, sets: list[set[str]], message: str
) -> None:
    names = ["A", "B"][: len(sets)]
    fw = make_framework(
        {
            n: plugin(pre_filter=PreFilterResult(frozenset(s)))
            for n, s in zip(names, sets, strict=True)
        },
        {"preFilter": names},
    )
    _, status, _ = fw.run_pre_filter_plugins(CycleState(), POD, [])
    assert status == Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, message)


# -- Filter ---------------------------------------------------------------------------


def test_filter_first_rejection_wins_and_names_plugin(make_framework: Any) -> None:
    fw = make_framework(
        {
            "A": plugin(filter=Status(Code.UNSCHEDULABLE, "a")),
            "B": plugin(filter=Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, "b")),
        },
        {"filter": ["A", "B"]},
    )
    status = fw.run_filter_plugins(CycleState(), POD, NodeInfo(make_node("n").obj()))
    assert status == Status(Code.UNSCHEDULABLE, "a", plugin="A")


def test_filter_non_rejection_becomes_error(make_framework: Any) -> None:
    fw = make_framework({"A": plugin(filter=Status(Code.WAIT, "w"))}, {"filter": ["A"]})
    status = fw.run_filter_plugins(CycleState(), POD, NodeInfo(make_node("n").obj()))
    assert status is not None and status.code == Code.ERROR
    assert status.message == 'running "A" filter plugin: w'


def test_find_feasible_stops_after_num_to_find_round_robin(make_framework: Any) -> None:
    def odd_fails(self: Any, node_info: NodeInfo) -> Status | None:
        return Status(Code.UNSCHEDULABLE, "odd") if int(node_info.name[1:]) % 2 else None

    fw = make_framework({"A": plugin(filter=odd_fails)}, {"filter": ["A"]})
    out = fw.find_feasible_nodes(CycleState(), POD, table(10), start=7, num_to_find=3)
    assert out.rows.tolist() == [8, 0, 2]
    assert out.processed == 6
    assert sorted(out.statuses) == ["n1", "n7", "n9"]


def test_batch_and_per_node_filter_agree(make_framework: Any) -> None:
    def per_node(self: Any, node_info: NodeInfo) -> Status | None:
        return Status(Code.UNSCHEDULABLE, "bad") if int(node_info.name[1:]) % 3 == 0 else None

    def batch(self: Any, table: NodeTable) -> Any:
        return np.array([int(n[1:]) % 3 != 0 for n in table.names])

    per = make_framework({"A": plugin(filter=per_node)}, {"filter": ["A"]})
    bat = make_framework({"A": plugin(filter=per_node, filter_batch=batch)}, {"filter": ["A"]})
    t = table(20)
    for start in (0, 5, 19):
        for k in (1, 4, 20):
            a = per.find_feasible_nodes(CycleState(), POD, t, start=start, num_to_find=k)
            b = bat.find_feasible_nodes(CycleState(), POD, t, start=start, num_to_find=k)
            assert a.rows.tolist() == b.rows.tolist()
            assert a.processed == b.processed
            assert a.statuses == b.statuses


def test_batch_that_disagrees_with_per_node_is_an_error(make_framework: Any) -> None:
    fw = make_framework(
        {"A": plugin(filter=None, filter_batch=lambda self, table: np.zeros(len(table), bool))},
        {"filter": ["A"]},
    )
    out = fw.find_feasible_nodes(CycleState(), POD, table(2))
    assert out.error is not None and out.error.plugin == "A"
    assert "filter_batch rejected node" in out.error.message


def test_no_filter_plugins_takes_first_k_from_start(make_framework: Any) -> None:
    fw = make_framework({}, {})
    out = fw.find_feasible_nodes(CycleState(), POD, table(5), start=3, num_to_find=3)
    assert out.rows.tolist() == [3, 4, 0]


# -- PostFilter -----------------------------------------------------------------------


def test_post_filter_first_success_wins(make_framework: Any) -> None:
    fw = make_framework(
        {
            "A": plugin(post_filter=Status(Code.UNSCHEDULABLE, "a")),
            "B": plugin(post_filter=PostFilterResult("n1")),
            "C": plugin(post_filter=Status(Code.ERROR, "never")),
        },
        {"postFilter": ["A", "B", "C"]},
    )
    result, status = fw.run_post_filter_plugins(CycleState(), POD, {})
    assert result == PostFilterResult("n1") and status.code == Code.SUCCESS


def test_post_filter_all_unschedulable_collects_reasons(make_framework: Any) -> None:
    fw = make_framework(
        {
            "A": plugin(post_filter=Status(Code.UNSCHEDULABLE, "a")),
            "B": plugin(post_filter=Status(Code.UNSCHEDULABLE, "b")),
        },
        {"postFilter": ["A", "B"]},
    )
    _, status = fw.run_post_filter_plugins(CycleState(), POD, {})
    assert status == Status(Code.UNSCHEDULABLE, "a", "b", plugin="A")


# -- Reserve / Unreserve --------------------------------------------------------------


def test_reserve_stops_at_failure_and_unreserve_runs_in_reverse(make_framework: Any) -> None:
    order: list[str] = []

    def reserve(name: str, status: Status | None) -> Any:
        def fn(self: Any) -> Status | None:
            order.append(f"reserve {name}")
            return status

        return fn

    def unreserve(name: str) -> Any:
        def fn(self: Any) -> None:
            order.append(f"unreserve {name}")

        return fn

    fw = make_framework(
        {
            "A": plugin(reserve=reserve("A", None), unreserve=unreserve("A")),
            "B": plugin(reserve=reserve("B", Status(Code.ERROR, "full")), unreserve=unreserve("B")),
            "C": plugin(reserve=reserve("C", None), unreserve=unreserve("C")),
        },
        {"reserve": ["A", "B", "C"]},
    )
    status = fw.run_reserve_plugins_reserve(CycleState(), POD, "n1")
    assert status is not None and status.message == 'running Reserve plugin "B": full'
    fw.run_reserve_plugins_unreserve(CycleState(), POD, "n1")
    assert order == ["reserve A", "reserve B", "unreserve C", "unreserve B", "unreserve A"]


# -- Permit ---------------------------------------------------------------------------


def test_permit_wait_then_allow(make_framework: Any, clock: Any) -> None:
    fw = make_framework(
        {
            "A": plugin(permit=(Status(Code.WAIT), 10.0)),
            "B": plugin(permit=(Status(Code.WAIT), 20.0)),
        },
        {"permit": ["A", "B"]},
        clock=clock,
    )
    status = fw.run_permit_plugins(CycleState(), POD, "n1")
    assert status is not None and status.code == Code.WAIT
    assert status.message == 'one or more plugins asked to wait and no plugin rejected pod "p"'
    wp = fw.get_waiting_pod("p-uid")
    assert wp is not None and sorted(wp.pending_plugins()) == ["A", "B"]
    wp.allow("A")
    assert wp.status is None
    wp.allow("B")
    assert wp.status is not None and wp.status.code == Code.SUCCESS
    assert fw.wait_on_permit(POD) is None
    assert fw.get_waiting_pod("p-uid") is None


def test_permit_reject_while_waiting(make_framework: Any, clock: Any) -> None:
    fw = make_framework(
        {"A": plugin(permit=(Status(Code.WAIT), 10.0))}, {"permit": ["A"]}, clock=clock
    )
    fw.run_permit_plugins(CycleState(), POD, "n1")
    wp = fw.get_waiting_pod("p-uid")
    assert wp is not None and wp.reject("A", "group failed")
    assert fw.wait_on_permit(POD) == Status(Code.UNSCHEDULABLE, "group failed", plugin="A")


def test_permit_timeout_clamped_to_15_minutes(make_framework: Any, clock: Any) -> None:
    fw = make_framework(
        {"A": plugin(permit=(Status(Code.WAIT), 3600.0))}, {"permit": ["A"]}, clock=clock
    )
    fw.run_permit_plugins(CycleState(), POD, "n1")
    wp = fw.get_waiting_pod("p-uid")
    assert wp is not None and wp.deadline() == 900.0
    clock.t = 899.0
    assert not wp.expire(clock.t)
    clock.t = 900.0
    assert wp.expire(clock.t)
    assert fw.wait_on_permit(POD) == Status(
        Code.UNSCHEDULABLE, "rejected due to timeout after waiting 15m0s at plugin A", plugin="A"
    )


def test_permit_rejection_stops(make_framework: Any) -> None:
    fw = make_framework(
        {
            "A": plugin(permit=Status(Code.UNSCHEDULABLE, "no")),
            "B": plugin(permit=(Status(Code.WAIT), 5.0)),
        },
        {"permit": ["A", "B"]},
    )
    assert fw.run_permit_plugins(CycleState(), POD, "n1") == Status(
        Code.UNSCHEDULABLE, "no", plugin="A"
    )
    assert fw.get_waiting_pod("p-uid") is None


# -- Bind -----------------------------------------------------------------------------


def test_bind_stops_at_first_non_skip(make_framework: Any) -> None:
    ran: list[str] = []

    def bind(name: str, status: Status | None) -> Any:
        def fn(self: Any) -> Status | None:
            ran.append(name)
            return status

        return fn

    fw = make_framework(
        {
            "A": plugin(bind=bind("A", Status(Code.SKIP))),
            "B": plugin(bind=bind("B", None)),
            "C": plugin(bind=bind("C", None)),
        },
        {"bind": ["A", "B", "C"]},
    )
    status = fw.run_bind_plugins(CycleState(), POD, "n1")
    assert status is not None and (status.code, status.plugin) == (Code.SUCCESS, "B")
    assert ran == ["A", "B"]


def test_all_bind_plugins_skip_is_skip(make_framework: Any) -> None:
    fw = make_framework({"A": plugin(bind=Status(Code.SKIP))}, {"bind": ["A"]})
    status = fw.run_bind_plugins(CycleState(), POD, "n1")
    assert status is not None and status.code == Code.SKIP


def test_bind_error_is_wrapped(make_framework: Any) -> None:
    fw = make_framework({"A": plugin(bind=Status(Code.ERROR, "conflict"))}, {"bind": ["A"]})
    status = fw.run_bind_plugins(CycleState(), POD, "n1")
    assert status is not None and status.message == 'running Bind plugin "A": conflict'


# -- misbehaving plugins --------------------------------------------------------------


def test_plugin_that_raises_becomes_error_naming_it(make_framework: Any) -> None:
    def boom() -> Any:
        def fn(self: Any) -> None:
            raise ZeroDivisionError("division by zero")

        return fn

    fw = make_framework(
        {"Boom": plugin(filter=boom(), reserve=boom())}, {"filter": ["Boom"], "reserve": ["Boom"]}
    )
    status = fw.run_filter_plugins(CycleState(), POD, NodeInfo(make_node("n").obj()))
    assert status is not None and status.code == Code.ERROR and status.plugin == "Boom"
    assert "ZeroDivisionError" in status.message
    out = fw.find_feasible_nodes(CycleState(), POD, table(3))
    assert out.error is not None and out.error.plugin == "Boom"
    reserved = fw.run_reserve_plugins_reserve(CycleState(), POD, "n")
    assert reserved is not None and reserved.code == Code.ERROR and '"Boom"' in reserved.message


def test_plugin_returning_garbage_becomes_error(make_framework: Any) -> None:
    fw = make_framework(
        {"G": plugin(filter="yes", score="high")}, {"filter": ["G"], "score": ["G"]}
    )
    status = fw.run_filter_plugins(CycleState(), POD, NodeInfo(make_node("n").obj()))
    assert status is not None and status.code == Code.ERROR
    assert status.message == (
        'running "G" filter plugin: plugin "G" returned str from filter, expected a Status or None'
    )
    out = fw.run_score_plugins(CycleState(), POD, table(1), np.arange(1))
    assert isinstance(out, Status) and "returned str 'high' from score" in out.message


# -- construction ---------------------------------------------------------------------


def test_plugin_enabled_at_point_it_does_not_implement(make_framework: Any) -> None:
    with pytest.raises(
        PluginError,
        match=r'plugin "A" \(registered in code\) in profile "test-scheduler" '
        r"does not extend Score plugin",
    ):
        make_framework({"A": plugin(filter=None)}, {"score": ["A"]})


def test_hookimpl_with_unknown_argument_fails_registration(make_framework: Any) -> None:
    class Bad:
        def __init__(self, args: object, handle: object) -> None:
            pass

        @hookimpl
        def filter(self, state: Any, pod: Any, nodeinfo: Any) -> None:
            return None

    with pytest.raises(PluginError, match="nodeinfo"):
        make_framework({"Bad": Bad}, {"filter": ["Bad"]})


def test_factory_failure_names_plugin(make_framework: Any) -> None:
    class Broken:
        def __init__(self, args: object, handle: object) -> None:
            raise ValueError("missing args")

        @hookimpl
        def filter(self) -> None:
            return None

    with pytest.raises(
        PluginError, match=r'initializing plugin "Broken" .*ValueError: missing args'
    ):
        make_framework({"Broken": Broken}, {"filter": ["Broken"]})


def test_args_reach_the_factory(make_framework: Any) -> None:
    seen: list[Any] = []

    class WithArgs:
        def __init__(self, args: object, handle: object) -> None:
            seen.append((args, handle))

        @hookimpl
        def filter(self) -> None:
            return None

    fw = make_framework({"W": WithArgs}, {"filter": ["W"]}, args={"W": {"k": 1}})
    assert seen == [({"k": 1}, fw)]


def test_score_outside_int64_is_an_error(make_framework: Any) -> None:
    fw = make_framework({"Huge": plugin(score=2**70)}, {"score": ["Huge"]})
    out = fw.run_score_plugins(CycleState(), POD, table(1), np.arange(1))
    assert isinstance(out, Status) and out.plugin == "Huge"
    assert "outside the int64 range" in out.message


@pytest.mark.parametrize(
    ("score", "shown"),
    [
        (99.7, "float 99.7"),
        (True, "bool True"),
        ("50", "str '50'"),
        (None, "NoneType None"),
        ("x" * 100, f"str '{'x' * 36}..."),
    ],
)
def test_only_int_scores_count_and_the_message_says_what_came_back(
    make_framework: Any, score: Any, shown: str
) -> None:
    fw = make_framework({"F": plugin(score=score)}, {"score": ["F"]})
    out = fw.run_score_plugins(CycleState(), POD, table(2), np.arange(2))
    assert isinstance(out, Status) and out.code == Code.ERROR and out.plugin == "F"
    assert out.message == (
        f'running Score plugins: plugin "F" failed with: plugin "F" returned {shown} '
        "from score, expected an int or a Status"
    )


def test_numpy_integer_scores_count(make_framework: Any) -> None:
    fw = make_framework({"N": plugin(score=np.int32(7))}, {"score": ["N"]})
    out = fw.run_score_plugins(CycleState(), POD, table(2), np.arange(2))
    assert not isinstance(out, Status) and out.totals.tolist() == [7, 7]


@pytest.mark.parametrize(
    ("returned", "shown"),
    [
        (np.array([1.5, 2.0]), "an array of float64 (2,)"),
        (np.array([1, 2, 3]), "an array of int64 (3,)"),
        ("12", "str"),
    ],
)
def test_score_batch_must_return_one_integer_per_row(
    make_framework: Any, returned: Any, shown: str
) -> None:
    fw = make_framework({"B": plugin(score=1, score_batch=returned)}, {"score": ["B"]})
    out = fw.run_score_plugins(CycleState(), POD, table(2), np.arange(2))
    assert isinstance(out, Status) and out.plugin == "B"
    assert f"returned {shown} from score_batch, expected 2 integer scores" in out.message


def test_handle_rng_is_the_one_the_scheduler_seeds(make_framework: Any) -> None:
    import random

    a = make_framework({}, {}, rng=random.Random(7))
    b = make_framework({}, {}, rng=random.Random(7))
    assert [a.rng.random() for _ in range(3)] == [b.rng.random() for _ in range(3)]


def test_factory_function_naming_its_plugin_class(make_framework: Any) -> None:
    class Counted:
        def __init__(self, limit: int) -> None:
            self.limit = limit

        @hookimpl
        def score(self) -> int:
            return self.limit

    def factory(args: Any, handle: Any) -> Counted:
        return Counted(args["limit"])

    factory.plugin_class = Counted  # type: ignore[attr-defined]
    fw = make_framework({"C": factory}, {"score": ["C"]}, args={"C": {"limit": 42}})
    out = fw.run_score_plugins(CycleState(), POD, table(1), np.arange(1))
    assert not isinstance(out, Status) and out.totals.tolist() == [42]
