"""HTTP scheduler extenders: upstream's wire format, client and calls from the cycles."""

from kubesched.scheduler.extenders.client import ExtenderClient
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
from kubesched.scheduler.extenders.settings import (
    DEFAULT_EXTENDER_TIMEOUT,
    ExtenderSettings,
    TLSSettings,
)
from kubesched.scheduler.extenders.wire import MAX_EXTENDER_PRIORITY, MIN_EXTENDER_PRIORITY

__all__ = [
    "DEFAULT_EXTENDER_TIMEOUT",
    "MAX_EXTENDER_PRIORITY",
    "MIN_EXTENDER_PRIORITY",
    "ExtenderClient",
    "ExtenderNodeVerdict",
    "ExtenderSettings",
    "ExtenderVerdicts",
    "HTTPExtender",
    "TLSSettings",
    "extenders_binding",
    "find_nodes_that_pass_extenders",
    "has_filters",
    "has_prioritizers",
    "prioritize_with_extenders",
    "weighted_score",
]
