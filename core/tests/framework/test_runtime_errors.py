"""A plugin that raises, at any extension point, fails that call with an Error naming it.

Every hook runs through the one plugin-call wrapper; these tests hold each
point's error branch to it, for an ordinary exception and for SystemExit
(a plugin's `sys.exit()` must not end the scheduler).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from kubesched import hookimpl
from kubesched.errors import PluginError
from kubesched.framework import (
    HOOKS,
    ClusterEventWithHint,
    Code,
    CycleState,
    NodeInfo,
    NodeTable,
    PodInfo,
    Status,
)
from kubesched.framework._runtime import Framework
from kubesched.testing import make_node, make_pod

POD = make_pod("p").uid("p-uid").obj()
NODE = NodeInfo(make_node("n0").obj())


def raising(exc: BaseException) -> type:
    """A plugin class every hook of which raises `exc`."""

    def fail() -> Callable[[Any], Any]:
        def hook(self: Any) -> Any:
            raise exc

        return hook

    hooks = [h for h in HOOKS if h not in ("queue_sort_less", "events_to_register")]
    namespace: dict[str, Any] = {"__init__": lambda self, args, handle: None}
    namespace.update({hook: hookimpl(specname=hook)(fail()) for hook in hooks})
    return type("Boom", (), namespace)


class Harmless:
    """Scores and filters without complaint, so only the hook under test can fail."""

    def __init__(self, args: object, handle: object) -> None:
        pass

    @hookimpl
    def score(self) -> int:
        return 1

    @hookimpl
    def filter(self) -> None:
        return None


def status_of(outcome: Any) -> Status | None:
    if isinstance(outcome, tuple):
        return next((o for o in outcome if isinstance(o, Status)), None)
    if isinstance(outcome, Status) or outcome is None:
        return outcome
    return getattr(outcome, "error", None)


Run = Callable[[Framework], Any]
TABLE = NodeTable([NODE])
ROWS = np.arange(1)

CASES: dict[str, tuple[str, Run]] = {
    "pre_enqueue": ("preEnqueue", lambda fw: fw.run_pre_enqueue_plugins(POD)),
    "pre_filter": ("preFilter", lambda fw: fw.run_pre_filter_plugins(CycleState(), POD, [NODE])),
    "pre_filter_add_pod": (
        "preFilter",
        lambda fw: fw.run_pre_filter_extension_add_pod(CycleState(), POD, PodInfo(POD), NODE),
    ),
    "pre_filter_remove_pod": (
        "preFilter",
        lambda fw: fw.run_pre_filter_extension_remove_pod(CycleState(), POD, PodInfo(POD), NODE),
    ),
    "filter": ("filter", lambda fw: fw.run_filter_plugins(CycleState(), POD, NODE)),
    "filter_batch": ("filter", lambda fw: fw.find_feasible_nodes(CycleState(), POD, TABLE)),
    "post_filter": ("postFilter", lambda fw: fw.run_post_filter_plugins(CycleState(), POD, {})),
    "pre_score": ("preScore", lambda fw: fw.run_pre_score_plugins(CycleState(), POD, [NODE])),
    "score": ("score", lambda fw: fw.run_score_plugins(CycleState(), POD, TABLE, ROWS)),
    "reserve": ("reserve", lambda fw: fw.run_reserve_plugins_reserve(CycleState(), POD, "n0")),
    "permit": ("permit", lambda fw: fw.run_permit_plugins(CycleState(), POD, "n0")),
    "pre_bind": ("preBind", lambda fw: fw.run_pre_bind_plugins(CycleState(), POD, "n0")),
    "bind": ("bind", lambda fw: fw.run_bind_plugins(CycleState(), POD, "n0")),
}


@pytest.mark.parametrize("exc", [ZeroDivisionError("boom"), SystemExit(3)], ids=repr)
@pytest.mark.parametrize("hook", sorted(CASES))
def test_a_raising_plugin_fails_the_call_with_an_error_naming_it(
    make_framework: Any, hook: str, exc: BaseException
) -> None:
    point, run = CASES[hook]
    fw = make_framework({"Boom": raising(exc)}, {point: ["Boom"]})
    status = status_of(run(fw))
    assert status is not None and status.code == Code.ERROR and status.plugin == "Boom"
    assert f"raised {type(exc).__name__}" in status.message


@pytest.mark.parametrize("hook", ["score_batch", "normalize_score"])
def test_score_helpers_that_raise_fail_the_score_phase(make_framework: Any, hook: str) -> None:
    def fail(self: Any) -> Any:
        raise ValueError("bad")

    cls = type("Half", (Harmless,), {hook: hookimpl(specname=hook)(fail)})
    fw = make_framework({"Half": cls}, {"score": ["Half"]})
    status = status_of(fw.run_score_plugins(CycleState(), POD, TABLE, ROWS))
    assert status is not None and status.code == Code.ERROR and status.plugin == "Half"
    assert f"raised ValueError in {hook}" in status.message


def test_informational_points_ignore_a_raising_plugin(make_framework: Any) -> None:
    fw = make_framework(
        {"Boom": raising(SystemExit(1))}, {"reserve": ["Boom"], "postBind": ["Boom"]}
    )
    fw.run_reserve_plugins_unreserve(CycleState(), POD, "n0")
    fw.run_post_bind_plugins(CycleState(), POD, "n0")


def test_keyboard_interrupt_is_not_a_plugin_failure(make_framework: Any) -> None:
    fw = make_framework({"Boom": raising(KeyboardInterrupt())}, {"filter": ["Boom"]})
    with pytest.raises(KeyboardInterrupt):
        fw.run_filter_plugins(CycleState(), POD, NODE)


@pytest.mark.parametrize(
    "events",
    [
        pytest.param(lambda: 1 / 0, id="raises"),
        pytest.param(lambda: ["Node/Add"], id="wrong-items"),
    ],
)
def test_a_failing_events_to_register_fails_construction(
    make_framework: Any, events: Callable[[], Any]
) -> None:
    cls = type(
        "Bad",
        (Harmless,),
        {"events_to_register": hookimpl(specname="events_to_register")(lambda self: events())},
    )
    with pytest.raises(PluginError, match='plugin "Bad" in profile "test-scheduler"'):
        make_framework({"Bad": cls}, {"filter": ["Bad"]})


def test_events_to_register_of_a_good_plugin(make_framework: Any) -> None:
    cls = type(
        "Good",
        (Harmless,),
        {"events_to_register": hookimpl(specname="events_to_register")(lambda self: [])},
    )
    fw = make_framework({"Good": cls}, {"filter": ["Good"]})
    assert fw.events_to_register()["Good"] == []
    assert all(isinstance(e, ClusterEventWithHint) for e in fw.events_to_register()["Good"])


def test_status_message_is_an_attribute_like_pod_outcome_message() -> None:
    status = Status(Code.UNSCHEDULABLE, "a", "b")
    assert status.message == "a, b"
    assert Status().message == ""
