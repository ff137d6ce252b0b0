"""Feature gates: upstream's `--feature-gates`, the table of known gates and their values.

kubesched accepts every gate kube-scheduler of the tracked release accepts,
with the same defaults, stages and locks; `BEHAVIOUR` names the gates whose
value changes what kubesched does. The others are accepted and have no effect.
"""

from __future__ import annotations

from kubesched.features._behaviour import (
    BEHAVIOUR,
    POD_LEVEL_RESOURCES,
    TAINT_TOLERATION_COMPARISON_OPERATORS,
)
from kubesched.features._gates import (
    DEFAULT_FEATURE_GATES,
    FeatureGateError,
    FeatureGates,
    parse_feature_gates,
    parse_feature_gates_flag,
)
from kubesched.features._table import KNOWN_FEATURES, TRACKED_RELEASE, FeatureSpec, Stage

__all__ = [
    "BEHAVIOUR",
    "DEFAULT_FEATURE_GATES",
    "KNOWN_FEATURES",
    "POD_LEVEL_RESOURCES",
    "TAINT_TOLERATION_COMPARISON_OPERATORS",
    "TRACKED_RELEASE",
    "FeatureGateError",
    "FeatureGates",
    "FeatureSpec",
    "Stage",
    "parse_feature_gates",
    "parse_feature_gates_flag",
]
