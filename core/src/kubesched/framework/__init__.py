"""What a plugin sees: hookspecs, Status, CycleState, NodeInfo, the Handle."""

from kubesched.framework.cycle_state import CycleState, StateData, StateNotFoundError
from kubesched.framework.events import (
    ActionType,
    ClusterEvent,
    ClusterEventWithHint,
    EventResource,
    QueueingHint,
)
from kubesched.framework.hookspecs import EXTENSION_POINTS, hookimpl, hookspec
from kubesched.framework.interface import Handle, PluginFactory
from kubesched.framework.node_table import NodeTable
from kubesched.framework.status import Code, Status, code_of, is_success
from kubesched.framework.types import (
    MAX_NODE_SCORE,
    MAX_TOTAL_SCORE,
    MIN_NODE_SCORE,
    NodeInfo,
    NodeScoreList,
    PodInfo,
    PostFilterResult,
    PreFilterResult,
    QueuedPodInfo,
)

__all__ = [
    "EXTENSION_POINTS",
    "MAX_NODE_SCORE",
    "MAX_TOTAL_SCORE",
    "MIN_NODE_SCORE",
    "ActionType",
    "ClusterEvent",
    "ClusterEventWithHint",
    "Code",
    "CycleState",
    "EventResource",
    "Handle",
    "NodeInfo",
    "NodeScoreList",
    "NodeTable",
    "PluginFactory",
    "PodInfo",
    "PostFilterResult",
    "PreFilterResult",
    "QueuedPodInfo",
    "QueueingHint",
    "StateData",
    "StateNotFoundError",
    "Status",
    "code_of",
    "hookimpl",
    "hookspec",
    "is_success",
]
