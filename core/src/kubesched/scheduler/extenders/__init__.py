"""HTTP scheduler extenders: upstream's wire format, client and calls from the cycles."""

from kubesched.scheduler.extenders.client import DEFAULT_EXTENDER_TIMEOUT, ExtenderClient
from kubesched.scheduler.extenders.cycle import (
    ExtenderNodeVerdict,
    ExtenderVerdicts,
    extenders_binding,
    find_nodes_that_pass_extenders,
    has_filters,
    has_prioritizers,
    prioritize_with_extenders,
    weighted_score,
)
from kubesched.scheduler.extenders.http_extender import HTTPExtender
from kubesched.scheduler.extenders.wire import MAX_EXTENDER_PRIORITY, MIN_EXTENDER_PRIORITY

__all__ = [
    "DEFAULT_EXTENDER_TIMEOUT",
    "MAX_EXTENDER_PRIORITY",
    "MIN_EXTENDER_PRIORITY",
    "ExtenderClient",
    "ExtenderNodeVerdict",
    "ExtenderVerdicts",
    "HTTPExtender",
    "extenders_binding",
    "find_nodes_that_pass_extenders",
    "has_filters",
    "has_prioritizers",
    "prioritize_with_extenders",
    "weighted_score",
]
