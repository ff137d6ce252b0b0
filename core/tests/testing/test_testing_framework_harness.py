"""FrameworkHarness: several plugins in one framework, as upstream's framework tests do."""

from __future__ import annotations

from typing import Any

import pytest
from attrs import frozen

from kubesched import hookimpl
from kubesched.errors import ConfigError, PluginError
from kubesched.framework import Code, NodeInfo, Status
from kubesched.testing import FrameworkHarness, make_node, make_pod

NODES = [make_node(n).label("size", str(i)).obj() for i, n in enumerate(["n0", "n1", "n2"])]
POD = make_pod("p").namespace("default").obj()


class RejectN0:
    def __init__(self, args: Any, handle: Any) -> None:
        pass

    @hookimpl
    def filter(self, node_info: NodeInfo) -> Status | None:
        return Status(Code.UNSCHEDULABLE, "no n0") if node_info.name == "n0" else None


class RejectN0AndN1:
    def __init__(self, args: Any, handle: Any) -> None:
        pass

    @hookimpl
    def filter(self, node_info: NodeInfo) -> Status | None:
        if node_info.name in ("n0", "n1"):
            return Status(Code.UNSCHEDULABLE, "not n0 or n1")
        return None


@frozen
class SizeArgs:
    factor: int = 10


class Size:
    args_type = SizeArgs

    def __init__(self, args: SizeArgs | None, handle: Any) -> None:
        self.args = args or SizeArgs()

    @hookimpl
    def score(self, node_info: NodeInfo) -> int:
        return int(node_info.node.metadata.labels["size"]) * self.args.factor


class Flat:
    def __init__(self, args: Any, handle: Any) -> None:
        pass

    @hookimpl
    def score(self, node_info: NodeInfo) -> int:
        return 7


def test_filter_reports_the_first_rejecting_plugin_in_profile_order() -> None:
    statuses = FrameworkHarness([RejectN0, RejectN0AndN1], nodes=NODES).filter(POD)
    assert statuses["n2"] is None
    assert statuses["n0"] is not None and statuses["n0"].plugin == "RejectN0"
    assert statuses["n1"] is not None and statuses["n1"].plugin == "RejectN0AndN1"
    reordered = FrameworkHarness([RejectN0AndN1, RejectN0], nodes=NODES).filter(POD)
    assert reordered["n0"] is not None and reordered["n0"].plugin == "RejectN0AndN1"


def test_scores_are_weighted_and_summed() -> None:
    harness = FrameworkHarness(
        [Size, Flat], weights={"Size": 2, "Flat": 3}, args={"Size": {"factor": 5}}, nodes=NODES
    )
    assert harness.plugin_scores(POD) == {
        "Size": {"n0": 0, "n1": 10, "n2": 20},
        "Flat": {"n0": 21, "n1": 21, "n2": 21},
    }
    assert harness.score(POD) == {"n0": 21, "n1": 31, "n2": 41}


def test_enabled_chooses_the_plugins_per_point() -> None:
    harness = FrameworkHarness(
        [RejectN0, RejectN0AndN1, Size, Flat],
        enabled={"filter": ["RejectN0"], "score": ["Flat"]},
        nodes=NODES,
    )
    assert [n for n, s in harness.filter(POD).items() if s is None] == ["n1", "n2"]
    assert harness.plugin_scores(POD) == {"Flat": {"n0": 7, "n1": 7, "n2": 7}}
    assert set(harness.plugins) == {"RejectN0", "Flat"}


def test_bad_args_are_reported_by_field_and_no_score_plugin_is_an_error() -> None:
    with pytest.raises(ConfigError, match="factor"):
        FrameworkHarness([Size], args={"Size": {"factor": "many"}}, nodes=NODES)
    with pytest.raises(PluginError, match="no Score plugin"):
        FrameworkHarness([RejectN0], nodes=NODES).score(POD)
