"""What a plugin sees: hookspecs, Status, CycleState, NodeInfo, the Handle, cluster events.

Everything a plugin needs is exported here; the modules behind it are private.
"""

from kubesched.features import (
    DEFAULT_FEATURE_GATES,
    POD_LEVEL_RESOURCES,
    TAINT_TOLERATION_COMPARISON_OPERATORS,
    FeatureGates,
)
from kubesched.framework._affinity import (
    AffinityTerm,
    PodAffinityTerms,
    WeightedAffinityTerm,
    affinity_term,
    pod_affinity_terms,
)
from kubesched.framework._cycle_state import CycleState, StateData, StateNotFoundError
from kubesched.framework._diagnosis import Diagnosis, FitError
from kubesched.framework._events import (
    ActionType,
    ClusterEvent,
    ClusterEventWithHint,
    EventResource,
    QueueingHint,
    QueueingHintFn,
)
from kubesched.framework._extender import (
    EXTENDER_NAME,
    Extender,
    ExtenderError,
    Victims,
    process_preemption_with_extenders,
)
from kubesched.framework._helpers import default_normalize_score
from kubesched.framework._interface import (
    Clock,
    ClusterClient,
    EventRecorder,
    Handle,
    PluginFactory,
    PodNominator,
    WaitingPod,
)
from kubesched.framework._lister import SharedLister
from kubesched.framework._node_table import NodeTable
from kubesched.framework._nominated_filter import counted_nominated
from kubesched.framework._points import EXTENSION_POINTS, HOOKS, ExtensionPoint
from kubesched.framework._registry import (
    IN_TREE,
    OUT_OF_TREE,
    PluginSpec,
    Registry,
    default_registry,
    points_of,
)
from kubesched.framework._status import Code, Status, code_of, is_success
from kubesched.framework._types import (
    MAX_NODE_SCORE,
    MAX_TOTAL_SCORE,
    MIN_NODE_SCORE,
    NodeInfo,
    NodeScoreList,
    PodInfo,
    PostFilterResult,
    PreFilterResult,
    QueuedPodInfo,
    host_ports,
)
from kubesched.framework._waiting_pods import MAX_PERMIT_TIMEOUT
from kubesched.framework._what_if_table import WhatIfTable
from kubesched.framework.hookspecs import hookimpl, hookspec

__all__ = [
    "DEFAULT_FEATURE_GATES",
    "EXTENDER_NAME",
    "EXTENSION_POINTS",
    "HOOKS",
    "IN_TREE",
    "MAX_NODE_SCORE",
    "MAX_PERMIT_TIMEOUT",
    "MAX_TOTAL_SCORE",
    "MIN_NODE_SCORE",
    "OUT_OF_TREE",
    "POD_LEVEL_RESOURCES",
    "TAINT_TOLERATION_COMPARISON_OPERATORS",
    "ActionType",
    "AffinityTerm",
    "Clock",
    "ClusterClient",
    "ClusterEvent",
    "ClusterEventWithHint",
    "Code",
    "CycleState",
    "Diagnosis",
    "EventRecorder",
    "EventResource",
    "Extender",
    "ExtenderError",
    "ExtensionPoint",
    "FeatureGates",
    "FitError",
    "Handle",
    "NodeInfo",
    "NodeScoreList",
    "NodeTable",
    "PluginFactory",
    "PluginSpec",
    "PodAffinityTerms",
    "PodInfo",
    "PodNominator",
    "PostFilterResult",
    "PreFilterResult",
    "QueuedPodInfo",
    "QueueingHint",
    "QueueingHintFn",
    "Registry",
    "SharedLister",
    "StateData",
    "StateNotFoundError",
    "Status",
    "Victims",
    "WaitingPod",
    "WeightedAffinityTerm",
    "WhatIfTable",
    "affinity_term",
    "code_of",
    "counted_nominated",
    "default_normalize_score",
    "default_registry",
    "hookimpl",
    "hookspec",
    "host_ports",
    "is_success",
    "pod_affinity_terms",
    "points_of",
    "process_preemption_with_extenders",
]
