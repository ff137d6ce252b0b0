"""kubesched's pytest plugin: fixtures for plugin authors' tests.

Installed with kubesched-core (a `pytest11` entry point, as pytest's own plugin ecosystem
does), so any test session in an environment with kubesched has them; `-p no:kubesched`
turns it off. Each fixture hands a test one of `kubesched.testing`'s tools:

- `kubesched_builders`: the pod and node builders (`kubesched_builders.make_pod("web")`).
- `kubesched_harness`: `PluginHarness`, one plugin in a framework of its own
  (`kubesched_harness(MyPlugin, {"labelKey": "tier"}, nodes=[...])`).
- `kubesched_framework`: `FrameworkHarness`, several plugins in one framework
  (`kubesched_framework([MyPlugin, OtherPlugin], nodes=[...])`).
- `kubesched_simulate`: `simulate`, a whole cluster through the profiles of a
  configuration, with the installed plugins (`kubesched_simulate(nodes, pods, config)`).

The module imports nothing heavy until a test asks for a fixture, so sessions that do not
use them pay nothing.
"""

from __future__ import annotations

import types
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from kubesched.testing.framework_harness import FrameworkHarness
    from kubesched.testing.harness import PluginHarness
    from kubesched.testing.simulate import Simulate


@pytest.fixture
def kubesched_builders() -> types.ModuleType:
    """`kubesched.testing.builders`: `make_pod`, `make_node`, `resource_list`, ..."""
    from kubesched.testing import builders

    return builders


@pytest.fixture
def kubesched_harness() -> type[PluginHarness[Any]]:
    """`PluginHarness`: call it with a plugin (class or instance), its args and a cluster."""
    from kubesched.testing.harness import PluginHarness

    return PluginHarness


@pytest.fixture
def kubesched_framework() -> type[FrameworkHarness]:
    """`FrameworkHarness`: call it with several plugins, their weights and args, a cluster."""
    from kubesched.testing.framework_harness import FrameworkHarness

    return FrameworkHarness


@pytest.fixture
def kubesched_simulate() -> Simulate:
    """`kubesched.testing.simulate`: schedule nodes and pods with a configuration's profiles
    (annotate the argument as `kubesched.testing.Simulate`)."""
    from kubesched.testing.simulate import simulate

    return simulate
