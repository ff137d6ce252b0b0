"""Plugins that misbehave on purpose at every extension point, for tests."""

from kubesched_faultinjection.plugin import FAULTS, HOOKS, FaultInjection, FaultInjectionArgs
from kubesched_faultinjection.queue_sort import SORT_FAULTS, FaultySort, FaultySortArgs

__all__ = [
    "FAULTS",
    "HOOKS",
    "SORT_FAULTS",
    "FaultInjection",
    "FaultInjectionArgs",
    "FaultySort",
    "FaultySortArgs",
]
