"""Plugins read the scheduler's feature gates from their Handle, read-only."""

from __future__ import annotations

from typing import Any

import pytest

from kubesched import hookimpl
from kubesched.features import parse_feature_gates
from kubesched.framework import DEFAULT_FEATURE_GATES, Code, FeatureGates, Handle, Status
from kubesched.testing import PluginHarness, make_node, make_pod


class GateReader:
    """A Filter that rejects every node unless PodLevelResources is on."""

    name = "GateReader"

    def __init__(self, args: Any, handle: Handle) -> None:
        self.gates = handle.feature_gates

    @hookimpl
    def filter(self, state: Any, pod: Any, node_info: Any) -> Status | None:
        if self.gates.enabled("PodLevelResources"):
            return None
        return Status(Code.UNSCHEDULABLE, "PodLevelResources is off")


def _harness(gates: FeatureGates) -> PluginHarness[GateReader]:
    return PluginHarness(
        GateReader, points=["filter"], nodes=[make_node("n1").obj()], feature_gates=gates
    )


def test_the_plugin_sees_the_schedulers_gates() -> None:
    assert _harness(DEFAULT_FEATURE_GATES).plugin.gates is DEFAULT_FEATURE_GATES
    off = parse_feature_gates("PodLevelResources=false")
    harness = _harness(off)
    assert harness.plugin.gates is off
    pod = make_pod("p").obj()
    [node] = harness.nodes
    assert harness.framework.run_filter_plugins(harness.state, pod, node) is not None


def test_the_gates_cannot_be_changed() -> None:
    gates = _harness(DEFAULT_FEATURE_GATES).plugin.gates
    with pytest.raises(AttributeError):
        gates.values = {}  # type: ignore[misc]
    with pytest.raises(TypeError):
        gates.values["PodLevelResources"] = False  # type: ignore[index]
