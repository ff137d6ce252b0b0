"""What plugin authors import in their tests: pod and node builders, one plugin through the
real Framework, whole simulations, and scenarios replayed on a simulated clock."""

from kubesched.scenario import (
    NodeAdded,
    PodCreated,
    PodDeleted,
    ReplayOptions,
    ReplayResult,
    load_scenario,
    replay,
    scenario_of,
)
from kubesched.testing.builders import (
    DEFAULT_NODE_PODS,
    PAUSE_IMAGE,
    Amount,
    NodeBuilder,
    PodBuilder,
    make_node,
    make_pod,
    resource_list,
)
from kubesched.testing.framework_harness import FrameworkHarness
from kubesched.testing.harness import (
    PluginHarness,
    assert_batch_agrees,
    run_filter,
    run_score,
)
from kubesched.testing.simulate import (
    Simulate,
    SimulationLimitError,
    SimulationRun,
    simulate,
)

__all__ = [
    "DEFAULT_NODE_PODS",
    "PAUSE_IMAGE",
    "Amount",
    "FrameworkHarness",
    "NodeAdded",
    "NodeBuilder",
    "PluginHarness",
    "PodBuilder",
    "PodCreated",
    "PodDeleted",
    "ReplayOptions",
    "ReplayResult",
    "Simulate",
    "SimulationLimitError",
    "SimulationRun",
    "assert_batch_agrees",
    "load_scenario",
    "make_node",
    "make_pod",
    "replay",
    "resource_list",
    "run_filter",
    "run_score",
    "scenario_of",
    "simulate",
]
