"""kubesched's pytest plugin: registered through a `pytest11` entry point, its fixtures hand out
the testing tools (this session loads it like any plugin author's does)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import types
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from kubesched import hookimpl
from kubesched.framework import NodeInfo
from kubesched.testing import FrameworkHarness, PluginHarness, Simulate, builders, simulate


class Prefer:
    """Scores the node named "b" highest."""

    def __init__(self, args: Any, handle: Any) -> None:
        pass

    @hookimpl
    def score(self, node_info: NodeInfo) -> int:
        return 100 if node_info.name == "b" else 0


def test_the_entry_point_names_the_plugin_module() -> None:
    [entry] = entry_points(group="pytest11", name="kubesched")
    assert entry.value == "kubesched.testing.pytest_plugin"


def test_the_fixtures_are_the_testing_tools(
    kubesched_builders: types.ModuleType,
    kubesched_harness: type[PluginHarness[Any]],
    kubesched_framework: type[FrameworkHarness],
    kubesched_simulate: Simulate,
) -> None:
    assert kubesched_builders is builders
    assert (kubesched_harness, kubesched_framework) == (PluginHarness, FrameworkHarness)
    assert kubesched_simulate is simulate


def test_a_plugin_authors_test_uses_them(
    kubesched_builders: types.ModuleType,
    kubesched_framework: type[FrameworkHarness],
    kubesched_simulate: Simulate,
) -> None:
    nodes = [kubesched_builders.make_node(n).obj() for n in ("a", "b")]
    pod = kubesched_builders.make_pod("p").namespace("default").obj()
    assert kubesched_framework([Prefer], nodes=nodes).score(pod) == {"a": 0, "b": 100}
    config = {"profiles": [{"plugins": {"score": {"enabled": [{"name": "Prefer"}]}}}]}
    run = kubesched_simulate(nodes, [pod], config, plugins={"Prefer": Prefer})
    assert run.placements == {"default/p": "b"}


def test_no_kubesched_turns_it_off(tmp_path: Path) -> None:
    (tmp_path / "test_off.py").write_text(
        textwrap.dedent(
            """
            def test_uses(kubesched_simulate):
                pass
            """
        )
    )
    argv = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-c", "/dev/null"]
    on = subprocess.run([*argv, str(tmp_path)], capture_output=True, text=True, check=False)
    assert on.returncode == 0, on.stdout
    off = subprocess.run(
        [*argv, "-p", "no:kubesched", str(tmp_path)], capture_output=True, text=True, check=False
    )
    assert off.returncode == 1 and "fixture 'kubesched_simulate' not found" in off.stdout
