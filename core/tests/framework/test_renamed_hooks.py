"""Renamed hooks: a plugin implementing a hook's former name (or former argument names) is
called through the new hook and warned once with its name. No hook is renamed today, so
each test renames `score` in the table (`_renames.RENAMED_HOOKS`), as a release would."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

from kubesched import hookimpl
from kubesched.errors import PluginDeprecationWarning, PluginError
from kubesched.framework import CycleState, NodeInfo, NodeTable, _deprecations, _renames
from kubesched.framework._deprecations import deprecated_uses
from kubesched.framework._registry import implements
from kubesched.framework._renames import HookRename
from kubesched.testing import make_node, make_pod

POD = make_pod("p").uid("p-uid").obj()
RENAMED = HookRename(
    "node_score", "score", since="0.1", removal="0.3", arguments={"info": "node_info"}
)
ARGUMENTS = HookRename(
    "score", "score", since="0.1", removal="0.3", arguments={"node": "node_info"}
)
WHERE = 'plugin "Former" (registered in code) in profile "test-scheduler"'


class Former:
    """Written against the former name and argument name."""

    def __init__(self, args: object, handle: object) -> None:
        pass

    @hookimpl
    def node_score(self, pod: Any, info: NodeInfo) -> int:
        assert pod is POD
        return int(info.name[1:]) * 10


class FormerArgument:
    """Written against `score` with its former argument name."""

    def __init__(self, args: object, handle: object) -> None:
        pass

    @hookimpl
    def score(self, node: NodeInfo) -> int:
        return int(node.name[1:]) * 10


class Both:
    """Implements the former name and the new one: its own `score` is the one called."""

    def __init__(self, args: object, handle: object) -> None:
        pass

    @hookimpl
    def node_score(self, info: NodeInfo) -> int:
        raise AssertionError("the former name is not called when the new one is there")

    @hookimpl
    def score(self, node_info: NodeInfo) -> int:
        return 7


@pytest.fixture
def renamed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_renames, "RENAMED_HOOKS", {"node_score": RENAMED})
    monkeypatch.setattr(_deprecations, "_warned", set())


def totals(make_framework: Any, plugin: type, name: str = "Former") -> list[int]:
    fw = make_framework({name: plugin}, {"score": [name]})
    nodes = NodeTable([NodeInfo(make_node(f"n{i}").obj()) for i in range(3)])
    out = fw.run_score_plugins(CycleState(), POD, nodes, np.arange(3))
    return [int(t) for t in out.totals]


def test_a_former_hook_name_is_called_through_the_new_hook_and_warns_once(
    renamed: None, make_framework: Any
) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(3):  # three profiles, or three runs, in one process
            assert totals(make_framework, Former) == [0, 10, 20]
    messages = [str(w.message) for w in caught if w.category is PluginDeprecationWarning]
    assert messages == [
        f"{WHERE}: hook node_score was renamed score (info is now node_info) in kubesched-core "
        "0.1; the plugin is called through score until 0.3: implement score instead"
    ]


def test_the_plugin_counts_as_extending_the_new_point_and_is_flagged(renamed: None) -> None:
    assert implements(Former, "score")
    assert deprecated_uses(Former) == [str(RENAMED.warning())]
    assert deprecated_uses(Both) == []


def test_a_plugin_on_the_new_name_too_is_called_there_and_not_warned(
    renamed: None, make_framework: Any
) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error", PluginDeprecationWarning)
        assert totals(make_framework, Both, "Both") == [7, 7, 7]


def test_former_argument_names_of_a_hook_are_served_too(
    monkeypatch: pytest.MonkeyPatch, make_framework: Any
) -> None:
    monkeypatch.setattr(_renames, "RENAMED_HOOKS", {"score": ARGUMENTS})
    monkeypatch.setattr(_deprecations, "_warned", set())
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert totals(make_framework, FormerArgument) == [0, 10, 20]
    [message] = [str(w.message) for w in caught if w.category is PluginDeprecationWarning]
    assert message.endswith(
        "arguments of hook score were renamed (node is now node_info) in kubesched-core 0.1; "
        "the former names are served until 0.3: take the new ones instead"
    )


def test_without_the_table_entry_the_former_name_is_refused(make_framework: Any) -> None:
    assert _renames.RENAMED_HOOKS == {}  # no hook has been renamed in this release
    assert not implements(Former, "score")
    with pytest.raises(PluginError, match="does not extend Score plugin"):
        totals(make_framework, Former)


class WithProperty:
    """A property that fails until the scheduler has a cluster (as a handle's client does)."""

    def __init__(self, args: object, handle: object) -> None:
        pass

    @property
    def client(self) -> object:
        raise PluginError("this framework has no cluster client")

    @hookimpl
    def score(self, node_info: NodeInfo) -> int:
        return 3


def test_registration_reads_no_property_of_the_plugin(renamed: None, make_framework: Any) -> None:
    assert totals(make_framework, WithProperty, "WithProperty") == [3, 3, 3]
