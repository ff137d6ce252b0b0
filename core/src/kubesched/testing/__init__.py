"""What plugin authors import in their tests: pod and node builders, one plugin through the
real Framework, and whole simulations."""

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
    "NodeBuilder",
    "PluginHarness",
    "PodBuilder",
    "Simulate",
    "SimulationLimitError",
    "SimulationRun",
    "assert_batch_agrees",
    "make_node",
    "make_pod",
    "resource_list",
    "run_filter",
    "run_score",
    "simulate",
]
